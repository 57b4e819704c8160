#!/usr/bin/python3
# Quality harness for temporal denoisers, CPU only (see README.md here).
#
# Makes 8-bit grey clips with known motion from scikit-image's sample
# photos, adds iid Gaussian noise, runs each denoiser ("method") on the
# noisy clip as raw GRAY8 (w*h bytes per frame, frames back to back), and
# prints the PSNR against the clean clip as markdown tables, one per noise
# level. Writes PNGs of crops (clean, noisy, each method) for people to
# look at, and the tables again, into --out.
#
# Needs numpy, scikit-image (and so scipy), Pillow for the PNGs, and
# ffmpeg on PATH unless --no-ffmpeg. Debian: /usr/bin/python3 with
# python3-skimage and python3-pil.
#
# Usage:
#   quality.py [--frames N] [--size S] [--sigmas 5,10,20]
#              [--clips pan,rotation,zoom,static,scenecut,crossing]
#              [--method NAME='TEMPLATE']... [--no-ffmpeg] [--out DIR]
# TEMPLATE is a shell command; {in} {out} (quoted paths), {w} {h}
# {frames} {sigma} are filled in. Example:
#   --method ours='./ref-denoise --width {w} --height {h} --sigma {sigma} \
#                  {in} {out}'

import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

SEED = 20240601
CLIPS = ["pan", "rotation", "zoom", "static", "scenecut", "crossing"]
# the harsher clips of issue 34, from photos the clips above do not use
HARSH_CLIPS = ["cutpan", "flash", "fade", "stars"]
ALL_CLIPS = CLIPS + HARSH_CLIPS
OBJ = 64            # crossing: side of the moving square
OBJ_STEP = 3        # crossing: its motion, px per frame to the right
EDGE = 4            # frames left out at each end of the mean
MARGIN = 8          # px of photo kept outside every warped frame


# ---- clips -----------------------------------------------------------------

def luma(rgb):
    """BT.601 luma, rounded exactly (as tests/reference/skimage-images.py)"""
    c = rgb[:, :, :3].astype(np.int64)
    y = (299 * c[:, :, 0] + 587 * c[:, :, 1] + 114 * c[:, :, 2] + 500) // 1000
    return y.astype(np.uint8)


def photo(name):
    from skimage import data
    img = getattr(data, name)()
    return luma(img) if img.ndim == 3 else img


def centre_crop(img, s):
    y, x = (img.shape[0] - s) // 2, (img.shape[1] - s) // 2
    return img[y:y + s, x:x + s]


def warped(name, n, s, transform):
    """n frames of s x s: output pixel p (row, col) shows the photo at
    centre + m @ (p - centre) + t, where m, t = transform(k), interpolated
    with cubic B-splines (scipy comes with scikit-image)"""
    from scipy import ndimage
    img = photo(name)
    src = img.astype(np.float64)
    c_in = (np.array(img.shape) - 1) / 2.0
    c_out = np.full(2, (s - 1) / 2.0)
    corners = np.array([[0, 0], [0, s - 1], [s - 1, 0], [s - 1, s - 1]]) \
        - c_out
    frames = np.empty((n, s, s), np.uint8)
    for k in range(n):
        m, t = transform(k)
        # refuse rather than show the border fill (or the spline's edge)
        seen = corners @ m.T + c_in + t
        if (seen < MARGIN).any() or (seen > np.array(img.shape) - 1
                                     - MARGIN).any():
            sys.exit("%s: %d frames of %dx%d need more than the %dx%d photo"
                     % (name, n, s, s, img.shape[1], img.shape[0]))
        f = ndimage.affine_transform(src, m, offset=c_in + t - m @ c_out,
                                     output_shape=(s, s), order=3,
                                     mode="nearest")
        frames[k] = np.clip(np.rint(f), 0, 255)
    return frames


def crossing_box(k, n, s):
    """(y0, y1, x0, x1) of the moving square in frame k; its path is
    centred in the frame"""
    x0 = (s - OBJ - OBJ_STEP * (n - 1)) // 2 + OBJ_STEP * k
    y0 = (s - OBJ) // 2
    return y0, y0 + OBJ, x0, x0 + OBJ


def pan(k, mid, velocity):
    """the view's offset at frame k for a pan of @velocity px a frame
    (row, col), about the middle frame"""
    return (k - mid) * np.asarray(velocity, np.float64)


def matched(frames, like):
    """@frames with the mean and spread of @like's pixels: two shots of
    similar brightness, which the frame means alone cannot tell apart"""
    f = frames.astype(np.float64)
    g = (f - f.mean()) / max(f.std(), 1e-6) * like.std() + like.mean()
    return np.clip(np.rint(g), 0, 255).astype(np.uint8)


def make_harsh_clip(clip, n, s):
    mid = (n - 1) / 2.0
    eye = np.eye(2)
    if clip == "cutpan":
        # a pan over the rocket, cut at frame n/2 to a pan over a tissue
        # sample at the same mean and spread
        a = warped("rocket", n, s, lambda k: (eye, pan(k, mid, (0.6, 0.9))))
        b = warped("immunohistochemistry", n, s,
                   lambda k: (eye, pan(k, mid, (-0.8, 0.5))))
        b = matched(b, a)
        return np.stack([a[k] if k < n // 2 else b[k] for k in range(n)])
    if clip == "flash":
        # a pan over the moon; frame n/2 is a flash, 70 levels brighter
        f = warped("moon", n, s, lambda k: (eye, pan(k, mid, (0.5, 1.1))))
        f[n // 2] = np.clip(f[n // 2].astype(np.int64) + 70, 0, 255)
        return f
    if clip == "fade":
        # a pan over grass fading to 40% brightness over the clip
        f = warped("grass", n, s, lambda k: (eye, pan(k, mid, (0.7, -0.4))))
        gain = 1.0 - 0.6 * np.arange(n) / max(n - 1, 1)
        return np.clip(np.rint(f * gain[:, None, None]), 0,
                       255).astype(np.uint8)
    if clip == "stars":
        # fine star-field texture panning diagonally, accelerating from 1.4
        # to 2.9 px a frame, at sub-pixel positions
        v = 1.4 + 1.5 * np.arange(n) / max(n - 1, 1)
        pos = np.concatenate([[0.0], np.cumsum(v[:-1])])
        pos -= (pos[0] + pos[-1]) / 2
        d = np.array([0.6, 0.8])
        return warped("hubble_deep_field", n, s,
                      lambda k: (eye, pos[k] * d))
    raise ValueError(clip)


def make_clip(clip, n, s):
    if clip in HARSH_CLIPS:
        return make_harsh_clip(clip, n, s)
    # time centred on the middle of the clip, so the photo margin needed
    # is the same at both ends
    mid = (n - 1) / 2.0
    eye = np.eye(2)
    if clip == "pan":
        # the view moves 0.7 px right and 1.3 px down per frame
        return warped("astronaut", n, s,
                      lambda k: (eye, (k - mid) * np.array([1.3, 0.7])))
    if clip == "rotation":
        def rot(k):
            a = math.radians(0.5 * (k - mid))
            return np.array([[math.cos(a), -math.sin(a)],
                             [math.sin(a), math.cos(a)]]), np.zeros(2)
        return warped("camera", n, s, rot)
    if clip == "zoom":
        # 1% closer per frame
        return warped("coffee", n, s,
                      lambda k: (eye / 1.01 ** (k - mid), np.zeros(2)))
    if clip == "static":
        return np.repeat(centre_crop(photo("camera"), s)[None], n, axis=0)
    if clip == "scenecut":
        a = centre_crop(photo("astronaut"), s)
        b = centre_crop(photo("camera"), s)
        return np.stack([a if k < n // 2 else b for k in range(n)])
    if clip == "crossing":
        # the static clip with a square of the astronaut's mission patch
        # (fine text and edges) sliding across it by whole pixels
        if OBJ + OBJ_STEP * (n - 1) > s:
            sys.exit("crossing: %d frames do not fit in %d px" % (n, s))
        patch = photo("astronaut")[352:352 + OBJ, 136:136 + OBJ]
        frames = np.repeat(centre_crop(photo("camera"), s)[None], n, axis=0)
        for k in range(n):
            y0, y1, x0, x1 = crossing_box(k, n, s)
            frames[k, y0:y1, x0:x1] = patch
        return frames
    raise ValueError(clip)


def add_noise(clean, sigma, clip):
    # a seed of its own per clip and sigma: the same noise whatever the
    # other clips, sigmas and methods of the run
    rng = np.random.default_rng([SEED, zlib.crc32(clip.encode()),
                                 round(sigma * 1000)])
    noisy = clean + rng.normal(0.0, sigma, clean.shape)
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)


# ---- methods ---------------------------------------------------------------

def ffmpeg_methods(ffmpeg):
    """(name, command maker) for FFmpeg 5.1's CPU denoisers. hqdn3d takes
    no GRAY8: FFmpeg converts to yuvj444p and back, which keeps luma as
    is. nlmeans in 5.1 is spatial only (one frame)."""
    def ff(vf):
        def cmd(inp, out, w, h, n, sigma):
            # passthrough: every frame out as it came, none dropped or
            # duplicated to keep a constant rate
            return [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
                    "-f", "rawvideo", "-pix_fmt", "gray", "-s",
                    "%dx%d" % (w, h), "-i", inp, "-vf", vf(sigma),
                    "-fps_mode", "passthrough", "-f", "rawvideo",
                    "-pix_fmt", "gray", "-y", out]
        return cmd

    return [
        # defaults: luma_spatial 4, luma_tmp 6
        ("hqdn3d", ff(lambda sigma: "hqdn3d")),
        # the same 2:3 ratio, scaled: hqdn3d weighs a neighbour 1/4 at a
        # difference of luma_spatial levels, and the difference of two
        # noisy samples of one value has a spread of 1.4 sigma
        ("hqdn3d-sigma", ff(lambda sigma: "hqdn3d=luma_spatial=%g:"
                            "luma_tmp=%g" % (2 * sigma, 3 * sigma))),
        # defaults: 9 frames, thresholds 0.02/0.04 of full scale (5 and 10
        # levels), below the noise at sigma 10 and 20
        ("atadenoise", ff(lambda sigma: "atadenoise")),
        # the same 1:2 ratio, threshold A at 3 sigma (about 2 spreads of
        # the difference of two noisy samples)
        ("atadenoise-sigma", ff(lambda sigma: "atadenoise=0a=%g:0b=%g" % (
            min(0.3, 3 * sigma / 255), min(5.0, 6 * sigma / 255)))),
        # nlmeans weighs a patch exp(-SSD / (10 s)^2); with s = sigma, two
        # 7x7 patches of the same content (SSD about 98 sigma^2) weigh
        # about exp(-1). s is 1..30.
        ("nlmeans", ff(lambda sigma: "nlmeans=s=%g"
                       % min(30.0, max(1.0, sigma)))),
    ]


def template_method(template):
    def cmd(inp, out, w, h, n, sigma):
        return template.format(**{"in": shlex.quote(inp),
                                  "out": shlex.quote(out), "w": w, "h": h,
                                  "frames": n, "sigma": "%g" % sigma})
    return cmd


def run_method(name, make_cmd, noisy, sigma, work):
    """the method's output frames, and its run time in seconds"""
    n, h, w = noisy.shape
    inp, out = os.path.join(work, "in.gray"), os.path.join(work, "out.gray")
    cmd = make_cmd(inp, out, w, h, n, sigma)
    noisy.tofile(inp)
    if os.path.exists(out):
        os.unlink(out)
    start = time.monotonic()
    r = subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True,
                       text=True)
    took = time.monotonic() - start
    if r.returncode != 0:
        sys.exit("method %s failed (exit %d): %s\n%s%s" % (
            name, r.returncode, cmd, r.stdout[-2000:], r.stderr[-2000:]))
    got = os.path.getsize(out) if os.path.exists(out) else 0
    if got != noisy.size:
        sys.exit("method %s: %d bytes out for %d in (%d frames of %dx%d)"
                 % (name, got, noisy.size, n, w, h))
    return np.fromfile(out, np.uint8).reshape(noisy.shape), took


# ---- metrics ---------------------------------------------------------------

def psnr(a, b, axes=(1, 2)):
    mse = np.mean((a.astype(np.float64) - b) ** 2, axis=axes)
    with np.errstate(divide="ignore"):
        return 10 * np.log10(255.0 ** 2 / mse)


def misaligned(out, clean):
    """frames k whose output is closer to clean frame k-1 or k+1 than to k:
    a dropped, duplicated or delayed frame (ties, as on still clips, pass)"""
    def d(k, j):
        return np.mean((out[k].astype(np.float64) - clean[j]) ** 2)
    n = len(out)
    return [k for k in range(n)
            if (k > 0 and d(k, k - 1) < d(k, k))
            or (k < n - 1 and d(k, k + 1) < d(k, k))]


def object_psnr(out, clean):
    """crossing: mean PSNR inside the moving square only, over the middle
    frames; what a temporal filter smears there is its ghosting"""
    n, s = len(out), out.shape[1]
    v = []
    for k in range(EDGE, n - EDGE):
        y0, y1, x0, x1 = crossing_box(k, n, s)
        v.append(psnr(out[k, y0:y1, x0:x1], clean[k, y0:y1, x0:x1], None))
    return np.mean(v)


# ---- output ----------------------------------------------------------------

def fmt(v):
    return "%.2f" % v


def tables(args, methods, res, extra, times, n):
    mid = "frames %d..%d" % (EDGE, n - 1 - EDGE)
    lines = ["PSNR (dB, peak 255) against the clean clip, mean over %s of "
             "%d, %dx%d GRAY8; mean = mean over the clips."
             % (mid, n, args.size, args.size), ""]
    cut = n // 2
    for sigma in args.sigmas:
        lines += ["### sigma %g" % sigma, "",
                  "| method | " + " | ".join(args.clips) + " | mean |",
                  "|---|" + "---|" * (len(args.clips) + 1)]
        for name, _ in methods:
            v = [res[sigma][name][c] for c in args.clips]
            lines.append("| %s | %s | %s |" % (
                name, " | ".join(fmt(x) for x in v), fmt(np.mean(v))))
        lines.append("")
        head = []
        if "scenecut" in args.clips:
            head += ["scenecut worst of %s" % mid, "scenecut f%d" % (cut - 1),
                     "scenecut f%d" % cut]
        if "crossing" in args.clips:
            head += ["crossing object (%s)" % mid]
        head += ["run time (s, all clips)"]
        lines += ["| method | " + " | ".join(head) + " |",
                  "|---|" + "---|" * len(head)]
        for name, _ in methods:
            e = extra[sigma][name]
            cells = []
            if "scenecut" in args.clips:
                s = e["scenecut"]
                worst = EDGE + int(np.argmin(s[EDGE:n - EDGE]))
                cells += ["%s (f%d)" % (fmt(s[worst]), worst),
                          fmt(s[cut - 1]), fmt(s[cut])]
            if "crossing" in args.clips:
                cells.append(fmt(e["object"]))
            cells.append("%.1f" % times[sigma][name])
            lines.append("| %s | %s |" % (name, " | ".join(cells)))
        lines.append("")
    return "\n".join(lines)


def baseline_table(args, methods, extra):
    """Per sigma, each method's largest drop below the baseline over every
    frame of scenecut (negative: better on every frame), and where"""
    if args.baseline not in dict(methods):
        sys.exit("--baseline %s: no such method" % args.baseline)
    lines = ["", "Scene cut, frame by frame against %s: the largest drop "
             "(dB) over all frames, and its frame" % args.baseline, "",
             "| method | " + " | ".join("sigma %g" % sg for sg in args.sigmas)
             + " |", "|---|" + "---|" * len(args.sigmas)]
    for name, _ in methods:
        if name == args.baseline:
            continue
        cells = []
        for sigma in args.sigmas:
            drop = (extra[sigma][args.baseline]["scenecut"] -
                    extra[sigma][name]["scenecut"])
            k = int(np.argmax(drop))
            cells.append("%.2f (f%d)" % (drop[k], k))
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def crop_at(clip, n, s):
    """(y0, x0) of the 128 x 128 crop shown: the middle of pan, and the
    moving square with its surroundings on crossing"""
    if clip == "crossing":
        y0, y1, x0, x1 = crossing_box(n // 2, n, s)
        cy, cx = (y0 + y1) // 2, (x0 + x1) // 2
    else:
        cy, cx = s // 2, s // 2
    return (min(max(cy - 64, 0), s - 128), min(max(cx - 64, 0), s - 128))


def write_png(path, rows, names):
    """rows: [(label, clean crop, [crop per method])], each tile labelled
    with the PSNR of its crop; 2x nearest so that the noise grain stays
    visible"""
    from PIL import Image, ImageDraw
    tile, label = 256, 14
    img = Image.new("L", (tile * (len(names) + 1),
                          (tile + label) * len(rows)), 0)
    draw = ImageDraw.Draw(img)
    for r, (name, clean, outs) in enumerate(rows):
        y = r * (tile + label)
        tiles = [("%s clean" % name, clean)] + [
            ("%s %.2f dB" % (m, psnr(o, clean, None)), o)
            for m, o in zip(names, outs)]
        for i, (text, a) in enumerate(tiles):
            img.paste(Image.fromarray(a).resize((tile, tile), Image.NEAREST),
                      (i * tile, y + label))
            draw.text((i * tile + 3, y + 1), text, fill=255)
    img.save(path)


# ---- main ------------------------------------------------------------------

def per_frame_table(args, methods, extra):
    """Per sigma and clip, each method's worst frame against the baseline
    over every frame of the clip (its ends included): the issue's 'no
    frame worse than spatial-only'"""
    lines = ["", "Every frame against %s: the lowest (method - %s) PSNR "
             "difference (dB) over all frames of each clip, and its frame; "
             "negative: some frame is worse" % (args.baseline, args.baseline),
             ""]
    base = args.baseline
    for sigma in args.sigmas:
        lines += ["### sigma %g, frame by frame" % sigma, "",
                  "| method | " + " | ".join(args.clips) + " |",
                  "|---|" + "---|" * len(args.clips)]
        for name, _ in methods:
            if name == base:
                continue
            cells = []
            for c in args.clips:
                d = extra[sigma][name]["frames"][c] - \
                    extra[sigma][base]["frames"][c]
                k = int(np.argmin(d))
                cells.append("%+.2f (f%d)" % (d[k], k))
            lines.append("| %s | %s |" % (name, " | ".join(cells)))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="temporal denoiser quality")
    ap.add_argument("--frames", type=int, default=16)
    ap.add_argument("--size", type=int, default=320)
    ap.add_argument("--sigmas", default="5,10,20")
    ap.add_argument("--clips", default=",".join(CLIPS),
                    help="from %s; the harsher ones (%s) are not in the "
                    "default" % (", ".join(ALL_CLIPS), ", ".join(HARSH_CLIPS)))
    ap.add_argument("--method", action="append", default=[],
                    metavar="NAME=TEMPLATE")
    ap.add_argument("--no-ffmpeg", action="store_true")
    ap.add_argument("--out", default="/tmp/temporal-quality")
    ap.add_argument("--baseline", metavar="NAME",
                    help="a method (e.g. the spatial filter) every other "
                    "one is compared with frame by frame on scenecut: the "
                    "issue's 'no frame worse than spatial-only by more "
                    "than 0.1 dB'")
    ap.add_argument("--json", metavar="FILE",
                    help="also write every frame's PSNR there: "
                    "{sigma: {method: {clip: [dB per frame]}}}")
    args = ap.parse_args()
    args.sigmas = [float(x) for x in args.sigmas.split(",")]
    args.clips = args.clips.split(",")
    n, s = args.frames, args.size
    for c in args.clips:
        if c not in ALL_CLIPS:
            ap.error("unknown clip %s (have %s)" % (c, ", ".join(ALL_CLIPS)))
    if n < 2 * EDGE + 1:
        ap.error("--frames must be at least %d" % (2 * EDGE + 1))
    if s < 128:
        ap.error("--size must be at least 128")

    methods = [("noisy", None)]
    if not args.no_ffmpeg:
        ffmpeg = shutil.which("ffmpeg")
        if not ffmpeg:
            sys.exit("no ffmpeg on PATH (or use --no-ffmpeg)")
        methods += ffmpeg_methods(ffmpeg)
    for m in args.method:
        name, eq, template = m.partition("=")
        if not eq or not name or name in dict(methods):
            ap.error("--method %r: want a new NAME=TEMPLATE" % m)
        methods.append((name, template_method(template)))

    os.makedirs(args.out, exist_ok=True)
    middle = slice(EDGE, n - EDGE)
    res = {sg: {m: {} for m, _ in methods} for sg in args.sigmas}
    extra = {sg: {m: {} for m, _ in methods} for sg in args.sigmas}
    times = {sg: {m: 0.0 for m, _ in methods} for sg in args.sigmas}
    shown = {sg: [] for sg in args.sigmas}
    warnings = []
    work = tempfile.mkdtemp(prefix="temporal-quality-")
    try:
        for clip in args.clips:
            clean = make_clip(clip, n, s)
            for sigma in args.sigmas:
                noisy = add_noise(clean, sigma, clip)
                crop = None
                if clip in ("pan", "crossing"):
                    cy, cx = crop_at(clip, n, s)
                    crop = (n // 2, slice(cy, cy + 128), slice(cx, cx + 128))
                    shown[sigma].append(("%s f%d" % (clip, n // 2),
                                         clean[crop], []))
                for name, cmd in methods:
                    if cmd is None:
                        out, took = noisy, 0.0
                    else:
                        out, took = run_method(name, cmd, noisy, sigma, work)
                    per_frame = psnr(out, clean)
                    res[sigma][name][clip] = np.mean(per_frame[middle])
                    times[sigma][name] += took
                    extra[sigma][name].setdefault("frames", {})[clip] = \
                        per_frame
                    if clip == "scenecut":
                        extra[sigma][name]["scenecut"] = per_frame
                    if clip == "crossing":
                        extra[sigma][name]["object"] = object_psnr(out,
                                                                   clean)
                    if crop is not None:
                        shown[sigma][-1][2].append(out[crop])
                    bad = misaligned(out, clean)
                    if bad:
                        warnings.append("%s on %s, sigma %g: output frames %s "
                                        "look like their neighbours' sources"
                                        % (name, clip, sigma, bad))
                    sys.stderr.write("%-9s sigma %-4g %-14s %6.2f dB %6.1f s\n"
                                     % (clip, sigma, name,
                                        res[sigma][name][clip], took))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    report = tables(args, methods, res, extra, times, n)
    if args.baseline and "scenecut" in args.clips:
        report += baseline_table(args, methods, extra)
    if args.baseline:
        report += per_frame_table(args, methods, extra)
    if warnings:
        report += "\nFrame alignment warnings:\n\n" + "\n".join(
            "- " + w for w in warnings) + "\n"
    print(report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%g" % sg: {m: {c: [float(v) for v in fr]
                                       for c, fr in
                                       extra[sg][m]["frames"].items()}
                                   for m, _ in methods}
                       for sg in args.sigmas}, f)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(report + "\n")
    names = [m for m, _ in methods]
    for sigma in args.sigmas:
        if shown[sigma]:
            path = os.path.join(args.out, "sigma%g.png" % sigma)
            write_png(path, shown[sigma], names)
            sys.stderr.write("wrote %s\n" % path)
    if warnings:
        sys.exit("frames out of step: see the warnings above")


if __name__ == "__main__":
    main()
