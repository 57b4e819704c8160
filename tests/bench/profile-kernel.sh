#!/usr/bin/env bash
# Profiles the first launch of the kernels matching REGEX while the bench
# runs the cases whose name contains CASE (Nsight Compute, on a GPU host):
#   tests/bench/profile-kernel.sh BUILD_DIR SECTION CASE REGEX
set -u
build=$1 section=$2 case=$3 regex=$4
export CUDAFX_BENCH_ONLY=$case
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
"$ncu" --kernel-name "regex:$regex" --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
  --section SchedulerStats --section WarpStateStats \
  "$build/tests/cudafx-bench" "$section" 2>&1 | grep -v "^==PROF==" 
