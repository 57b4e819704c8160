#!/usr/bin/env bash
# Where a round trip's time goes: frames/s of the same source through more
# and more of the chain (run on a GPU host after tests/run-built's setup).
#   tests/bench/roundtrip-breakdown.sh BUILD_DIR [CAPS]
set -u
build=${1:?usage: $0 BUILD_DIR [CAPS]}
caps=${2:-video/x-raw,format=I420,width=1920,height=1080,framerate=1000/1}
export GST_PLUGIN_PATH_1_0=$build/elements
src="videotestsrc num-buffers=600 pattern=black ! $caps"
run () { printf '%-100s %s\n' "$1" "$("$build/tests/cudafx-bench" --pipeline "$1 ! fakesink name=sink")"; }
run "$src"
run "$src ! identity"
run "$src ! cudafxupload"
run "$src ! cudafxupload ! cudafxdownload"
run "$src ! cudafxupload ! queue max-size-buffers=4 ! cudafxdownload"
run "$src ! cudafxupload ! cudafxdownload ! queue max-size-buffers=4"
run "$src ! queue max-size-buffers=4 ! cudafxupload ! cudafxdownload"
