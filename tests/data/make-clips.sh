#!/usr/bin/env bash
# Makes the H.264 clips the NVDEC tests and benchmarks decode, with FFmpeg's
# libx264 (Debian's ffmpeg): a moving test pattern with film-like noise
# (something for cudadegrain to remove), progressive or interlaced.
#
#   tests/data/make-clips.sh                 the small test clip, committed:
#                                            tests/data/test-320x240.h264
#   tests/data/make-clips.sh --bench DIR     1080p, 1080i and 4K clips for
#                                            the benchmark (not committed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# clip OUT WIDTH HEIGHT FRAMES [interlaced]
clip () {
  local out=$1 w=$2 h=$3 n=$4 il=${5:-}
  local flags=()
  [ -n "$il" ] && flags=(-flags +ildct+ilme -x264-params tff=1)
  ffmpeg -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=${w}x${h}:rate=25,noise=alls=8:allf=t" \
    -frames:v "$n" -pix_fmt yuv420p -c:v libx264 -preset veryfast \
    -crf 26 -g 25 -bf 0 "${flags[@]}" -f h264 "$out"
  echo "$out: $(stat -c %s "$out") bytes, $n frames of ${w}x${h}${il:+ interlaced}"
}

command -v ffmpeg >/dev/null || { echo "needs ffmpeg (apt-get install ffmpeg)" >&2; exit 1; }
if [ "${1:-}" = --bench ]; then
  dir=${2:?usage: $0 --bench DIR}
  mkdir -p "$dir"
  clip "$dir/1080p.h264" 1920 1080 150
  clip "$dir/1080i.h264" 1920 1080 150 interlaced
  clip "$dir/2160p.h264" 3840 2160 60
else
  clip "$here/test-320x240.h264" 320 240 30
fi
