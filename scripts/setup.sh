# Sourced by tests/run, pipelines/* and .ci/run: installs what is missing
# (Debian/Ubuntu), finds the CUDA toolkit and builds into $CUDAFX_BUILD.
#
#   CUDAFX_BUILD       build directory (default: build)
#   CUDAFX_CUDA_ARCHS  e.g. "90" for a quick build for one GPU (default: all)

cudafx_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAFX_BUILD=${CUDAFX_BUILD:-$cudafx_root/build}

cudafx_packages="meson ninja-build pkg-config gcc libglib2.0-dev
 libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
 gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
 ffmpeg"

cudafx_install_deps () {
  local missing="" p sudo=""
  for p in $cudafx_packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
      || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "installing:$missing"
    $sudo apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing \
      >/dev/null || { echo "apt-get install failed" >&2; return 1; }
  fi
}

cudafx_find_cuda () {
  local d
  if ! command -v nvcc >/dev/null 2>&1; then
    for d in /usr/local/cuda/bin /usr/local/cuda-*/bin /usr/lib/cuda/bin; do
      [ -x "$d/nvcc" ] && { export PATH="$d:$PATH"; break; }
    done
  fi
  command -v nvcc >/dev/null 2>&1 || {
    echo "The CUDA Toolkit (nvcc) is needed to build: install it from" \
      "https://developer.nvidia.com/cuda-downloads (12.x or 13.x)" >&2
    return 1
  }
}

cudafx_build () {
  local archs=()
  cudafx_install_deps && cudafx_find_cuda || return 1
  [ -n "${CUDAFX_CUDA_ARCHS:-}" ] && archs=("-Dcuda-archs=$CUDAFX_CUDA_ARCHS")
  if [ ! -f "$CUDAFX_BUILD/build.ninja" ]; then
    meson setup "$CUDAFX_BUILD" "$cudafx_root" ${archs[@]+"${archs[@]}"} \
      >/dev/null || return 1
  elif [ ${#archs[@]} -gt 0 ]; then
    meson configure "$CUDAFX_BUILD" "${archs[@]}" >/dev/null || return 1
  fi
  ninja -C "$CUDAFX_BUILD" >/dev/null || ninja -C "$CUDAFX_BUILD"
}

# Runs gst tools with the plugin from the build tree
cudafx_env () {
  export GST_PLUGIN_PATH_1_0="$CUDAFX_BUILD/elements${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
}
