#!/bin/sh
# No host synchronisation between elements: the host may wait for the GPU
# only where the CPU must see the bytes. Scans gst/, elements/ and kernels/
# (comments stripped) for blocking CUDA calls and fails on any outside the
# places listed in $allowed below.
# Blocking calls: cuda{Stream,Device,Event,Thread,Ctx}Synchronize, our own
# gst_cuda_fx_context_wait_stream, and the synchronous copies and fills
# (cudaMemcpy*, cudaMemset* without Async), plus their driver-API forms. Every hit is printed as file:line.
#
# Usage: CUDAFX_SOURCE_ROOT=/path/to/gst-cudafx test-no-host-sync.sh
# Exit status: 0 pass, 1 fail.
set -u

root=${CUDAFX_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
# Where the host may wait: a whole file, or FILE:FUNCTION for one function
# (GNU style: the function's name starts its line).
#   gstcudafxcopy.c:download_frame  the download: the CPU must see the bytes
#   gstcudafxmemory.c             CPU maps of device memory, and freeing
#   gstcudafxcontext.c            the release thread and its fallback, and
#   gstcudafxcontext.h            gst_cuda_fx_context_wait_stream (whose
#                                 callers must be allowed here too)
#   gstcudafxreadback.c:gst_cuda_fx_readback_now  a result needed before
#       anything can go on (cudadegrain's first frame after a caps change in
#       automatic mode waits once for its own noise estimate; later frames
#       use the previous frames' estimates)
#   gstcudafxreadback.c:gst_cuda_fx_readback_collect  frame k reads what
#       frame k - lag queued (cudadegrain applies frame k-4's estimate, so
#       that the output depends on the input alone); it waits only when
#       the GPU is lag frames behind the host
#   gstcudafxframe.c:unmap_foreign  a frame of GStreamer's CUDA memory
#       handed to nvcodec's elements must be complete: they know nothing
#       of our events
#   gstcudafxdlpack.c:export_free  only when recording a DLPack consumer's
#       reads failed: the frame must not be let go before they are done
allowed="elements/gstcudafxcopy.c:download_frame gst/gstcudafxmemory.c gst/gstcudafxcontext.c gst/gstcudafxcontext.h gst/gstcudafxreadback.c:gst_cuda_fx_readback_now gst/gstcudafxreadback.c:gst_cuda_fx_readback_collect gst/gstcudafxframe.c:unmap_foreign gst/gstcudafxdlpack.c:export_free"

# Name of the function around line N of FILE: the last line at or before it
# that starts with a name and " (" (a GNU-style definition)
function_at () {
  awk -v n="$2" 'NR > n { exit } /^[A-Za-z_][A-Za-z0-9_]* \(/ { f = $1 }
      END { print f }' "$1"
}

# One extended regular expression over comment-free lines: a call, the name
# followed by "(", so the ...Async variants never match.
waits='cuda(Stream|Device|Event|Thread|Ctx)Synchronize|cu(Stream|Ctx|Event)Synchronize|gst_cuda_fx_context_wait_stream'
copies='cudaMemcpy(2D|3D|Peer|3DPeer|ToSymbol|FromSymbol|ToArray|FromArray|2DToArray|2DFromArray)?'
fills='cudaMemset(2D|3D)?'
driver='cuMemcpy(HtoD|DtoH|DtoD|2D|3D|Peer)?(_v2)?|cuMemsetD(8|16|32|2D8|2D16|2D32)(_v2)?'
sync="(^|[^A-Za-z0-9_])($waits|$copies|$fills|$driver)[[:space:]]*\\("

# Prints FILE with comments blanked (line numbers kept): C block and line
# comments, leaving string and character literals alone.
strip_comments () {
  awk '
    BEGIN { block = 0 }
    {
      line = $0; out = ""; n = length (line); i = 1; str = ""
      while (i <= n) {
        c = substr (line, i, 1); c2 = substr (line, i, 2)
        if (block) {
          if (c2 == "*/") { block = 0; i += 2 } else i++
          continue
        }
        if (str != "") {
          out = out c
          if (c == "\\") { out = out substr (line, i + 1, 1); i += 2; continue }
          if (c == str) str = ""
          i++; continue
        }
        if (c2 == "/*") { block = 1; out = out " "; i += 2; continue }
        if (c2 == "//") break
        if (c == "\"" || c == "'\''") str = c
        out = out c; i++
      }
      print out
    }' "$1"
}

# The checker checks itself first: what must and must not match.
self_test () {
  bad=0
  for l in 'cudaStreamSynchronize (stream);' 'err = cudaMemcpy (d, s, n, k);' \
      'cudaMemcpy2D(a, b, c, d, e, f, g);' 'cudaMemset (p, 0, n);' \
      'cudaDeviceSynchronize ();' 'x = cudaEventSynchronize (e);' \
      '  if (cudaMemcpy3D (&p))' 'cuCtxSynchronize ();' 'cuMemcpyHtoD_v2 (a, b, n);'; do
    printf '%s\n' "$l" | grep -Eq "$sync" || { echo "self-test: missed: $l"; bad=1; }
  done
  for l in 'cudaMemcpyAsync (d, s, n, k, stream);' 'cudaMemcpy2DAsync (a);' \
      'cudaMemsetAsync (p, 0, n, s);' 'cudaStreamWaitEvent (s, e, 0);' \
      'my_cudaMemcpy (a);' 'cudaStreamSynchronizeLater (s);' 'cudaMemcpyKind k;' \
      'cudaEventQuery (e);'; do
    printf '%s\n' "$l" | grep -Eq "$sync" && { echo "self-test: false hit: $l"; bad=1; }
  done
  t=$(mktemp) || exit 1
  printf '%s\n' 'a (); /* cudaDeviceSynchronize (); */ b ();' \
      '/* a comment' '   cudaStreamSynchronize (s); */' \
      '// cudaMemcpy (a, b, c, d);' 'puts ("/* not a comment"); cudaMemset (p, 0, n);' \
      'c = '"'"'"'"'"'; cudaMemcpy (a, b, c, d);' > "$t"
  hits=$(strip_comments "$t" | grep -nE "$sync" | cut -d: -f1 | tr '\n' ' ')
  rm -f "$t"
  [ "$hits" = "5 6 " ] || { echo "self-test: comment stripping found lines '$hits', want '5 6 '"; bad=1; }
  return $bad
}

if ! self_test; then
  echo "FAIL: the checker itself is broken"
  exit 1
fi

for d in gst elements kernels; do
  if [ ! -d "$root/$d" ]; then
    echo "FAIL: $root/$d not found (set CUDAFX_SOURCE_ROOT)"
    exit 1
  fi
done

files=$(cd "$root" && find gst elements kernels -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \
    -o -name '*.cpp' -o -name '*.cc' \) | LC_ALL=C sort)
if [ -z "$files" ]; then
  echo "FAIL: no sources under $root/{gst,elements,kernels}"
  exit 1
fi

scanned=0 bad=0 ok=0
for f in $files; do
  scanned=$((scanned + 1))
  hits=$(strip_comments "$root/$f" | grep -nE "$sync") || continue
  # one verdict per hit, printed as file:line: text
  while IFS= read -r h; do
    n=${h%%:*}
    fn=$(function_at "$root/$f" "$n")
    is_allowed=no
    for a in $allowed; do
      if [ "$f" = "$a" ] || [ "$f:$fn" = "$a" ]; then
        is_allowed=yes
      fi
    done
    line="$f:$n: $(sed -n "${n}p" "$root/$f" | sed 's/^[[:space:]]*//')"
    if [ $is_allowed = yes ]; then
      echo "allowed   $line"
      ok=$((ok + 1))
    else
      echo "FORBIDDEN $line (in ${fn:-no function})"
      bad=$((bad + 1))
    fi
  done <<HITS
$hits
HITS
done

echo "$scanned files scanned: $ok host waits in the allowed places, $bad elsewhere"
if [ $bad -gt 0 ]; then
  echo "FAIL: host synchronisation outside the download and CPU maps"
  exit 1
fi
echo "PASS"
exit 0
