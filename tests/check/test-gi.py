#!/usr/bin/env python3
"""CPU suite: the GstCudaFx-1.0 typelib loads into Python (PyGObject) and
its functions are callable. Without a GPU the context call fails with a
GLib.Error that names the cause; with one it returns device 0's context.
Skips (77) where PyGObject or the typelib is missing."""
import sys

try:
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstBase", "1.0")
    gi.require_version("GstCudaFx", "1.0")
    from gi.repository import GLib, Gst, GstBase, GstCudaFx
except (ImportError, ValueError) as e:
    print("skip: %s" % e)
    sys.exit(77)

failed = 0


def check(name, ok, detail=""):
    global failed
    print("%s: %s%s" % ("ok" if ok else "FAIL", name,
                        " (%s)" % detail if detail else ""))
    if not ok:
        failed += 1


Gst.init(None)

# the types are registered and named as in C
check("Context type", GstCudaFx.Context.__gtype__.name == "GstCudaFxContext")
check("BufferPool is a Gst.BufferPool",
      GstCudaFx.BufferPool.__gtype__.is_a(Gst.BufferPool.__gtype__))
check("Filter is a GstBase.BaseTransform",
      GstCudaFx.Filter.__gtype__.is_a(GstBase.BaseTransform.__gtype__))

# a function that needs no GPU: caps of device memory
caps = Gst.Caps.from_string("video/x-raw,format=I420,width=64,height=48")
dev = GstCudaFx.caps_to_device(caps)
feats = [dev.get_features(i).to_string() for i in range(dev.get_size())]
check("caps_to_device", "memory:CUDAFxMemory" in feats, ", ".join(feats))
back = GstCudaFx.caps_transfer(dev, False)
check("caps_transfer back to system memory",
      all(back.get_features(i).to_string() == "memory:SystemMemory"
          for i in range(back.get_size())), back.to_string())
check("caps passed in unchanged", caps.to_string() ==
      "video/x-raw, format=(string)I420, width=(int)64, height=(int)48")

# the allocators register without a GPU
alloc = GstCudaFx.Allocator.get()
check("device allocator", alloc is not None and
      Gst.Allocator.find("CUDAFxMemory") is not None)

# a context: device 0's, or a clear error
try:
    ctx = GstCudaFx.Context.get(0)
    check("context of device 0", ctx.get_device_id() == 0,
          ctx.get_device_name())
except GLib.Error as e:
    check("no GPU: a clear error", "CUDA" in e.message, e.message)

# a device that no machine has
try:
    GstCudaFx.Context.get(4096)
    check("device 4096 refused", False)
except GLib.Error as e:
    check("device 4096 refused", "CUDA" in e.message, e.message)

# the DLPack export is callable (stream as an integer, tensor as an
# address) and refuses a buffer of system memory with a clear error
gi.require_version("GstVideo", "1.0")
from gi.repository import GstVideo  # noqa: E402
info = GstVideo.VideoInfo.new_from_caps(caps)
system = Gst.Buffer.new_allocate(None, info.size, None)
try:
    GstCudaFx.buffer_export_dlpack_full(system, info, 0, Gst.MapFlags.WRITE, 0)
    check("DLPack export of system memory refused", False)
except GLib.Error as e:
    check("DLPack export of system memory refused",
          "device memory" in e.message, e.message)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
