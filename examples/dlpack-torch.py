#!/usr/bin/env python3
"""Device frames from a GStreamer pipeline into PyTorch or CuPy, no copy.

Runs videotestsrc ! cudafxupload ! cudadeinterlace ! appsink, exports each
component of the frames it pulls as a DLPack tensor
(gst_cuda_fx_buffer_export_dlpack) and hands it to torch.from_dlpack (or
cupy.from_dlpack when PyTorch is missing), then checks the samples against
the same pipeline ending in cudafxdownload (system memory, numpy).

It reaches GStreamer through ctypes, not PyGObject: it is meant for a
Python that has PyTorch or CuPy but no `gi` (the usual case on GPU hosts).
With PyGObject, the same calls are GstCudaFx and Gst functions, and only
the export needs ctypes (it takes a CUDA stream).

    python3 examples/dlpack-torch.py [FRAMES]

Environment: GST_PLUGIN_PATH must find libgstcudafx.so, and the loader
libgstcudafx-1.0.so.0 (LD_LIBRARY_PATH). Exit status 0 when every sample
matched, 1 otherwise, 77 without PyTorch, CuPy or a GPU.
"""
import ctypes
import ctypes.util
import sys

try:
    import torch as gpu
    ARRAY = "torch"
except ImportError:
    try:
        import cupy as gpu
        ARRAY = "cupy"
    except ImportError:
        print("neither PyTorch nor CuPy: nothing to hand frames to")
        sys.exit(77)
import numpy as np


def lib(name):
    return ctypes.CDLL(ctypes.util.find_library(name) or f"lib{name}.so.0")


gst = lib("gstreamer-1.0")
app = lib("gstapp-1.0")
video = lib("gstvideo-1.0")
cudafx = lib("gstcudafx-1.0")

P = ctypes.c_void_p
for f, res, args in [
        (gst.gst_init, None, [P, P]),
        (gst.gst_parse_launch, P, [ctypes.c_char_p, P]),
        (gst.gst_bin_get_by_name, P, [P, ctypes.c_char_p]),
        (gst.gst_element_set_state, ctypes.c_int, [P, ctypes.c_int]),
        (gst.gst_object_unref, None, [P]),
        (gst.gst_sample_get_buffer, P, [P]),
        (gst.gst_sample_get_caps, P, [P]),
        (gst.gst_mini_object_unref, None, [P]),
        (gst.gst_buffer_extract, ctypes.c_size_t,
         [P, ctypes.c_size_t, P, ctypes.c_size_t]),
        (gst.gst_buffer_get_size, ctypes.c_size_t, [P]),
        (app.gst_app_sink_pull_sample, P, [P]),
        (video.gst_video_info_new, P, []),
        (video.gst_video_info_free, None, [P]),
        (video.gst_video_info_from_caps, ctypes.c_int, [P, P]),
        (cudafx.gst_cuda_fx_buffer_export_dlpack, P,
         [P, P, ctypes.c_uint, P, P]),
]:
    f.restype, f.argtypes = res, args

PLAYING, NULL = 4, 1
capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [P, ctypes.c_char_p, P]

CAPS = ("video/x-raw,format=NV12,width=320,height=240,framerate=25/1,"
        "interlace-mode=interleaved,field-order=top-field-first")


def pipeline(tail, frames):
    launch = (f"videotestsrc num-buffers={frames} pattern=ball ! {CAPS} ! "
              f"cudafxupload ! cudadeinterlace method=yadif ! {tail} "
              "appsink name=out sync=false")
    p = gst.gst_parse_launch(launch.encode(), None)
    if not p:
        raise RuntimeError("cannot make: " + launch)
    sink = gst.gst_bin_get_by_name(p, b"out")
    gst.gst_element_set_state(p, PLAYING)
    return p, sink


def as_array(tensor):
    """The DLManagedTensor * as a GPU array (the consumer owns it now)."""
    capsule = capsule_new(tensor, b"dltensor", None)
    if ARRAY == "torch":
        return gpu.utils.dlpack.from_dlpack(capsule)
    return gpu.from_dlpack(capsule)


def main():
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    gst.gst_init(None, None)
    dev, dev_sink = pipeline("", frames)
    sys_p, sys_sink = pipeline("cudafxdownload !", frames)
    info = video.gst_video_info_new()
    bad = 0
    for n in range(2 * frames):          # two fields a frame
        a = app.gst_app_sink_pull_sample(dev_sink)
        b = app.gst_app_sink_pull_sample(sys_sink)
        if not a or not b:
            print(f"frame {n}: no sample")
            return 1
        video.gst_video_info_from_caps(info, gst.gst_sample_get_caps(a))
        buf = gst.gst_sample_get_buffer(a)
        # the CPU copy: NV12 at GStreamer's default strides (width 320)
        sbuf = gst.gst_sample_get_buffer(b)
        host = np.empty(gst.gst_buffer_get_size(sbuf), np.uint8)
        gst.gst_buffer_extract(sbuf, 0, host.ctypes.data, host.size)
        y_ref = host[:320 * 240].reshape(240, 320)
        uv_ref = host[320 * 240:].reshape(120, 160, 2)
        for comp, ref in ((0, y_ref), (1, uv_ref[..., 0]), (2, uv_ref[..., 1])):
            t = cudafx.gst_cuda_fx_buffer_export_dlpack(buf, info, comp, None,
                                                        None)
            if not t:
                print(f"frame {n}: component {comp} not exported")
                return 1
            arr = as_array(t)
            got = arr.cpu().numpy() if ARRAY == "torch" else arr.get()
            if got.shape != ref.shape or not np.array_equal(got, ref):
                print(f"frame {n} component {comp}: {got.shape} differs")
                bad += 1
            del arr                       # the deleter runs here
        gst.gst_mini_object_unref(a)
        gst.gst_mini_object_unref(b)
    video.gst_video_info_free(info)
    for p, s in ((dev, dev_sink), (sys_p, sys_sink)):
        gst.gst_element_set_state(p, NULL)
        gst.gst_object_unref(s)
        gst.gst_object_unref(p)
    print(f"{2 * frames} frames through {ARRAY}: {bad} components differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
