/* gst-cudafx: frame access. The event protocol that orders the CUDA
 * streams of every user of a device allocation, the mapping of a device
 * buffer to the component descriptions the kernels take, and the copies
 * between frames. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxframe.h"
#include "gstcudafxmemory.h"
#include "gstcudafxmemory-private.h"
#include "gstcudafxinterop.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_frame_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_frame_debug

static void
init_debug (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_frame_debug, "cudafxframe", 0,
        "gst-cudafx frame access");
    g_once_init_leave (&once, 1);
  }
}

/* ---- mapping ---------------------------------------------------------- */

gboolean
gst_cuda_fx_buffer_is_device (GstBuffer * buffer)
{
  return gst_is_cuda_fx_buffer (buffer) || (gst_buffer_n_memory (buffer) == 1
      && gst_cuda_fx_is_cuda_memory (gst_buffer_peek_memory (buffer, 0)));
}

/* The CUDA context a buffer's memory lives in, for the device check */
static gboolean
check_device (GstMemory * mem, GstCudaFxContext * context, GError ** error)
{
  GstCudaFxContext *owner;

  if (!context)
    return TRUE;
  if (gst_is_cuda_fx_memory (mem)) {
    owner = gst_cuda_fx_memory_get_context (mem);
    if (gst_cuda_fx_context_get_device_id (owner) ==
        gst_cuda_fx_context_get_device_id (context)
        && gst_cuda_fx_context_get_handle (owner) ==
        gst_cuda_fx_context_get_handle (context))
      return TRUE;
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_DEVICE_ID,
        "A frame on CUDA device %d reached an element running on device %d%s",
        gst_cuda_fx_context_get_device_id (owner),
        gst_cuda_fx_context_get_device_id (context),
        gst_cuda_fx_context_get_device_id (owner) ==
        gst_cuda_fx_context_get_device_id (context) ?
        " in another CUDA context" : ": elements of one chain must share a "
        "device (device-id)");
    return FALSE;
  }
  if (gst_cuda_fx_cuda_memory_get_handle (mem) ==
      gst_cuda_fx_context_get_handle (context))
    return TRUE;
  g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_DEVICE_ID,
      "A frame of GStreamer's CUDA memory from CUDA context %p reached an "
      "element running in CUDA context %p (device %d): the elements did "
      "not share their CUDA context", gst_cuda_fx_cuda_memory_get_handle (mem),
      gst_cuda_fx_context_get_handle (context),
      gst_cuda_fx_context_get_device_id (context));
  return FALSE;
}

/**
 * gst_cuda_fx_frame_map: (skip)
 * @frame: (out caller-allocates): the frame to fill
 * @info: the buffer's caps layout (its GstVideoMeta gives the real one)
 * @buffer: a buffer of device memory (one GstCudaFxMemory)
 * @flags: %GST_MAP_READ or %GST_MAP_WRITE
 * @context: (nullable): the device the caller runs on; a buffer of another
 *   device is refused
 * @stream: the stream that will read or write the frame
 *
 * Maps @buffer's frame with device addresses and makes @stream wait (on
 * the GPU, never the host) for the frame's last writer and, for a write,
 * every reader since. Enqueue the work on @stream, then call
 * gst_cuda_fx_frame_unmap().
 *
 * Returns: %FALSE with @error set when @buffer is not device memory of
 * @context's device, does not hold the frame, or the wait cannot be
 * enqueued.
 */
gboolean
gst_cuda_fx_frame_map (GstCudaFxFrame * frame, const GstVideoInfo * info,
    GstBuffer * buffer, GstMapFlags flags, GstCudaFxContext * context,
    cudaStream_t stream, GError ** error)
{
  GstMemory *mem;
  gboolean write = (flags & GST_MAP_WRITE) != 0;
  cudaError_t err;
  guint c;

  init_debug ();
  memset (frame, 0, sizeof (*frame));

  if (!gst_cuda_fx_buffer_is_device (buffer)) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_MEMORY,
        "Buffer %p does not hold device memory (%s%s)", buffer,
        GST_CUDA_FX_MEMORY_NAME, gst_cuda_fx_interop_available () ?
        " or CUDAMemory" : "");
    return FALSE;
  }
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!check_device (mem, context, error))
    return FALSE;
  if (!gst_video_frame_map (&frame->video, info, buffer,
          (write ? GST_MAP_WRITE : GST_MAP_READ) | GST_MAP_CUDA_FX)) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_MEMORY,
        "Buffer of %" G_GSIZE_FORMAT " bytes does not hold a %dx%d %s frame%s",
        gst_buffer_get_size (buffer), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info),
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
        write && !gst_buffer_is_writable (buffer) ? " (or is not writable)" :
        "");
    return FALSE;
  }
  /* the map may have replaced a shared memory by a copy: take it now */
  mem = gst_buffer_peek_memory (frame->video.buffer, 0);

  frame->stream = stream;
  frame->flags = write ? GST_MAP_WRITE : GST_MAP_READ;
  frame->context = context;
  frame->foreign = !gst_is_cuda_fx_memory (mem);
  frame->n_components = GST_VIDEO_FRAME_N_COMPONENTS (&frame->video);
  for (c = 0; c < frame->n_components; c++)
    frame->comp[c] = gst_cuda_fx_video_frame_component (&frame->video, c);

  /* GStreamer's CUDA memory: no events of ours. Its producer waited for
   * its work before pushing (1.22), or left it on its stream (1.24+),
   * which a reader (and a read-modify-write) waits for */
  if (frame->foreign)
    err = write && !(flags & GST_MAP_READ) ? cudaSuccess :
        gst_cuda_fx_interop_wait_for_memory (context, mem, stream);
  else
    err = gst_cuda_fx_sync_begin (gst_cuda_fx_memory_get_sync (mem), stream,
        write);
  if (err != cudaSuccess) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Ordering a CUDA stream after a frame's last users failed: %s (%s)",
        cudaGetErrorString (err), cudaGetErrorName (err));
    gst_video_frame_unmap (&frame->video);
    return FALSE;
  }
  GST_TRACE ("mapped %p for %s on stream %p", buffer,
      write ? "writing" : "reading", stream);
  return TRUE;
}

/* GStreamer's CUDA memory knows nothing of our events. A frame we wrote
 * is ordered on its own stream where it has one (1.24+); otherwise it must
 * be complete when its consumer gets it: the one host wait at this
 * boundary. A frame we read goes back to its producer's pool, which may
 * write it again: it stays alive until our reads are done (the context's
 * release thread waits, not the streaming thread). */
static cudaError_t
unmap_foreign (GstCudaFxFrame * frame, gboolean write)
{
  cudaError_t err;

  if (!frame->context)
    return cudaStreamSynchronize (frame->stream);
  if (write) {
    if (gst_cuda_fx_interop_order_write (frame->context,
            gst_buffer_peek_memory (frame->video.buffer, 0), frame->stream,
            &err))
      return err;
    GST_DEBUG ("host wait at the boundary: %p written on stream %p",
        frame->video.buffer, frame->stream);
    return gst_cuda_fx_context_wait_stream (frame->context, frame->stream);
  }
  return gst_cuda_fx_context_release_after (frame->context, frame->stream,
      gst_buffer_ref (frame->video.buffer)) ? cudaSuccess :
      cudaErrorUnknown;
}

/**
 * gst_cuda_fx_frame_unmap: (skip)
 *
 * Records the frame's use by its stream (a read, or a write that the next
 * users will wait for) and unmaps it. Call it after enqueueing the work,
 * also when enqueueing failed.
 *
 * Returns: the error of recording the event.
 */
cudaError_t
gst_cuda_fx_frame_unmap (GstCudaFxFrame * frame)
{
  GstMemory *mem = gst_buffer_peek_memory (frame->video.buffer, 0);
  gboolean write = (frame->flags & GST_MAP_WRITE) != 0;
  cudaError_t err = cudaSuccess;

  if (!frame->foreign)
    err = gst_cuda_fx_sync_end (gst_cuda_fx_memory_get_sync (mem),
        frame->stream, write);
  else
    err = unmap_foreign (frame, write);
  gst_video_frame_unmap (&frame->video);
  return err;
}

gboolean
gst_cuda_fx_buffer_write_pending (GstBuffer * buffer)
{
  g_return_val_if_fail (gst_is_cuda_fx_buffer (buffer), FALSE);

  return gst_cuda_fx_sync_write_pending (gst_cuda_fx_memory_get_sync
      (gst_buffer_peek_memory (buffer, 0)));
}

/* ---- copies ------------------------------------------------------------ */

/* @whole_rows: rows as long as both strides allow, padding included;
 * otherwise the bytes of the picture only */
static cudaError_t
copy_planes (void *dst_base[], const gint dst_stride[],
    void *const src_base[], const gint src_stride[],
    const GstVideoInfo * info, gboolean whole_rows, enum cudaMemcpyKind kind,
    cudaStream_t stream)
{
  cudaError_t err = cudaSuccess;
  guint p;

  for (p = 0; err == cudaSuccess && p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize row = whole_rows ? (gsize) MIN (dst_stride[p], src_stride[p]) :
        gst_cuda_fx_video_format_row_bytes (info->finfo, p,
        GST_VIDEO_INFO_WIDTH (info));

    err = cudaMemcpy2DAsync (dst_base[p], dst_stride[p], src_base[p],
        src_stride[p], row, gst_cuda_fx_video_info_plane_height (info, p),
        kind, stream);
  }
  return err;
}

/**
 * gst_cuda_fx_frame_upload: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaError_t
gst_cuda_fx_frame_upload (GstCudaFxFrame * dst, const GstVideoFrame * src)
{
  return copy_planes (dst->video.data, dst->video.info.stride, src->data,
      src->info.stride, &dst->video.info, FALSE, cudaMemcpyHostToDevice,
      dst->stream);
}

/**
 * gst_cuda_fx_frame_download: (skip)
 *
 * For C: takes or gives CUDA types. From our memory the rows' padding
 * comes along: allocations are zeroed and kernels write the picture only,
 * so a downloaded frame is the same bytes every time, whatever its buffer
 * held before (tested at width 17 through every element).
 */
cudaError_t
gst_cuda_fx_frame_download (GstVideoFrame * dst, const GstCudaFxFrame * src)
{
  return copy_planes (dst->data, dst->info.stride, src->video.data,
      src->video.info.stride, &src->video.info, !src->foreign,
      cudaMemcpyDeviceToHost, src->stream);
}

/**
 * gst_cuda_fx_frame_copy_plane: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaError_t
gst_cuda_fx_frame_copy_plane (GstCudaFxFrame * dst,
    const GstCudaFxFrame * src, guint plane)
{
  const GstVideoInfo *info = &src->video.info;

  return cudaMemcpy2DAsync (dst->video.data[plane],
      GST_VIDEO_FRAME_PLANE_STRIDE (&dst->video, plane),
      src->video.data[plane], GST_VIDEO_FRAME_PLANE_STRIDE (&src->video,
          plane), gst_cuda_fx_video_format_row_bytes (info->finfo, plane,
          GST_VIDEO_INFO_WIDTH (info)),
      gst_cuda_fx_video_info_plane_height (info, plane),
      cudaMemcpyDeviceToDevice, dst->stream);
}

/**
 * gst_cuda_fx_frame_copy_padding: (skip)
 *
 * For C: takes or gives CUDA types. Copies a row's samples beyond the
 * picture: component samples from the picture's width up to the width
 * rounded to whole pixel groups (only odd-width packed 4:2:2 has any: its
 * last pair's second luma).
 */
cudaError_t
gst_cuda_fx_frame_copy_padding (GstCudaFxFrame * dst,
    const GstCudaFxFrame * src)
{
  const GstVideoFormatInfo *finfo = src->video.info.finfo;
  gint width = GST_VIDEO_FRAME_WIDTH (&src->video);
  cudaError_t err = cudaSuccess;
  guint c;

  for (c = 0; err == cudaSuccess && c < src->n_components; c++) {
    gint x, padded = gst_cuda_fx_video_format_padded_samples (finfo, c, width);
    const GstCudaFxPlane *s = &src->comp[c], *d = &dst->comp[c];

    for (x = s->width; err == cudaSuccess && x < padded; x++)
      err = cudaMemcpy2DAsync (d->data + (gsize) x * d->step, d->pitch,
          s->data + (gsize) x * s->step, s->pitch, s->bytes, s->height,
          cudaMemcpyDeviceToDevice, dst->stream);
  }
  return err;
}
