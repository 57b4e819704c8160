#!/usr/bin/env bash
# Profiles the first COUNT (1) launches of the kernels matching REGEX
# while the bench runs the cases whose name contains CASE (Nsight Compute,
# on a GPU host), in the environment tests/run-built gives the benchmark
# (the packed GStreamer runtime, the plugin):
#   tests/bench/profile-kernel.sh BUILD_DIR SECTION CASE REGEX [COUNT]
set -u
build=$1 section=$2 case=$3 regex=$4 count=${5:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
CUDAFX_BENCH_ONLY=$case CUDAFX_BENCH_WRAPPER="$ncu --clock-control none \
--kernel-name regex:$regex --launch-count $count --section SpeedOfLight \
--section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
--section ComputeWorkloadAnalysis --section SchedulerStats \
--section WarpStateStats" \
  "$root/tests/run-built" --build "$build" --no-tests --bench "$section" \
  2>&1 | grep -v "^==PROF=="
