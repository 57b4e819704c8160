#!/usr/bin/env python3
# Deinterlacing quality harness (issue 5, kernels/deinterlace.md).
#
# Makes 720x576 50p I420 clips (a pan over a photo, a slow rotation of a
# photo, a slow zoom into a photo: python3-skimage's bundled images; and a
# synthetic clip of moving sharp shapes and fine patterns), interlaces them
# to 25i top field first with GStreamer's
#   interlace field-pattern=1:1 top-field-first=true
# (no vertical low-pass), deinterlaces them back to 50p with each method of
# cudadeinterlace and of GStreamer's CPU deinterlace, and prints the PSNR
# of the interpolated lines (luma) against the sources, per clip and the
# mean over the clips, as a markdown table.
#
# Each output frame is matched to its source frame by its kept field (the
# rows it must have copied), so peers that emit extra or missing frames at
# the ends are still measured on what they did output; the table says how
# many source frames each method covered.
#
# Needs: numpy, scikit-image (Debian: python3-skimage; /usr/bin/python3 on
# the build machine), gst-launch-1.0 with the interlace, deinterlace,
# rawparse and coreelements plugins (the GPU host: source the bundle made by
# scripts/bundle-gst), and for our rows the cudafx plugin.
#
# With --ffmpeg (FFmpeg 5.1's CPU filters; tests/bench/build-ffmpeg-peer.sh
# builds a small one for hosts without it), our yadif and bwdif outputs are
# also compared byte for byte, every plane of every output frame, with
# FFmpeg's `yadif` / `bwdif` (mode=send_field, parity=tff, deint=all) on the
# same interlaced clip, and a second table says how many frames matched.
#
# Usage:
#   deinterlace-quality.py [--plugin build/elements/libgstcudafx.so]
#                          [--frames 40] [--keep DIR] [--clips DIR]
#                          [--ffmpeg PATH]
# Without --plugin (or without a GPU) the cudadeinterlace rows say n/a.
# --clips DIR reads each 50p clip from DIR/<clip>-50p.yuv when it is there
# (and writes it there when not), so that clips made where scikit-image is
# installed can be measured on a host without it.

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

W, H = 720, 576

OURS = ["bwdif", "yadif", "ela", "linear"]
GST_METHODS = ["linear", "yadif", "greedyh", "greedyl", "tomsmocomp", "vfir",
               "scalerbob"]


# ---- clips -----------------------------------------------------------------

def rgb_to_i420(rgb):
    """float RGB in [0, 1], H x W x 3 -> I420 bytes (BT.601, limited range)"""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 65.481 * r + 128.553 * g + 24.966 * b
    u = 128 - 37.797 * r - 74.203 * g + 112.0 * b
    v = 128 + 112.0 * r - 93.786 * g - 18.214 * b

    def sub(c):
        c = c[: c.shape[0] // 2 * 2, : c.shape[1] // 2 * 2]
        return 0.25 * (c[0::2, 0::2] + c[1::2, 0::2] + c[0::2, 1::2]
                       + c[1::2, 1::2])

    planes = [y, sub(u), sub(v)]
    return b"".join(np.clip(np.rint(p), 0, 255).astype(np.uint8).tobytes()
                    for p in planes)


def photo(name, scale):
    from skimage import data
    from skimage.transform import rescale
    img = getattr(data, name)()[..., :3].astype(np.float64) / 255.0
    return rescale(img, scale, order=3, channel_axis=2, mode="reflect")


def warp_clip(img, n, matrix_at):
    """frames of img seen through the affine map matrix_at(t)"""
    from skimage.transform import AffineTransform, warp
    out = []
    for t in range(n):
        tf = AffineTransform(matrix=matrix_at(t))
        f = warp(img, tf, output_shape=(H, W), order=3, mode="reflect")
        out.append(rgb_to_i420(np.clip(f, 0, 1)))
    return out


def clip_pan(n):
    img = photo("astronaut", 1.6)           # 819 x 819
    # 2.1 px right and 1.3 px down per frame (subpixel)
    return warp_clip(img, n, lambda t: np.array(
        [[1, 0, 10 + 2.1 * t], [0, 1, 20 + 1.3 * t], [0, 0, 1]]))


def clip_rotation(n):
    img = photo("coffee", 1.5)              # 600 x 900
    cy, cx = img.shape[0] / 2, img.shape[1] / 2

    def m(t):
        a = math.radians(0.4 * t)
        c, s = math.cos(a), math.sin(a)
        # output pixel (x, y) -> input: rotate about the image centre
        return np.array([[c, -s, cx - c * W / 2 + s * H / 2],
                         [s, c, cy - s * W / 2 - c * H / 2], [0, 0, 1]])
    return warp_clip(img, n, m)


def clip_zoom(n):
    img = photo("chelsea", 2.0)             # 600 x 902
    cy, cx = img.shape[0] / 2, img.shape[1] / 2

    def m(t):
        z = 1.0 / (1.0 + 0.01 * t)          # 1% closer per frame
        return np.array([[z, 0, cx - z * W / 2], [0, z, cy - z * H / 2],
                         [0, 0, 1]])
    return warp_clip(img, n, m)


def clip_synthetic(n):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    out = []
    for t in range(n):
        rgb = np.zeros((H, W, 3))
        # a zone plate drifting sideways: every frequency, every direction
        zx, zy = xx - W / 2 - 2 * t, yy - H / 2
        zp = 0.5 + 0.5 * np.cos((zx * zx + zy * zy) * 0.0009)
        rgb[...] = zp[..., None] * np.array([0.7, 0.8, 0.9])
        # thin rotating bars
        a = 0.03 * t
        d = (xx - 560) * math.cos(a) + (yy - 150) * math.sin(a)
        bars = (np.abs(np.mod(d, 24) - 12) < 2) & \
            ((xx - 560) ** 2 + (yy - 150) ** 2 < 110 ** 2)
        rgb[bars] = [1.0, 0.9, 0.1]
        # a ball with a hard edge, moving diagonally
        bx, by = 120 + 6 * t, 380 - 4 * t
        ball = (xx - bx) ** 2 + (yy - by) ** 2 < 60 ** 2
        rgb[ball] = [0.9, 0.15, 0.1]
        # text-like fine detail scrolling up
        cell = ((np.floor((yy + 3 * t) / 6) + np.floor(xx / 5)) % 3 == 0) & \
            (xx > 40) & (xx < 300) & (yy > 40) & (yy < 200)
        rgb[cell] = [0.05, 0.05, 0.05]
        out.append(rgb_to_i420(rgb))
    return out


CLIPS = [("pan", clip_pan), ("rotation", clip_rotation), ("zoom", clip_zoom),
         ("synthetic", clip_synthetic)]


# ---- GStreamer -------------------------------------------------------------

FRAME = W * H * 3 // 2


def gst(pipeline, env):
    r = subprocess.run(["gst-launch-1.0", "-q"] + pipeline.split(),
                       env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.stderr.write("FAILED: %s\n%s%s" % (pipeline, r.stdout,
                                               r.stderr[-2000:]))
    return r.returncode == 0


def read_frames(path):
    with open(path, "rb") as f:
        raw = f.read()
    return [raw[i:i + FRAME] for i in range(0, len(raw) - FRAME + 1, FRAME)]


def luma(frame):
    return np.frombuffer(frame, np.uint8, W * H).reshape(H, W).astype(
        np.float64)


def check_interlaced(src, inter):
    """interlace field-pattern=1:1 tff: frame i = top of 2i, bottom of 2i+1"""
    for i, f in enumerate(inter):
        y = luma(f)
        if 2 * i + 1 >= len(src):
            break
        if not (np.array_equal(y[0::2], luma(src[2 * i])[0::2]) and
                np.array_equal(y[1::2], luma(src[2 * i + 1])[1::2])):
            return False
    return True


def psnr_of(outputs, src):
    """mean MSE of the interpolated rows over the source frames covered,
    matching each output to a source frame by its kept field"""
    srcy = [luma(f) for f in src]
    mse = {}
    for o, frame in enumerate(outputs):
        y = luma(frame)
        # candidates near the expected source frame
        lo, hi = max(0, o - 3), min(len(src), o + 4)
        best, best_d = None, None
        for s in range(lo, hi):
            kept = s % 2                   # TFF: even sources keep top rows
            d = np.mean(np.abs(y[kept::2] - srcy[s][kept::2]))
            if best_d is None or d < best_d:
                best, best_d = s, d
        if best is None or best in mse:
            continue
        interp = 1 - best % 2
        mse[best] = np.mean((y[interp::2] - srcy[best][interp::2]) ** 2)
    if not mse:
        return None, 0
    m = np.mean(list(mse.values()))
    return (99.0 if m == 0 else 10 * math.log10(255.0 ** 2 / m)), len(mse)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", help="path of libgstcudafx.so")
    ap.add_argument("--frames", type=int, default=40,
                    help="50p source frames per clip (even)")
    ap.add_argument("--keep", help="keep the clips in this directory")
    ap.add_argument("--clips", help="read (or write) the 50p clips here")
    ap.add_argument("--ffmpeg", help="FFmpeg to compare yadif/bwdif with")
    args = ap.parse_args()
    n = args.frames // 2 * 2

    env = dict(os.environ)
    if args.plugin:
        env["GST_PLUGIN_PATH_1_0"] = os.path.dirname(
            os.path.abspath(args.plugin))
        env["GST_PLUGIN_PATH"] = env["GST_PLUGIN_PATH_1_0"]
    work = args.keep or tempfile.mkdtemp(prefix="deint-quality-")
    os.makedirs(work, exist_ok=True)
    raw = "rawvideoparse format=i420 width=%d height=%d" % (W, H)

    methods = [("cudadeinterlace " + m,
                "cudafxupload ! cudadeinterlace method=%s ! cudafxdownload"
                % m) for m in OURS]
    methods += [("GStreamer deinterlace " + m + " (CPU)",
                 "deinterlace method=%s fields=all tff=tff ! "
                 "video/x-raw,interlace-mode=progressive" % m)
                for m in GST_METHODS]
    results = {name: [] for name, _ in methods}
    covered = {name: [] for name, _ in methods}
    exact = {m: [] for m in ("bwdif", "yadif")}

    try:
        for clip, make in CLIPS:
            src_path = os.path.join(work, clip + "-50p.yuv")
            int_path = os.path.join(work, clip + "-25i.yuv")
            stored = os.path.join(args.clips, clip + "-50p.yuv") \
                if args.clips else None
            if stored and os.path.exists(stored):
                src = read_frames(stored)[:n]
                sys.stderr.write("clip %s: %d frames from %s\n"
                                 % (clip, len(src), stored))
            else:
                sys.stderr.write("clip %s: making %d frames\n" % (clip, n))
                src = make(n)
                if stored:
                    os.makedirs(args.clips, exist_ok=True)
                    with open(stored, "wb") as f:
                        f.write(b"".join(src))
            with open(src_path, "wb") as f:
                f.write(b"".join(src))
            ok = gst("filesrc location=%s ! %s framerate=50/1 ! "
                     "interlace field-pattern=1:1 top-field-first=true ! "
                     "filesink location=%s" % (src_path, raw, int_path), env)
            inter = read_frames(int_path) if ok else []
            if not inter or not check_interlaced(src, inter):
                sys.exit("interlace did not give top(2i) + bottom(2i+1) "
                         "frames for %s" % clip)
            for name, element in methods:
                out_path = os.path.join(work, "out.yuv")
                ok = gst("filesrc location=%s ! %s framerate=25/1 "
                         "interlaced=true top-field-first=true ! %s ! "
                         "filesink location=%s"
                         % (int_path, raw, element, out_path), env)
                psnr, cov = psnr_of(read_frames(out_path), src) if ok \
                    else (None, 0)
                m = element.split("method=")[-1].split()[0]
                if args.ffmpeg and name.startswith("cudadeinterlace") \
                        and m in exact:
                    exact[m].append(compare_ffmpeg(
                        args.ffmpeg, m, int_path,
                        read_frames(out_path) if ok else []))
                results[name].append(psnr)
                covered[name].append(cov)
                sys.stderr.write("  %-45s %s\n" % (name, "%.2f dB" % psnr
                                                   if psnr else "n/a"))
                if os.path.exists(out_path):
                    os.unlink(out_path)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print("## Deinterlacing quality: PSNR (dB) of the interpolated lines, "
          "luma, %dx%d 50p -> interlace 1:1 TFF -> 50p, %d frames per clip"
          % (W, H, n))
    print()
    print("| method | " + " | ".join(c for c, _ in CLIPS) +
          " | mean | source frames covered |")
    print("|---|" + "---|" * (len(CLIPS) + 2))
    for name, _ in methods:
        vals = results[name]
        cells = ["%.2f" % v if v is not None else "n/a" for v in vals]
        good = [v for v in vals if v is not None]
        mean = "%.2f" % (sum(good) / len(good)) if len(good) == len(vals) \
            else "n/a"
        print("| %s | %s | %s | %s |" % (name, " | ".join(cells), mean,
                                          "/".join(str(c) for c in
                                                   covered[name])))
    if args.ffmpeg:
        print()
        print("## Bit-exactness against FFmpeg (%s): output frames of "
              "cudadeinterlace identical (all planes) / FFmpeg's output frames"
              % args.ffmpeg)
        print()
        print("| method | " + " | ".join(c for c, _ in CLIPS) + " |")
        print("|---|" + "---|" * len(CLIPS))
        for m, cells in exact.items():
            print("| %s | %s |" % (m, " | ".join(
                "%d/%d" % c if c else "n/a" for c in cells)))
    failed = any(c is None or c[0] != c[1] or c[1] == 0
                 for cells in exact.values() for c in cells)
    if args.ffmpeg and failed:
        sys.exit("cudadeinterlace differs from FFmpeg")


def compare_ffmpeg(ffmpeg, method, int_path, ours):
    """(frames identical, FFmpeg frames), counting a length mismatch as
    differences; None if FFmpeg failed"""
    ref_path = int_path + "." + method + ".ffmpeg.yuv"
    r = subprocess.run([ffmpeg, "-nostdin", "-hide_banner", "-loglevel",
                        "error", "-y", "-f", "rawvideo", "-pix_fmt",
                        "yuv420p", "-s", "%dx%d" % (W, H), "-r", "25", "-i",
                        int_path, "-vf", "setfield=tff,%s=mode=send_field:"
                        "parity=tff:deint=all" % method, "-f", "rawvideo",
                        "-pix_fmt", "yuv420p", ref_path],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.stderr.write("FAILED: ffmpeg %s\n%s" % (method, r.stderr[-2000:]))
        return None
    ref = read_frames(ref_path)
    os.unlink(ref_path)
    same = sum(1 for a, b in zip(ours, ref) if a == b)
    if len(ours) != len(ref):
        sys.stderr.write("  %s: %d frames, FFmpeg %d\n"
                         % (method, len(ours), len(ref)))
    return same, max(len(ref), len(ours))


if __name__ == "__main__":
    main()
