#!/usr/bin/env python3
"""Benchmark (never a test): what a chain costs the host, per frame.

A raw interlaced file in tmpfs goes through gst-launch-1.0 (a child
process): the source alone, then our upload and download around nothing,
bwdif, and bwdif plus cudadegrain, each with queues between the elements
as a user writes them. For each row: input frames per second over the
child's whole life (start-up included) and the host CPU time (user +
system, getrusage of the child) per frame, and what our elements add to
the source's own. With ffmpeg on PATH, its CPU bwdif on one thread reads
the same file in the same run.

    host-cost.py [--frames N] [--runs R] [--sizes 1080,2160]
                 [--formats I420,UYVY] LABEL=PLUGIN_DIR [LABEL=PLUGIN_DIR...]

Each LABEL=PLUGIN_DIR is a build of our plugin (the folder holding
libgstcudafx.so); the rows of every build are measured in one run, one
after the other, so that two builds compare side by side. gst-launch-1.0
and the other plugins come from the environment (tests/run-built's, or
`source build-gpu/runtime/enter`). Prints markdown tables.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = {1080: (1920, 1080), 2160: (3840, 2160)}
GST_FORMAT = {"I420": ("i420", 1.5), "UYVY": ("uyvy", 2.0)}
FFMPEG_FORMAT = {"I420": "yuv420p", "UYVY": "uyvy422"}

CHAINS = [
    ("upload ! download", "cudafxupload ! queue ! cudafxdownload"),
    ("upload ! bwdif ! download",
     "cudafxupload ! queue ! cudadeinterlace method=bwdif ! queue ! "
     "cudafxdownload"),
    ("upload ! bwdif ! degrain ! download",
     "cudafxupload ! queue ! cudadeinterlace method=bwdif ! queue ! "
     "cudadegrain ! queue ! cudafxdownload"),
]


def run_child(argv, env):
    """Wall seconds and CPU seconds (user + system) of one child"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (
            " ".join(argv), proc.returncode, proc.stderr[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median_run(argv, env, runs):
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = run_child(argv, env)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def make_file(path, frame_bytes, frames):
    """frames copies of one random frame (what a chain costs the host does
    not depend on the pictures)"""
    frame = os.urandom(frame_bytes)
    with open(path, "wb") as f:
        for _ in range(frames):
            f.write(frame)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=0,
                    help="frames of the file (default 600 at 1080, 200 at 2160)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1080,2160")
    ap.add_argument("--formats", default="I420")
    ap.add_argument("builds", nargs="+", metavar="LABEL=PLUGIN_DIR")
    args = ap.parse_args()

    builds = []
    for b in args.builds:
        label, _, path = b.partition("=")
        if not path or not os.path.exists(os.path.join(path, "libgstcudafx.so")):
            sys.exit("no libgstcudafx.so in %r (%s)" % (path, b))
        builds.append((label, os.path.abspath(path)))
    launch = shutil.which("gst-launch-1.0")
    if not launch:
        sys.exit("gst-launch-1.0 not found")
    ffmpeg = shutil.which("ffmpeg")
    tmp = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    print("# Host CPU per frame (getrusage of a gst-launch-1.0 child; median "
          "of %d runs)\n" % args.runs)
    print("Frames/s over the child's whole life, start-up included. "
          "\"added\": CPU per frame over the source alone of the same build's "
          "run. Peer: %s.\n" % (
              "ffmpeg -threads 1 ... -vf bwdif -f null (its own file read "
              "included)" if ffmpeg else "ffmpeg not on PATH, no peer row"))
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            width, height = SIZES[size]
            frames = args.frames or (600 if size <= 1080 else 200)
            for fmt in args.formats.split(","):
                gst_fmt, bpp = GST_FORMAT[fmt]
                path = os.path.join(tmp, "in-%d-%s.raw" % (size, fmt))
                make_file(path, int(width * height * bpp), frames)
                src = ("filesrc location=%s blocksize=%d ! rawvideoparse "
                       "format=%s width=%d height=%d framerate=25/1 "
                       "interlaced=true top-field-first=true" % (
                           path, int(width * height * bpp), gst_fmt, width,
                           height))
                print("## %di %s, %d frames from tmpfs\n" % (size, fmt, frames))
                print("| build | chain | input frames/s | host CPU per frame "
                      "| added over the source |")
                print("|---|---|---|---|---|")
                for label, plugin_dir in builds:
                    env = dict(os.environ)
                    env["GST_PLUGIN_PATH_1_0"] = plugin_dir
                    env["GST_PLUGIN_PATH"] = plugin_dir
                    rows = [("the source alone", "")] + CHAINS
                    source_cpu = None
                    for name, chain in rows:
                        line = src + " ! queue ! " + (
                            chain + " ! " if chain else "") + \
                            "fakesink sync=false"
                        wall, cpu = median_run(
                            [launch, "-q"] + line.split(), env, args.runs)
                        per = cpu / frames * 1e6
                        if source_cpu is None:
                            source_cpu = per
                        added = "-" if not chain else "%.0f us" % (
                            per - source_cpu)
                        print("| %s | %s | %.0f | %.0f us | %s |" % (
                            label, name, frames / wall, per, added))
                        sys.stdout.flush()
                if ffmpeg:
                    argv = [ffmpeg, "-nostdin", "-loglevel", "error",
                            "-threads", "1", "-filter_threads", "1",
                            "-f", "rawvideo", "-pix_fmt", FFMPEG_FORMAT[fmt],
                            "-s", "%dx%d" % (width, height), "-r", "25",
                            "-i", path, "-vf", "bwdif=mode=send_field",
                            "-f", "null", "-"]
                    wall, cpu = median_run(argv, dict(os.environ), args.runs)
                    print("| peer | FFmpeg CPU bwdif, 1 thread | %.0f | %.0f us "
                          "| - |" % (frames / wall, cpu / frames * 1e6))
                print()
                os.unlink(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
