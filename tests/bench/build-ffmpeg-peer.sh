#!/usr/bin/env bash
# build-ffmpeg-peer.sh - build a small, static-ish FFmpeg used ONLY as a
# benchmark peer: it lets us run FFmpeg's CPU filters (gblur, nlmeans,
# vaguedenoiser, yadif, bwdif, ...) side by side with our GPU elements on a
# remote host that has no FFmpeg and no network.  It is NOT linked into the
# plugin and is not shipped with it.
#
# Builds Debian bookworm's ffmpeg 5.1.x source (orig tarball, no Debian
# patches) with --disable-everything plus the few components we need, x86
# SIMD (nasm) on, static FFmpeg libs; the result depends only on glibc.
# GPL is enabled because interlace/tinterlace are GPL filters (Debian's own
# build is --enable-gpl too).
#
# Usage: tests/bench/build-ffmpeg-peer.sh [OUTDIR]   (default /tmp/ffmpeg-peer)
# Needs root (apt-get).  Source is taken from /tmp/ffsrc, or fetched there
# with `apt-get source --download-only ffmpeg`.
set -euo pipefail

OUTDIR=${1:-/tmp/ffmpeg-peer}
SRCDIR=${FFSRC:-/tmp/ffsrc}
WORKDIR=${FFBUILD:-/tmp/ffmpeg-peer-build}

log() { printf '>> %s\n' "$*" >&2; }

# --- build dependencies ------------------------------------------------------
missing=()
for pkg in nasm xz-utils gcc make; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$pkg")
done
if ((${#missing[@]})); then
    log "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# --- source ------------------------------------------------------------------
shopt -s nullglob
orig=("$SRCDIR"/ffmpeg_*.orig.tar.xz)
if ((${#orig[@]} == 0)); then
    log "fetching ffmpeg source with apt-get source into $SRCDIR"
    srclist=/etc/apt/sources.list.d/zz-ffmpeg-peer-src.sources
    cat >"$srclist" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # shellcheck disable=SC2064
    trap "rm -f '$srclist'; apt-get update -qq || true" EXIT
    apt-get update -qq
    mkdir -p "$SRCDIR"
    (cd "$SRCDIR" && apt-get source --download-only ffmpeg)
    rm -f "$srclist"
    apt-get update -qq || true
    trap - EXIT
    orig=("$SRCDIR"/ffmpeg_*.orig.tar.xz)
fi
((${#orig[@]})) || { echo "no ffmpeg orig tarball in $SRCDIR" >&2; exit 1; }
tarball=${orig[-1]}
log "source: $tarball"

rm -rf "$WORKDIR"
mkdir -p "$WORKDIR"
tar -xJf "$tarball" -C "$WORKDIR"
src=("$WORKDIR"/ffmpeg-*/)
cd "${src[0]}"

# --- configure -----------------------------------------------------------------
filters=gblur,vaguedenoiser,nlmeans,yadif,bwdif,w3fdif,format,scale,null,copy
# (no "framecrop" filter exists in libavfilter - that is a bitstream filter;
#  "crop" is the frame-cropping filter)
filters+=,nullsink,crop,trim,settb,setpts,fps,buffer,buffersink
filters+=,testsrc2,testsrc,color,noise,interlace,tinterlace,separatefields,split
filters+=,setfield,fieldorder
# buffer/buffersink (and abuffer/abuffersink) are always built into
# libavfilter; fftools/ffmpeg itself selects aformat/anull/atrim, so no
# audio resampler (aresample/libswresample) is needed.

# shellcheck disable=SC2054  # the commas are configure's list syntax
conf=(
    ./configure
    --disable-everything --disable-doc --disable-network --disable-autodetect
    --disable-shared --enable-static --disable-debug
    --enable-gpl --disable-postproc --disable-swresample --disable-iconv
    --disable-ffplay --disable-ffprobe --enable-ffmpeg
    --enable-avcodec --enable-avformat --enable-avfilter --enable-swscale
    --enable-filter="$filters"
    --enable-demuxer=rawvideo
    --enable-muxer=rawvideo,null
    --enable-protocol=file,pipe
    --enable-indev=lavfi
    --enable-encoder=rawvideo,wrapped_avframe
    --enable-decoder=rawvideo,wrapped_avframe
    --enable-x86asm
)
log "${conf[*]}"
"${conf[@]}"
grep -q '^HAVE_X86ASM=yes' ffbuild/config.mak \
    || { echo "x86asm not enabled - refusing to build a slow peer" >&2; exit 1; }
# configure silently ignores unknown names: make sure every filter is in
# (buffer/buffersink are core libavfilter and have no CONFIG_ switch).
for f in ${filters//,/ }; do
    [[ $f == buffer || $f == buffersink ]] && continue
    grep -q "^#define CONFIG_${f^^}_FILTER 1" config_components.h \
        || { echo "filter $f not enabled by configure" >&2; exit 1; }
done

make -j"$(nproc)" ffmpeg

# --- install -----------------------------------------------------------------------
mkdir -p "$OUTDIR"
install -m 0755 ffmpeg "$OUTDIR/ffmpeg"
strip "$OUTDIR/ffmpeg"

log "built $OUTDIR/ffmpeg ($(stat -c %s "$OUTDIR/ffmpeg") bytes)"
ldd "$OUTDIR/ffmpeg" >&2 || true
maxglibc=$(objdump -T "$OUTDIR/ffmpeg" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
log "max glibc symbol version: $maxglibc"
# anything beyond the glibc family would not run on a bare host
if ldd "$OUTDIR/ffmpeg" | grep -vqE 'linux-vdso|ld-linux|lib(c|m|pthread|dl|rt)\.so'; then
    echo "unexpected shared-library dependency:" >&2
    ldd "$OUTDIR/ffmpeg" >&2
    exit 1
fi
