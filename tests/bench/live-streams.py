#!/usr/bin/env python3
"""Benchmark (never a test): many live streams in one process.

N live 1080i25 UYVY streams, a capture card's form: each branch is
videotestsrc is-live=true pattern=black (paced at 25 frames/s) through
cudafxupload ! cudadeinterlace ! cudadegrain ! cudafxdownload !
fakesink sync=true, all in one gst-launch-1.0 child. Two kinds of source:
"pool", which writes into the pinned pool our upload proposes, and
"refused", behind identity drop-allocation=true, in its own pool of system
memory (buffers that come back: the upload registers them, see
cudafxupload's pin-recurring). Each row runs the branches over F and 3 F
frames; the sources alone (no element of ours) run the same way.

Printed per row: host cores (the child's CPU time over its wall time,
over the long run), cores over the sources alone, per stream; the wall
time minus the video's length for the short and the long run (start-up
plus lag: a lag that grows with the run's length means the streams do
not keep up); and the GPU's busy share (nvidia-smi's utilization,
sampled while the long run runs) where nvidia-smi is on PATH.

    live-streams.py [--streams 1,16,64,128] [--frames F]
                    [--kinds pool,refused] PLUGIN_DIR
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import threading
import time

CAPS = ("video/x-raw,format=UYVY,width=1920,height=1080,framerate=25/1,"
        "interlace-mode=interleaved")
CHAIN = ("queue ! cudafxupload ! cudadeinterlace ! cudadegrain ! "
         "cudafxdownload")


def gpu_sampler(stop, samples):
    smi = shutil.which("nvidia-smi")
    if not smi:
        return
    while not stop.is_set():
        try:
            out = subprocess.run([smi, "--query-gpu=utilization.gpu",
                                  "--format=csv,noheader,nounits", "-i", "0"],
                                 capture_output=True, text=True, timeout=5)
            samples.append(float(out.stdout.strip().splitlines()[0]))
        except (OSError, ValueError, IndexError, subprocess.SubprocessError):
            return
        stop.wait(0.5)


def targets(n, kind, per_stream, base_over, over1, over2, span):
    """Issue 32's targets for a row, each with "met" or "missed": host
    cores a stream; no lag that grows (the long run over its video no more
    than the short run's plus a tenth of a second per 4 s of video more);
    64 branches (or more) start within 0.5 s of the sources alone"""
    limit = 0.01 if kind == "pool" else 0.02
    out = ["<= %.2f cores a stream: %s" % (
        limit, "met" if per_stream <= limit else "missed"),
        "no growing lag: %s" % (
            "met" if over2 - over1 <= 0.1 * span / 4.0 else "missed")]
    if n >= 64:
        out.append("start within 0.5 s of the sources (%.2f s): %s" % (
            over1 - base_over, "met" if over1 - base_over <= 0.5 else
            "missed"))
    return "; ".join(out)


def run(n, frames, kind, ours, env, gpu=False):
    """Wall seconds, CPU seconds and the GPU's mean busy % (or None)"""
    branch = "videotestsrc is-live=true pattern=black num-buffers=%d ! %s" % (
        frames, CAPS)
    if kind == "refused":
        branch += " ! identity drop-allocation=true"
    if ours:
        branch += " ! " + CHAIN
    branch += " ! fakesink sync=true"
    argv = [shutil.which("gst-launch-1.0"), "-q"]
    for _ in range(n):
        argv += branch.split()
    stop, samples = threading.Event(), []
    sampler = threading.Thread(target=gpu_sampler, args=(stop, samples))
    if gpu:
        sampler.start()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stop.set()
    if gpu:
        sampler.join()
    if proc.returncode != 0:
        raise RuntimeError("%d streams failed (%d): %s" % (
            n, proc.returncode, proc.stderr[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, (sum(samples) / len(samples) if samples else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--streams", default="1,16,64,128")
    ap.add_argument("--frames", type=int, default=100,
                    help="F: the short run's frames; the long run has 3 F")
    ap.add_argument("--kinds", default="pool,refused")
    ap.add_argument("plugin_dir")
    args = ap.parse_args()
    if not shutil.which("gst-launch-1.0"):
        sys.exit("gst-launch-1.0 not found")
    env = dict(os.environ)
    env["GST_PLUGIN_PATH_1_0"] = env["GST_PLUGIN_PATH"] = os.path.abspath(
        args.plugin_dir)
    f1, f2 = args.frames, 3 * args.frames
    print("# Live 1080i25 UYVY streams in one process\n")
    print("Each stream: videotestsrc is-live=true ! %s ! fakesink sync=true; "
          "%d and %d frames (%.0f and %.0f s of video). Cores: the long run's "
          "CPU time minus the short run's, over the %.0f s of video between "
          "them (start-up left out). \"over video\": wall time minus the "
          "video's length, short / long run (start-up plus lag).\n" % (
              CHAIN, f1, f2, f1 / 25.0, f2 / 25.0, (f2 - f1) / 25.0))
    print("| N | source | cores | sources alone | ours per stream | over "
          "video, sources alone | over video, ours | GPU busy | target "
          "(issue 32) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in [int(x) for x in args.streams.split(",")]:
        for kind in args.kinds.split(","):
            base1 = run(n, f1, kind, False, env)
            base2 = run(n, f2, kind, False, env)
            ours1 = run(n, f1, kind, True, env)
            ours2 = run(n, f2, kind, True, env, gpu=True)
            # steady: the long run's extra CPU over its extra video time
            span = (f2 - f1) / 25.0
            base_cores = (base2[1] - base1[1]) / span
            cores = (ours2[1] - ours1[1]) / span
            per_stream = (cores - base_cores) / n
            print("| %d | %s | %.2f | %.2f | %.4f | %.2f / %.2f s | "
                  "%.2f / %.2f s | %s | %s |" % (
                      n, kind, cores, base_cores, per_stream,
                      base1[0] - f1 / 25.0, base2[0] - f2 / 25.0,
                      ours1[0] - f1 / 25.0, ours2[0] - f2 / 25.0,
                      "%.0f%%" % ours2[2] if ours2[2] is not None else "-",
                      targets(n, kind, per_stream, base1[0] - f1 / 25.0,
                              ours1[0] - f1 / 25.0, ours2[0] - f2 / 25.0,
                              f2 / 25.0 - f1 / 25.0)))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
