#!/usr/bin/python3
# Quality harness of the motion-compensated deinterlacer (issue 37,
# kernels/deinterlace-mc.md), CPU only.
#
# Makes progressive grey clips at field rate from scikit-image photos that
# the other harnesses do not use (retina, brick, gravel, coins, clock,
# cell, page), interlaces them top field first the way tinterlace keeps
# alternate fields (frame t: the top rows of source picture 2t, the bottom
# rows of picture 2t + 1), deinterlaces them back to field rate with our
# CPU references (bwdif, yadif, mc: cfx-deinterlace-ref) and FFmpeg's CPU
# bwdif, w3fdif and estdif where `ffmpeg` has them, and measures each
# output picture against its source picture:
#   PSNR of the interpolated rows only (the kept rows are copies), luma;
#   per clip the mean over its pictures, the mean over the moving clips,
#   and each method's worst picture against our bwdif (dB, < 0: worse);
#   flicker: on the still clip, the mean absolute difference between
#   consecutive output pictures (the source's is 0).
# Prints markdown tables. With --check, exits 1 unless mc meets the
# issue's targets against our bwdif: mean over the moving clips >= 1 dB
# above, no clip's mean and no picture more than 0.1 dB below; the still
# clip bwdif's output (but for bwdif's intra-only first and last pictures,
# where mc must give the source itself), flicker no higher.
#
# Needs numpy, scikit-image (Debian: /usr/bin/python3 with python3-skimage).
#
# Usage:
#   quality.py --runner BUILD/tests/cfx-deinterlace-ref [--frames 16]
#              [--size 320x240] [--clips a,b] [--no-ffmpeg] [--check]

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

MOVING = ["pan_slow", "pan_h", "pan_v", "pan_diag", "pan_accel", "zoom",
          "rotation", "object", "cut"]
STILL = ["still"]
CLIPS = MOVING + STILL
OURS = ["bwdif", "yadif", "mc"]
FFMPEG = {"ff-bwdif": "bwdif=mode=send_field:parity=tff:deint=all",
          "ff-w3fdif": "w3fdif=mode=field:parity=tff:deint=all",
          "ff-estdif": "estdif=mode=field:parity=tff:deint=all"}
MARGIN = 8
SAME = 99.0          # PSNR reported for an exact picture


def luma(rgb):
    c = rgb[:, :, :3].astype(np.int64)
    return ((299 * c[:, :, 0] + 587 * c[:, :, 1] + 114 * c[:, :, 2] + 500)
            // 1000).astype(np.uint8)


def photo(name):
    from skimage import data
    img = getattr(data, name)()
    return luma(img) if img.ndim == 3 else img


def warped(img, n, w, h, transform):
    """n pictures w x h: output pixel p (row, col) shows img at
    centre + m @ (p - centre) + t, (m, t) = transform(k); cubic spline"""
    from scipy import ndimage
    src = img.astype(np.float64)
    c_in = (np.array(img.shape) - 1) / 2.0
    c_out = (np.array([h, w]) - 1) / 2.0
    corners = np.array([[0, 0], [0, w - 1], [h - 1, 0], [h - 1, w - 1]]) \
        - c_out
    out = np.empty((n, h, w), np.uint8)
    for k in range(n):
        m, t = transform(k)
        seen = corners @ m.T + c_in + t
        if (seen < MARGIN).any() or (seen > np.array(img.shape) - 1
                                     - MARGIN).any():
            sys.exit("%d pictures of %dx%d need more than the %dx%d photo"
                     % (n, w, h, img.shape[1], img.shape[0]))
        f = ndimage.affine_transform(src, m, offset=c_in + t - m @ c_out,
                                     output_shape=(h, w), order=3,
                                     mode="nearest")
        out[k] = np.clip(np.rint(f), 0, 255)
    return out


def make_clip(clip, n, w, h):
    """n progressive pictures (field rate) of the clip"""
    eye = np.eye(2)
    mid = (n - 1) / 2.0

    def pan(name, vy, vx):
        return warped(photo(name), n, w, h,
                      lambda k: (eye, (k - mid) * np.array([vy, vx])))

    if clip == "pan_slow":          # sub-pixel, both axes
        return pan("brick", 0.3, 0.45)
    if clip == "pan_h":             # whole pixels across
        return pan("brick", 0.0, 3.0)
    if clip == "pan_v":             # whole rows down
        return pan("gravel", 2.0, 0.0)
    if clip == "pan_diag":
        return pan("cell", 1.7, -2.3)
    if clip == "pan_accel":         # 0.5 to 4 px a picture
        v = 0.5 + 3.5 * np.arange(n) / max(n - 1, 1)
        pos = np.concatenate([[0.0], np.cumsum(v[:-1])])
        pos -= (pos[0] + pos[-1]) / 2
        d = np.array([0.6, 0.8])
        return warped(photo("cell"), n, w, h, lambda k: (eye, pos[k] * d))
    if clip == "zoom":              # 0.6 % closer a picture
        return warped(photo("coins"), n, w, h,
                      lambda k: (eye / 1.006 ** (k - mid), np.zeros(2)))
    if clip == "rotation":          # 0.3 degree a picture
        def rot(k):
            a = math.radians(0.3 * (k - mid))
            return np.array([[math.cos(a), -math.sin(a)],
                             [math.sin(a), math.cos(a)]]), np.zeros(2)
        return warped(photo("clock"), n, w, h, rot)
    if clip == "object":            # text sliding over a still retina
        bg = photo("coins")
        y0, x0 = (bg.shape[0] - h) // 2, (bg.shape[1] - w) // 2
        frames = np.repeat(bg[None, y0:y0 + h, x0:x0 + w], n, axis=0).copy()
        patch = photo("page")[20:20 + h // 3, 40:40 + w // 3]
        ph, pw = patch.shape
        for k in range(n):
            py = (h - ph) // 2 + int(round(0.5 * (k - mid)))
            px = int(round((w - pw) * k / max(n - 1, 1)))
            frames[k, py:py + ph, px:px + pw] = patch
        return frames
    if clip == "cut":               # a pan over gravel, cut to coins
        a = pan("gravel", 0.6, 1.1)
        b = pan("coins", -0.7, 0.4)
        cut = (n // 4) * 2 + 2      # on a frame boundary (even picture)
        return np.concatenate([a[:cut], b[cut:]])
    if clip == "still":
        img = photo("gravel")
        y0, x0 = (img.shape[0] - h) // 2, (img.shape[1] - w) // 2
        return np.repeat(img[None, y0:y0 + h, x0:x0 + w], n, axis=0)
    raise ValueError(clip)


def interlace(pics):
    """frame t: top rows of picture 2t, bottom rows of 2t + 1"""
    frames = pics[0::2].copy()
    frames[:, 1::2] = pics[1::2, 1::2]
    return frames


# ---- methods ---------------------------------------------------------------

def run_ours(runner, method, frames, tmp):
    n, h, w = frames.shape
    src, dst = os.path.join(tmp, "in.raw"), os.path.join(tmp, "out.raw")
    frames.tofile(src)
    subprocess.run([runner, method, "gray8", str(w), str(h), "all", src, dst],
                   check=True)
    return np.fromfile(dst, np.uint8).reshape(2 * n, h, w)


def run_ffmpeg(vf, frames, tmp):
    n, h, w = frames.shape
    src, dst = os.path.join(tmp, "in.raw"), os.path.join(tmp, "ff.raw")
    frames.tofile(src)
    r = subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo",
                        "-pix_fmt", "gray", "-s", "%dx%d" % (w, h),
                        "-r", "25", "-i", src, "-vf", vf, "-f", "rawvideo",
                        "-pix_fmt", "gray", dst], capture_output=True)
    if r.returncode != 0:
        return None
    out = np.fromfile(dst, np.uint8)
    if out.size != 2 * n * w * h:
        return None
    return out.reshape(2 * n, h, w)


def ffmpeg_has(name):
    if not shutil.which("ffmpeg"):
        return False
    r = subprocess.run(["ffmpeg", "-hide_banner", "-filters"],
                       capture_output=True, text=True)
    return any(line.split()[1:2] == [name] for line in r.stdout.splitlines()
               if len(line.split()) > 1)


# ---- measures --------------------------------------------------------------

def psnr_missing(out, src):
    """per picture k, PSNR of the rows field k did not keep (top field
    first: k even keeps the top rows)"""
    res = []
    for k in range(out.shape[0]):
        rows = slice(1, None, 2) if k % 2 == 0 else slice(0, None, 2)
        d = out[k, rows].astype(np.float64) - src[k, rows]
        mse = np.mean(d * d)
        res.append(SAME if mse == 0 else
                   min(SAME, 10 * math.log10(255.0 ** 2 / mse)))
    return np.array(res)


def flicker(pics):
    p = pics.astype(np.float64)
    return float(np.mean(np.abs(p[1:] - p[:-1])))


def check_targets(res, clips):
    """the issue's targets for mc against our bwdif; returns messages"""
    bad = []
    moving = [c for c in clips if c in MOVING]
    if moving:
        gain = np.mean([res[c]["mc"].mean() - res[c]["bwdif"].mean()
                        for c in moving])
        if gain < 1.0:
            bad.append("mean gain over the moving clips %.2f dB < 1.0" % gain)
    for c in clips:
        d = res[c]["mc"] - res[c]["bwdif"]
        if d.min() < -0.1:
            bad.append("%s: picture %d %.2f dB under bwdif"
                       % (c, int(d.argmin()), d.min()))
        if res[c]["mc"].mean() - res[c]["bwdif"].mean() < -0.1:
            bad.append("%s: clip mean under bwdif" % c)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--frames", type=int, default=16,
                    help="interlaced frames per clip (two pictures each)")
    ap.add_argument("--size", default="320x240")
    ap.add_argument("--clips", default=",".join(CLIPS))
    ap.add_argument("--no-ffmpeg", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--per-picture", action="store_true",
                    help="print mc - bwdif for every picture")
    a = ap.parse_args()
    w, h = map(int, a.size.split("x"))
    clips = a.clips.split(",")
    methods = list(OURS)
    if not a.no_ffmpeg:
        methods += [m for m in FFMPEG if ffmpeg_has(m[3:])]

    res, flick, src_flick, still_out = {}, {}, {}, {}
    tmp = tempfile.mkdtemp(prefix="deint-mc-")
    try:
        for c in clips:
            pics = make_clip(c, 2 * a.frames, w, h)
            frames = interlace(pics)
            res[c] = {}
            for m in methods:
                out = (run_ours(a.runner, m, frames, tmp) if m in OURS
                       else run_ffmpeg(FFMPEG[m], frames, tmp))
                if out is None:
                    continue
                res[c][m] = psnr_missing(out, pics)
                if c in STILL and m in ("bwdif", "mc"):
                    still_out.setdefault(c, {})[m] = out
                if c in STILL:
                    flick[m] = flicker(out)
                    src_flick[c] = flicker(pics)
    finally:
        shutil.rmtree(tmp)

    methods = [m for m in methods if all(m in res[c] for c in clips)]
    print("PSNR (dB) of the interpolated rows, luma, %dx%d, %d fields a "
          "clip; mean of the pictures (%g: exact)\n" % (w, h, 2 * a.frames,
                                                        SAME))
    print("| clip | " + " | ".join(methods) + " |")
    print("|---" * (len(methods) + 1) + "|")
    for c in clips:
        print("| %s | " % c + " | ".join("%.2f" % res[c][m].mean()
                                         for m in methods) + " |")
    moving = [c for c in clips if c in MOVING]
    if moving:
        print("| **mean, moving** | " + " | ".join(
            "**%.2f**" % np.mean([res[c][m].mean() for c in moving])
            for m in methods) + " |")
        print("| worst picture against bwdif | " + " | ".join(
            "%+.2f" % min((res[c][m] - res[c]["bwdif"]).min()
                          for c in moving) for m in methods) + " |")
    if flick:
        print("| flicker, still (source %.2f) | " % list(src_flick.values())[0]
              + " | ".join("%.3f" % flick[m] for m in methods) + " |")
    print("\nmc against bwdif, per clip: mean / worst picture (dB)\n")
    for c in clips:
        d = res[c]["mc"] - res[c]["bwdif"]
        print("- %s: %+.2f / %+.2f" % (c, d.mean(), d.min()))
        if a.per_picture:
            print("  " + " ".join("%+.1f" % v for v in d))
    if a.check:
        bad = check_targets(res, clips)
        # still clips: mc's output is bwdif's, but for bwdif's intra-only
        # first and last pictures, where mc weaves (the source itself)
        for c, o in still_out.items():
            if not np.array_equal(o["mc"][1:-1], o["bwdif"][1:-1]):
                bad.append("%s: mc is not bwdif's" % c)
            if res[c]["mc"].min() < SAME:
                bad.append("%s: mc is not the source" % c)
        if "still" in clips and flick["mc"] > flick["bwdif"]:
            bad.append("flicker %.3f over bwdif's %.3f" % (flick["mc"],
                                                           flick["bwdif"]))
        for b in bad:
            print("FAIL: " + b)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
