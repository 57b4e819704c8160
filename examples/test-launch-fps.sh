#!/bin/sh
# Runs an example (launch-fps, C or Python) on a pipeline of @FRAMES
# frames and checks that it counted them all and exited 0.
#   test-launch-fps.sh FRAMES PROGRAM... -- PIPELINE...
# With a pipeline of our elements and no GPU: skip (77), or a failure with
# CUDAFX_REQUIRE_GPU=1.
set -u
frames=$1; shift
prog=""
while [ "$1" != "--" ]; do prog="$prog $1"; shift; done
shift
case "$*" in
  *cudafx*|*cudablur*|*cudadeinterlace*|*cudadegrain*|*cudaluma*)
    if [ ! -e /dev/nvidia0 ] && [ "${CUDAFX_REQUIRE_GPU:-0}" != 1 ]; then
      echo "no GPU: skip"; exit 77
    fi ;;
esac
out=$($prog -q "$@") || { echo "exit status $?: $out"; exit 1; }
echo "$out"
case "$out" in
  "$frames frames in "*) exit 0 ;;
  *) echo "expected $frames frames"; exit 1 ;;
esac
