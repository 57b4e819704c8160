/* gst-cudafx: DLPack export of a device frame's component (see the
 * header). The tensor holds the frame mapped for the consumer's stream
 * until the consumer calls its deleter: the buffer stays alive (the map
 * holds a reference) and the frame's next user waits, on the GPU, for the
 * work the consumer enqueued on that stream (the next writer for a read,
 * every later user for a write). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxdlpack.h"
#include "gstcudafxframe.h"
#include "gstcudafxmemory.h"

typedef struct
{
  GstCudaFxDLManagedTensor tensor;
  GstCudaFxFrame frame;
  int64_t shape[2];
  int64_t strides[2];
} Export;

/* The consumer's thread keeps its own current device: ours is made
 * current for our calls only */
static gint
enter (GstCudaFxContext * context)
{
  gint device = -1;

  if (cudaGetDevice (&device) != cudaSuccess)
    device = -1;
  if (context)
    gst_cuda_fx_context_make_current (context);
  return device;
}

static void
leave (gint device)
{
  if (device >= 0)
    cudaSetDevice (device);
  cudaGetLastError ();
}

static void
export_free (GstCudaFxDLManagedTensor * tensor)
{
  Export *e = (Export *) tensor;
  GstBuffer *buffer = gst_buffer_ref (e->frame.video.buffer);
  cudaStream_t stream = e->frame.stream;
  gint device = enter (e->frame.context);

  /* records the consumer's reads (or write) for the frame's next users;
   * if that fails, the frame is not let go before the work is done */
  if (gst_cuda_fx_frame_unmap (&e->frame) != cudaSuccess)
    cudaStreamSynchronize (stream);
  gst_buffer_unref (buffer);
  leave (device);
  g_free (e);
}

/**
 * gst_cuda_fx_buffer_export_dlpack: (skip)
 * @buffer: a buffer of device memory (ours or GStreamer's CUDA memory)
 * @info: its caps layout
 * @component: the component to export (0: Y or gray, 1: U, 2: V)
 * @stream: the CUDA stream the consumer will read the tensor on
 * @error: where to put a reason for failing
 *
 * gst_cuda_fx_buffer_export_dlpack_full() for reading.
 *
 * Returns: (transfer full) (nullable): the tensor, or %NULL with @error set
 */
GstCudaFxDLManagedTensor *
gst_cuda_fx_buffer_export_dlpack (GstBuffer * buffer,
    const GstVideoInfo * info, guint component, cudaStream_t stream,
    GError ** error)
{
  return gst_cuda_fx_buffer_export_dlpack_full (buffer, info, component,
      GST_MAP_READ, stream, error);
}

/**
 * gst_cuda_fx_buffer_export_dlpack_full:
 * @buffer: a buffer of device memory (ours or GStreamer's CUDA memory)
 * @info: its caps layout
 * @component: the component to export (0: Y or gray, 1: U, 2: V)
 * @flags: %GST_MAP_READ, or %GST_MAP_WRITE (with or without READ) to write
 *   the samples
 * @stream: (type gpointer) (nullable): the CUDA stream (a `cudaStream_t`
 *   or `CUstream`; %NULL or 0: the legacy default stream) the consumer
 *   will use the tensor on
 * @error: where to put a reason for failing
 *
 * Exports component @component of @buffer's frame as a 2-D DLPack tensor
 * of unsigned 8 or 16-bit samples, shape (rows, samples a row), strides in
 * elements (a component interleaved with others, as NV12's U or UYVY's Y,
 * has a column stride above 1; data is the start of the plane's rows and
 * byte_offset the component's first sample), on the CUDA device of the
 * buffer; the calling thread's current device is left as it was.
 *
 * Before this returns, @stream is made to wait on the GPU for the frame's
 * last writer and, for %GST_MAP_WRITE, for its readers since. Call the
 * tensor's deleter when the consumer is done (after its work on @stream is
 * enqueued): that records the work on @stream, so that the frame's next
 * user in a pipeline waits for it on the GPU, and lets the buffer go; the
 * buffer is kept alive until then, also after its pipeline is gone. Write
 * only to buffers nothing else holds (a frame of a pool you acquired it
 * from), never to one a pipeline gave you: others may read it.
 *
 * From Python (PyGObject) the tensor is an address: wrap it in a PyCapsule
 * named "dltensor" for `torch.from_dlpack()` or `cupy.from_dlpack()`,
 * which call the deleter.
 *
 * Returns: (type gpointer) (transfer full) (nullable): the tensor (a
 * `DLManagedTensor *`), or %NULL with @error set (not device memory, no
 * such component, samples that are not 8 or 16-bit)
 */
GstCudaFxDLManagedTensor *
gst_cuda_fx_buffer_export_dlpack_full (GstBuffer * buffer,
    const GstVideoInfo * info, guint component, GstMapFlags flags,
    gpointer stream, GError ** error)
{
  GstCudaFxContext *context = NULL;
  GstCudaFxPlane *p;
  GstMemory *mem;
  Export *e;
  gint device;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (info != NULL, NULL);

  if (component >= GST_VIDEO_INFO_N_COMPONENTS (info)) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_MEMORY,
        "A %s frame has no component %u", GST_VIDEO_INFO_NAME (info),
        component);
    return NULL;
  }
  mem = gst_buffer_n_memory (buffer) == 1 ? gst_buffer_peek_memory (buffer,
      0) : NULL;
  if (mem && gst_is_cuda_fx_memory (mem))
    context = gst_cuda_fx_memory_get_context (mem);

  e = g_new0 (Export, 1);
  device = enter (context);
  if (!gst_cuda_fx_frame_map (&e->frame, info, buffer,
          (flags & GST_MAP_WRITE) ? GST_MAP_READWRITE : GST_MAP_READ, context,
          (cudaStream_t) stream, error)) {
    leave (device);
    g_free (e);
    return NULL;
  }
  p = &e->frame.comp[component];
  if ((p->bytes != 1 && p->bytes != 2) || p->pitch % p->bytes
      || p->step % p->bytes) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_MEMORY,
        "Component %u of a %s frame has %d-byte samples: DLPack export takes "
        "8 and 16-bit samples", component, GST_VIDEO_INFO_NAME (info),
        p->bytes);
    gst_cuda_fx_frame_unmap (&e->frame);
    leave (device);
    g_free (e);
    return NULL;
  }

  e->shape[0] = p->height;
  e->shape[1] = p->width;
  e->strides[0] = p->pitch / p->bytes;
  e->strides[1] = p->step / p->bytes;
  /* the rows' start, the component's first sample byte_offset after it */
  e->tensor.dl_tensor.data = p->data - p->offset;
  e->tensor.dl_tensor.device.device_type = GST_CUDA_FX_DL_DEVICE_CUDA;
  e->tensor.dl_tensor.device.device_id = context ?
      gst_cuda_fx_context_get_device_id (context) : 0;
  if (!context) {
    struct cudaPointerAttributes attr;

    if (cudaPointerGetAttributes (&attr, p->data) == cudaSuccess)
      e->tensor.dl_tensor.device.device_id = attr.device;
    cudaGetLastError ();
  }
  e->tensor.dl_tensor.ndim = 2;
  e->tensor.dl_tensor.dtype.code = GST_CUDA_FX_DL_UINT;
  e->tensor.dl_tensor.dtype.bits = 8 * p->bytes;
  e->tensor.dl_tensor.dtype.lanes = 1;
  e->tensor.dl_tensor.shape = e->shape;
  e->tensor.dl_tensor.strides = e->strides;
  e->tensor.dl_tensor.byte_offset = p->offset;
  e->tensor.manager_ctx = e;
  e->tensor.deleter = export_free;
  leave (device);
  return &e->tensor;
}
