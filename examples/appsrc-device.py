#!/usr/bin/env python3
"""appsrc-device.c's application in Python (PyGObject): frames stay on the
GPU from the application into the pipeline and back out of it.

    appsrc (device frames its own kernel writes) ! cudadeinterlace
      ! cudablur ! appsink (frames it reads on the GPU)

Frames come from a pool of our device memory
(GstCudaFx.BufferPool.new); each component is exported for writing as a
DLPack tensor (GstCudaFx.buffer_export_dlpack_full, GST_MAP_WRITE) on the
application's own CUDA stream, filled by the application's kernel, and
handed back by calling the tensor's deleter, which records the kernel's
work for the elements to wait on (on the GPU: the host never waits). The
output frames are read the same way by a checksum kernel. To check itself
the program runs the same chain from system memory (the same frames made
on the CPU, cudafxupload ... cudafxdownload) and compares every output
frame's checksum.

The GPU side goes through ctypes to the CUDA driver and NVRTC (the kernels
are compiled at run time), so that it needs nothing but PyGObject and a
CUDA installation. With CuPy or PyTorch, wrap the tensor's address in a
PyCapsule named "dltensor" and use cupy.from_dlpack or torch.from_dlpack
instead (examples/dlpack-torch.py shows how); they call the deleter.

    python3 examples/appsrc-device.py [FRAMES]

Environment: GST_PLUGIN_PATH must find libgstcudafx.so, GI_TYPELIB_PATH
GstCudaFx-1.0.typelib (where it is not installed), LD_LIBRARY_PATH
libgstcudafx-1.0.so.0; CUDA_PATH or CUDA_HOME where libnvrtc is not on
the loader's path. Exit status: 0 when every checksum matched, 1 when not,
77 without PyGObject or a GPU.
"""
import ctypes
import ctypes.util
import glob
import os
import sys

try:
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstVideo", "1.0")
    gi.require_version("GstCudaFx", "1.0")
    from gi.repository import GLib, Gst, GstCudaFx, GstVideo
except (ImportError, ValueError) as e:
    print("no PyGObject or no typelib: %s" % e)
    sys.exit(77)

W, H = 320, 240
CAPS = ("format=I420,width=%d,height=%d,framerate=25/1,"
        "interlace-mode=interleaved,field-order=top-field-first" % (W, H))
CHAIN = "cudadeinterlace ! cudablur sigma=2"

KERNELS = r"""
typedef unsigned char u8;
typedef unsigned long long u64;

/* the picture of frame n, component c, at x, y: a moving gradient */
__device__ u8 pattern (int x, int y, int n, int c)
{
  return (u8) ((x * 3 + y * 5 + n * 7 + c * 50) ^ (y * n));
}

extern "C" __global__ void
fill (u8 *data, long long pitch, long long step, int w, int h, int n, int c)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    data[y * pitch + x * step] = pattern (x, y, n, c);
}

/* sum of (sample * (position + 1)): sees a sample in the wrong place */
extern "C" __global__ void
checksum (const u8 *data, long long pitch, long long step, int w, int h,
    u64 *sum)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    atomicAdd (sum, (u64) data[y * pitch + x * step] * ((u64) y * w + x + 1));
}
"""


def pattern(x, y, n, c):
    """The kernel's pattern, on the CPU."""
    return ((x * 3 + y * 5 + n * 7 + c * 50) ^ (y * n)) & 255


# ---- DLPack's structs (the specification's layout, version 0.8) ----------
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor)))]


# ---- the CUDA driver and NVRTC, through ctypes ---------------------------
def load_nvrtc():
    names = [ctypes.util.find_library("nvrtc")]
    for root in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"),
                 "/usr/local/cuda"):
        if root:
            for sub in ("lib64", "targets/x86_64-linux/lib", "lib"):
                names += sorted(glob.glob(os.path.join(root, sub,
                                                       "libnvrtc.so*")))
    for name in [n for n in names if n] + ["libnvrtc.so"]:
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    sys.exit("libnvrtc not found: set CUDA_PATH to the CUDA Toolkit")


class Gpu:
    """Device 0's primary context (the one our elements use), a stream of
    the application's own and the two kernels."""

    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.check(self.cu.cuInit(0), "cuInit")
        dev, ctx = ctypes.c_int(), ctypes.c_void_p()
        self.check(self.cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.check(self.cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev),
                   "cuDevicePrimaryCtxRetain")
        self.check(self.cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        self.dev, self.ctx = dev, ctx
        self.stream = ctypes.c_void_p()
        self.check(self.cu.cuStreamCreate(ctypes.byref(self.stream), 1),
                   "cuStreamCreate")   # 1: CU_STREAM_NON_BLOCKING
        module = ctypes.c_void_p()
        self.check(self.cu.cuModuleLoadData(ctypes.byref(module),
                                             self.compile()),
                   "cuModuleLoadData")
        self.fill, self.checksum = ctypes.c_void_p(), ctypes.c_void_p()
        for fn, name in ((self.fill, b"fill"), (self.checksum, b"checksum")):
            self.check(self.cu.cuModuleGetFunction(ctypes.byref(fn), module,
                                                   name), name.decode())
        self.sum = ctypes.c_uint64()
        self.check(self.cu.cuMemAlloc_v2(ctypes.byref(self.sum), 8),
                   "cuMemAlloc")

    def check(self, status, what):
        if status != 0:
            sys.exit("%s failed: CUDA error %d" % (what, status))

    def compile(self):
        nvrtc = load_nvrtc()
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.cu.cuDeviceGetAttribute(ctypes.byref(major), 75, self.dev)
        self.cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, self.dev)
        prog = ctypes.c_void_p()
        nvrtc.nvrtcCreateProgram(ctypes.byref(prog), KERNELS.encode(),
                                 b"kernels.cu", 0, None, None)
        opt = ("--gpu-architecture=compute_%d%d" % (major.value,
                                                     minor.value)).encode()
        if nvrtc.nvrtcCompileProgram(prog, 1,
                                     (ctypes.c_char_p * 1)(opt)) != 0:
            size = ctypes.c_size_t()
            nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            nvrtc.nvrtcGetProgramLog(prog, log)
            sys.exit("NVRTC: %s" % log.value.decode())
        size = ctypes.c_size_t()
        nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
        ptx = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetPTX(prog, ptx)
        return ptx

    def launch(self, fn, tensor_address, *args):
        """Runs @fn over the 2-D tensor at @tensor_address on our stream,
        then calls the tensor's deleter (which records that work)."""
        m = DLManagedTensor.from_address(tensor_address)
        t = m.dl_tensor
        size = t.dtype.bits // 8
        h, w = t.shape[0], t.shape[1]
        values = [ctypes.c_void_p(t.data + t.byte_offset),
                  ctypes.c_longlong(t.strides[0] * size),
                  ctypes.c_longlong(t.strides[1] * size),
                  ctypes.c_int(w), ctypes.c_int(h)] + list(args)
        params = (ctypes.c_void_p * len(values))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
        self.check(self.cu.cuLaunchKernel(fn, (w + 31) // 32, (h + 7) // 8, 1,
                                          32, 8, 1, 0, self.stream, params,
                                          None), "cuLaunchKernel")
        m.deleter(ctypes.byref(m))

    def frame_checksum(self, buf, info):
        self.check(self.cu.cuMemsetD8Async(self.sum, 0, 8, self.stream),
                   "cuMemsetD8Async")
        for c in range(3):
            t = GstCudaFx.buffer_export_dlpack_full(
                buf, info, c, Gst.MapFlags.READ, self.stream.value)
            self.launch(self.checksum, t, self.sum)
        host = ctypes.c_uint64()
        self.check(self.cu.cuMemcpyDtoHAsync_v2(ctypes.byref(host), self.sum,
                                                8, self.stream), "cuMemcpy")
        # the application wants the number now
        self.check(self.cu.cuStreamSynchronize(self.stream),
                   "cuStreamSynchronize")
        return host.value


# ---- the two pipelines ----------------------------------------------------
def start(launch):
    pipeline = Gst.parse_launch(launch)
    pipeline.set_state(Gst.State.PLAYING)
    return pipeline, pipeline.get_by_name("src"), pipeline.get_by_name("sink")


def push(src, buf, n):
    buf.pts = n * Gst.SECOND // 25
    buf.duration = Gst.SECOND // 25
    if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
        sys.exit("appsrc refused frame %d" % n)


def drain(pipeline, sink, checksum_of):
    sums = []
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
        sums.append(checksum_of(sample.get_buffer(), info))
    msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    if msg:
        sys.exit("error: %s" % msg.parse_error()[0].message)
    pipeline.set_state(Gst.State.NULL)
    return sums


def run_device(context, gpu, frames):
    pipeline, src, sink = start(
        'appsrc name=src format=time caps="video/x-raw(memory:CUDAFxMemory),'
        '%s" ! %s ! appsink name=sink sync=false' % (CAPS, CHAIN))
    caps = Gst.Caps.from_string("video/x-raw(memory:CUDAFxMemory)," + CAPS)
    info = GstVideo.VideoInfo.new_from_caps(caps)
    pool = GstCudaFx.BufferPool.new(context)
    config = pool.get_config()
    Gst.BufferPool.config_set_params(config, caps, 0, 4, 0)
    if not pool.set_config(config) or not pool.set_active(True):
        sys.exit("cannot start the device pool")
    for n in range(frames):
        ret, buf = pool.acquire_buffer(None)
        if ret != Gst.FlowReturn.OK:
            sys.exit("no buffer from the pool: %s" % ret)
        for c in range(3):
            # our stream waits (on the GPU) for the frame's last readers;
            # the deleter makes the elements wait for our kernel
            t = GstCudaFx.buffer_export_dlpack_full(
                buf, info, c, Gst.MapFlags.WRITE, gpu.stream.value)
            gpu.launch(gpu.fill, t, ctypes.c_int(n), ctypes.c_int(c))
        push(src, buf, n)
    src.emit("end-of-stream")
    sums = drain(pipeline, sink, gpu.frame_checksum)
    pool.set_active(False)
    return sums


def cpu_checksum(buf, info):
    ok, mapinfo = buf.map(Gst.MapFlags.READ)
    data, total = mapinfo.data, 0
    for c in range(3):
        off, stride = info.offset[c], info.stride[c]
        w, h = comp_size(info, c)
        for y in range(h):
            row = data[off + y * stride:off + y * stride + w]
            base = y * w + 1
            total += sum(v * (base + x) for x, v in enumerate(row))
    buf.unmap(mapinfo)
    return total


def comp_size(info, c):
    # I420: the chroma planes are half size, rounded up
    return (info.width, info.height) if c == 0 else \
        ((info.width + 1) // 2, (info.height + 1) // 2)


def run_system(frames):
    pipeline, src, sink = start(
        'appsrc name=src format=time caps="video/x-raw,%s" ! cudafxupload ! '
        '%s ! cudafxdownload ! appsink name=sink sync=false' % (CAPS, CHAIN))
    info = GstVideo.VideoInfo.new_from_caps(
        Gst.Caps.from_string("video/x-raw," + CAPS))
    for n in range(frames):
        frame = bytearray(info.size)
        for c in range(3):
            w, h = comp_size(info, c)
            off, stride = info.offset[c], info.stride[c]
            for y in range(h):
                frame[off + y * stride:off + y * stride + w] = bytes(
                    pattern(x, y, n, c) for x in range(w))
        push(src, Gst.Buffer.new_wrapped(bytes(frame)), n)
    src.emit("end-of-stream")
    return drain(pipeline, sink, cpu_checksum)


def main(argv):
    frames = max(1, int(argv[1])) if len(argv) > 1 else 20
    Gst.init(None)
    try:
        context = GstCudaFx.Context.get(0)
    except GLib.Error as e:
        print("no GPU: %s" % e.message)
        return 77
    gpu = Gpu()
    dev = run_device(context, gpu, frames)
    sys_ = run_system(frames)
    # fields=all: two progressive frames per interlaced one
    if len(dev) != 2 * frames or len(sys_) != 2 * frames:
        print("%d and %d output frames, want %d" % (len(dev), len(sys_),
                                                   2 * frames))
        return 1
    bad = 0
    for i, (d, s) in enumerate(zip(dev, sys_)):
        if d != s:
            print("output frame %d: checksum %d on the GPU, %d from system "
                  "memory" % (i, d, s))
            bad += 1
    print("%d output frames, %d checksums differ" % (len(dev), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
