# Sourced by tests/run, pipelines/* and .ci/run: installs what is missing
# (Debian/Ubuntu), finds the CUDA toolkit and builds into $CUDAFX_BUILD.
#
#   CUDAFX_BUILD       build directory (default: build)
#   CUDAFX_CUDA_ARCHS  e.g. "90" for a quick build for one GPU (default: all)

cudafx_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUDAFX_BUILD=${CUDAFX_BUILD:-$cudafx_root/build}

# g++: nvcc compiles the kernels' host side with the host's C++ compiler
cudafx_packages="meson ninja-build pkg-config gcc g++ libglib2.0-dev
 libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
 gstreamer1.0-plugins-base"
# Used by some tests and benchmarks when present (gst-plugins-bad for the
# nvcodec coexistence test and gaussianblur, -good for interlace, FFmpeg
# for the bit-exactness check, GObject introspection and PyGObject for the
# GstCudaFx typelib and its Python test); the build and the other tests go
# on without.
cudafx_optional_packages="gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
 ffmpeg gobject-introspection libgirepository1.0-dev python3-gi
 gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0"
# scikit-image's photographs: the temporal degrain's cut test
# (tests/temporal/test-cuts.py, CPU) and, with a GPU, the degrain quality
# test
cudafx_optional_packages="$cudafx_optional_packages python3-skimage
 python3-numpy"

cudafx_missing () {
  local p missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
      || missing="$missing $p"
  done
  echo $missing
}

# apt-get with retries: a fresh machine may still hold the dpkg lock or
# see a registry hiccup for a few seconds.
cudafx_apt () {
  local sudo="" try log
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "not root and no sudo: cannot run apt-get $*" >&2
      return 1
    }
    sudo=sudo
  fi
  log=$(mktemp)
  for try in 1 2 3 4 5; do
    if $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 "$@" >"$log" 2>&1; then
      rm -f "$log"
      return 0
    fi
    [ $try -lt 5 ] && sleep $((try * 5))
  done
  echo "apt-get $* failed:" >&2
  tail -n 20 "$log" >&2
  rm -f "$log"
  return 1
}

cudafx_install_deps () {
  local missing optional
  command -v apt-get >/dev/null 2>&1 || return 0
  missing=$(cudafx_missing $cudafx_packages)
  optional=$(cudafx_missing $cudafx_optional_packages)
  [ -z "$missing$optional" ] && return 0
  echo "installing: $missing $optional"
  cudafx_apt update -q || true
  if [ -n "$missing" ]; then
    cudafx_apt install -y -q $missing || return 1
  fi
  if [ -n "$optional" ]; then
    cudafx_apt install -y -q $optional \
      || echo "optional packages not installed ($optional): the tests" \
        "that need them skip" >&2
  fi
  return 0
}

# The Debian mirror this machine's apt uses (deb822 sources, else
# sources.list), for debootstrap (scripts/debian-chroot, tests/deb/)
cudafx_debian_mirror () {
  local mirror
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources \
    2> /dev/null | grep -v security | head -n 1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 !~ /security/ \
    { print $2; exit }' /etc/apt/sources.list 2> /dev/null)
  [ -n "$mirror" ] && echo "$mirror"
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
    local log
    log=$(mktemp)
    meson setup "$CUDAFX_BUILD" "$cudafx_root" ${archs[@]+"${archs[@]}"} \
      >"$log" 2>&1 || { tail -n 30 "$log"; rm -f "$log"; return 1; }
    rm -f "$log"
  elif [ ${#archs[@]} -gt 0 ]; then
    meson configure "$CUDAFX_BUILD" "${archs[@]}" >/dev/null || return 1
  fi
  ninja -C "$CUDAFX_BUILD" >/dev/null || ninja -C "$CUDAFX_BUILD"
}

# Runs gst tools with the plugin from the build tree
cudafx_env () {
  export GST_PLUGIN_PATH_1_0="$CUDAFX_BUILD/elements${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
}
