#!/usr/bin/env python3
"""Benchmark (never a test): what a chain costs the host, per frame.

A raw interlaced file in tmpfs goes through gst-launch-1.0 (a child
process): the source alone, then our upload and download around nothing,
bwdif, and bwdif plus cudadegrain, each with queues between the elements
as a user writes them. For each row: input frames per second over the
child's whole life (start-up included) and the host CPU time (user +
system, getrusage of the child) per frame, and what our elements add to
the source's own. Each chain runs over N and over 2 N frames of the file:
the difference is the steady cost of N frames ("per frame, steady"), the
rest of the short run is what starting and stopping cost. With ffmpeg on
PATH, its CPU bwdif on one thread reads the same file in the same run.
With --threads, the CPU time of each of the child's threads, by name,
sampled from /proc while the long run runs.

    host-cost.py [--frames N] [--runs R] [--sizes 1080,2160] [--threads]
                 [--formats I420,UYVY] [--sources file,refused,pool]
                 LABEL=PLUGIN_DIR [LABEL=PLUGIN_DIR...]

Sources: "file", the raw file (a new allocation every frame, as filesrc,
decoders and most capture elements give); "refused", videotestsrc
pattern=black in its own pool of system memory (identity
drop-allocation=true refuses ours: buffers that come back); "pool",
videotestsrc pattern=black writing into the pinned pool our upload
proposes.

Each LABEL=PLUGIN_DIR is a build of our plugin (the folder holding
libgstcudafx.so); the rows of every build are measured in one run, one
after the other, so that two builds compare side by side. gst-launch-1.0
and the other plugins come from the environment (tests/run-built's, or
`source build-gpu/runtime/enter`). Prints markdown tables.
"""
import argparse
import collections
import os
import re
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


def thread_times(pid, seen):
    """Updates seen[tid] = (name, CPU seconds) from /proc/PID/task"""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        # utime and stime: fields 14 and 15 of stat, 12 and 13 here
        seen[tid] = (name, (int(fields[11]) + int(fields[12])) / tick)


def run_child(argv, env, threads=None):
    """Wall seconds and CPU seconds (user + system) of one child; with
    threads (a dict), the CPU seconds of its threads by name (digits
    folded: "queue3:src" counts as "queue#:src")"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seen = {}
    if threads is not None:
        while proc.poll() is None:
            thread_times(proc.pid, seen)
            time.sleep(0.02)
    err = proc.communicate()[1]
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (
            " ".join(argv), proc.returncode, err[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if threads is not None:
        for name, t in seen.values():
            threads[re.sub(r"[0-9]+", "#", name)] += t
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


def targets(size, name, added, fps_share, whole, peer):
    """Issue 32's targets for a row, each with "met" or "missed": steady CPU
    added over the source, frames/s against the source alone's, whole-run
    CPU per frame against FFmpeg's CPU bwdif on one thread"""
    limits = {("upload ! download", 1080): 250,
              ("upload ! bwdif ! download", 1080): 350,
              ("upload ! download", 2160): 800,
              ("upload ! bwdif ! download", 2160): 800}
    limit = limits.get((name, size))
    if limit is None:
        return "-"
    out = ["added <= %d us: %s" % (limit, "met" if added <= limit else
                                    "missed"),
           "frames/s >= 95%% of the source's (%.0f%%): %s" % (
               100 * fps_share, "met" if fps_share >= 0.95 else "missed")]
    if "bwdif" in name and peer:
        out.append("<= half of FFmpeg's CPU per frame (%.2f): %s" % (
            whole / peer[1], "met" if whole <= peer[1] / 2 else "missed"))
    return "; ".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=0,
                    help="N: the short run's frames; the file holds 2 N "
                    "(default N = 600 at 1080, 200 at 2160)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1080,2160")
    ap.add_argument("--formats", default="I420")
    ap.add_argument("--sources", default="file")
    ap.add_argument("--threads", action="store_true",
                    help="CPU per frame of each thread, by name")
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
    print("\"whole run\": CPU of the 2 N-frame run over its frames, start-up "
          "included; frames/s over that run's whole life. \"steady\": (CPU "
          "of 2 N frames - CPU of N frames) / N. \"start\": CPU of the "
          "N-frame run minus N steady frames (starting, stopping). \"added\": "
          "steady CPU per frame over the source alone of the same build's "
          "run. Peer: %s.\n" % (
              "ffmpeg -threads 1 ... -vf bwdif -f null (its own file read "
              "included; whole run)" if ffmpeg else
              "ffmpeg not on PATH, no peer row"))
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            width, height = SIZES[size]
            frames = args.frames or (600 if size <= 1080 else 200)
            for fmt, source in [(f, s) for f in args.formats.split(",")
                                for s in args.sources.split(",")]:
                gst_fmt, bpp = GST_FORMAT[fmt]
                frame_bytes = int(width * height * bpp)
                path = os.path.join(tmp, "in-%d-%s.raw" % (size, fmt))
                if source == "file":
                    make_file(path, frame_bytes, 2 * frames)
                print("## %di %s, %d and %d frames, source: %s\n" % (
                    size, fmt, frames, 2 * frames, {
                        "file": "a raw file in tmpfs",
                        "refused": "videotestsrc, its own pool",
                        "pool": "videotestsrc, our pinned pool"}[source]))
                peer = None
                if ffmpeg and source == "file":
                    argv = [ffmpeg, "-nostdin", "-loglevel", "error",
                            "-threads", "1", "-filter_threads", "1",
                            "-f", "rawvideo", "-pix_fmt", FFMPEG_FORMAT[fmt],
                            "-s", "%dx%d" % (width, height), "-r", "25",
                            "-i", path, "-vf", "bwdif=mode=send_field",
                            "-f", "null", "-"]
                    wall, cpu = median_run(argv, dict(os.environ), args.runs)
                    peer = (2 * frames / wall, cpu / (2 * frames) * 1e6)
                print("| build | chain | input frames/s | CPU per frame, "
                      "whole run | steady | start | added over the source, "
                      "steady | target (issue 32) |")
                print("|---|---|---|---|---|---|---|---|")
                per_thread = []
                for label, plugin_dir in builds:
                    env = dict(os.environ)
                    env["GST_PLUGIN_PATH_1_0"] = plugin_dir
                    env["GST_PLUGIN_PATH"] = plugin_dir
                    rows = [("the source alone", "")] + CHAINS
                    source_steady = None
                    for name, chain in rows:
                        def argv(n):
                            if source == "file":
                                src = ("filesrc location=%s blocksize=%d "
                                       "num-buffers=%d ! rawvideoparse "
                                       "format=%s width=%d height=%d "
                                       "framerate=25/1 interlaced=true "
                                       "top-field-first=true" % (
                                           path, frame_bytes, n, gst_fmt,
                                           width, height))
                            else:
                                src = ("videotestsrc pattern=black "
                                       "num-buffers=%d ! video/x-raw,"
                                       "format=%s,width=%d,height=%d,"
                                       "framerate=25/1,interlace-mode="
                                       "interleaved%s" % (
                                           n, fmt, width, height,
                                           " ! identity drop-allocation=true"
                                           if source == "refused" else ""))
                            line = src + " ! queue ! " + (
                                chain + " ! " if chain else "") + \
                                "fakesink sync=false"
                            return [launch, "-q"] + line.split()
                        wall2, cpu2 = median_run(argv(2 * frames), env,
                                                 args.runs)
                        wall1, cpu1 = median_run(argv(frames), env, args.runs)
                        steady = (cpu2 - cpu1) / frames * 1e6
                        start = (cpu1 - (cpu2 - cpu1)) * 1e3
                        fps = 2 * frames / wall2
                        whole = cpu2 / (2 * frames) * 1e6
                        if source_steady is None:
                            source_steady, source_fps = steady, fps
                        added = "-" if not chain else "%.0f us" % (
                            steady - source_steady)
                        print("| %s | %s | %.0f | %.0f us | %.0f us | %.0f ms "
                              "| %s | %s |" % (
                                  label, name, fps, whole, steady, start,
                                  added, targets(size, name, steady -
                                                 source_steady, fps /
                                                 source_fps, whole, peer)))
                        sys.stdout.flush()
                        if args.threads:
                            threads = collections.defaultdict(float)
                            run_child(argv(2 * frames), env, threads)
                            per_thread.append((label, name, threads))
                if peer:
                    print("| peer | FFmpeg CPU bwdif, 1 thread | %.0f | %.0f us "
                          "| - | - | - | - |" % peer)
                print()
                if per_thread:
                    print("### Per thread, %di %s from %s: CPU us per frame "
                          "over the %d-frame run, start-up included (one "
                          "run)\n" % (size, fmt, source, 2 * frames))
                    for label, name, threads in per_thread:
                        top = sorted(threads.items(), key=lambda kv: -kv[1])
                        print("- %s, %s: %s" % (label, name, ", ".join(
                            "%s %.0f" % (n, t / (2 * frames) * 1e6)
                            for n, t in top if t > 0)))
                    print()
                if source == "file":
                    os.unlink(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
