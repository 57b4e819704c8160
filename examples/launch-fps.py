#!/usr/bin/env python3
"""launch-fps, in Python (PyGObject): runs a pipeline given as a
gst-launch-1.0 description and says how fast it goes, with a progress line
every second, a summary at the end, EOS on Ctrl-C and a non-zero exit on an
error. The same tool as launch-fps.c.

    python3 launch-fps.py "videotestsrc num-buffers=1000 ! cudafxupload ! cudablur sigma=2 ! cudafxdownload ! fakesink"

Needs Debian's python3-gi (the system Python's PyGObject).
"""
import signal
import sys
import threading
import time

import gi
gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main(argv):
    quiet = len(argv) > 1 and argv[1] == "-q"
    args = argv[2:] if quiet else argv[1:]
    if not args:
        print("usage: %s [-q] PIPELINE-DESCRIPTION..." % argv[0],
              file=sys.stderr)
        return 2
    Gst.init(None)
    try:
        pipeline = Gst.parse_launch(" ".join(args))
    except GLib.Error as e:
        print("cannot build the pipeline: %s" % e.message, file=sys.stderr)
        return 1
    sinks = pipeline.iterate_sinks()
    ok, sink = sinks.next() if isinstance(pipeline, Gst.Bin) else (None, None)
    pad = sink.get_static_pad("sink") if ok == Gst.IteratorResult.OK else None
    if pad is None:
        print("the pipeline has no sink to count frames at", file=sys.stderr)
        return 1

    # counted in the streaming thread, read by the main loop
    state = {"frames": 0, "start": None, "last": time.monotonic(),
             "last_frames": 0, "failed": False}
    lock = threading.Lock()

    def count(pad, info):
        with lock:
            if info.type & Gst.PadProbeType.BUFFER_LIST:
                state["frames"] += info.get_buffer_list().length()
            else:
                state["frames"] += 1
            if state["start"] is None:
                state["start"] = time.monotonic()
        return Gst.PadProbeReturn.OK

    pad.add_probe(Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST,
                  count)
    loop = GLib.MainLoop()

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print("\nerror from %s: %s\n%s" % (msg.src.get_name(),
                  err.message, debug or ""), file=sys.stderr)
            state["failed"] = True
            loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            print("\nwarning from %s: %s" % (msg.src.get_name(),
                  err.message), file=sys.stderr)
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()
        return True

    def progress():
        now = time.monotonic()
        with lock:
            frames, start = state["frames"], state["start"]
        if not quiet and start is not None:
            sys.stderr.write("\r%d frames, %.1f frames/s now, %.1f on average"
                             "   " % (frames, (frames - state["last_frames"])
                                      / max(now - state["last"], 1e-6),
                                      frames / max(now - start, 1e-6)))
        state["last"], state["last_frames"] = now, frames
        return True

    interrupted = []

    def on_interrupt():
        if interrupted:
            loop.quit()
            return False
        interrupted.append(True)
        pipeline.send_event(Gst.Event.new_eos())
        return True

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, on_interrupt)
    GLib.timeout_add_seconds(1, progress)
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        state["failed"] = True
    loop.run()
    end = time.monotonic()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_signal_watch()
    if not quiet:
        sys.stderr.write("\n")
    start = state["start"]
    seconds = end - start if start is not None else 0.0
    print("%d frames in %.3f s: %.1f frames/s" % (
        state["frames"], seconds,
        state["frames"] / seconds if seconds > 0 else 0.0))
    return 1 if state["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
