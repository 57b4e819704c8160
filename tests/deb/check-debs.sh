#!/usr/bin/env bash
# Installs the packages scripts/build-deb made into a clean chroot of a
# Debian release (debootstrap, the mirror this machine's apt uses) and
# tries them as a user would on a machine without a GPU:
#   - gst-inspect-1.0 lists the plugin and its elements;
#   - a pipeline through cudafxupload fails with our "No CUDA device
#     available" error (exit status not 0), not a crash;
#   - pkg-config knows gstreamer-cudafx-1.0;
#   - Python finds the GstCudaFx typelib.
#
#   tests/deb/check-debs.sh DEB_DIR [SUITE]      (SUITE: this machine's)
#
# Run as root. Prints one line per check and "N passed, N failed".
set -u
debs=$(realpath "${1:?usage: $0 DEB_DIR [SUITE]}")
. /etc/os-release
suite=${2:-$VERSION_CODENAME}
root=${CUDAFX_CHROOT:-/tmp/cudafx-chroot-$suite}

source "$(dirname "$0")/../../scripts/setup.sh"
mirror=$(cudafx_debian_mirror) ||
  { echo "no apt mirror found"; echo "0 passed, 1 failed"; exit 1; }

command -v debootstrap > /dev/null || apt-get install -y -q debootstrap > /dev/null

# a clean one every time: nothing of an earlier run's installs stays
umount "$root/proc" 2> /dev/null
rm -rf "$root"
debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$root.log" 2>&1 ||
  { tail -n 20 "$root.log"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$root/tmp/debs"
cp "$debs"/*.deb "$root/tmp/debs/"
in_root () { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
mount -t proc proc "$root/proc" 2> /dev/null
trap 'umount "$root/proc" 2> /dev/null' EXIT

passed=0 failed=0
check () {
  local name=$1; shift
  if "$@"; then
    passed=$((passed + 1)); echo "ok      $name"
  else
    failed=$((failed + 1)); echo "FAILED  $name"
  fi
}

install_debs () {
  in_root apt-get update -q > /tmp/check-debs-apt.log 2>&1 &&
    in_root sh -c 'apt-get install -y -q /tmp/debs/*.deb gstreamer1.0-tools \
      gstreamer1.0-plugins-base pkg-config python3-gi' \
      >> /tmp/check-debs-apt.log 2>&1 ||
    { tail -n 20 /tmp/check-debs-apt.log; return 1; }
}
check "the packages install with their dependencies" install_debs

inspect () {
  local out
  out=$(in_root gst-inspect-1.0 cudafx 2>&1) || { echo "$out"; return 1; }
  for e in cudaupload cudadownload cudafxupload cudafxdownload cudaluma \
      cudadeinterlace cudablur cudadegrain; do
    echo "$out" | grep -qw "$e" || { echo "$out"; echo "no $e"; return 1; }
  done
}
check "gst-inspect-1.0 cudafx lists every element" inspect

no_gpu_error () {
  local out rc
  out=$(in_root gst-launch-1.0 videotestsrc num-buffers=1 ! cudafxupload \
    ! cudafxdownload ! fakesink 2>&1)
  rc=$?
  # gst-launch-1.0 exits 255 (its -1) on an error; 129 and above up to
  # 128 + 64 are signals: a crash
  [ $rc -ne 0 ] && { [ $rc -le 128 ] || [ $rc -gt 192 ]; } &&
    echo "$out" | grep -q "No CUDA device available" ||
    { echo "$out"; echo "exit status $rc"; return 1; }
}
check "a pipeline without a GPU fails with the no-device error" no_gpu_error

check "pkg-config knows gstreamer-cudafx-1.0" \
  in_root pkg-config --exists gstreamer-cudafx-1.0

check "Python finds the GstCudaFx typelib" in_root python3 -c \
  "import gi; gi.require_version('GstCudaFx', '1.0'); from gi.repository import GstCudaFx"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
