/* gst-cudafx: the one way to reach a frame in device memory.
 *
 * gst_cuda_fx_frame_map() turns a buffer of device memory into a
 * description of its components (GstCudaFxPlane, what every kernel takes)
 * and orders the caller's CUDA stream after the frame's last users;
 * gst_cuda_fx_frame_unmap() records the stream's use, so that the next
 * user waits for it. Nothing else in the project touches the events that
 * carry this order, and the host never waits on them. */
#ifndef __GST_CUDA_FX_FRAME_H__
#define __GST_CUDA_FX_FRAME_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "gstcudafxcontext.h"
#include "gstcudafxformat.h"
#include "gstcudafxplane.h"

G_BEGIN_DECLS

/**
 * GstCudaFxFrame:
 * @video: the frame mapped with device addresses (%GST_MAP_CUDA_FX): its
 *   info, flags, buffer and plane pointers
 * @n_components: components of the format (1 for GRAY8, 3 for YUV)
 * @comp: each component as the kernels take it, in GstVideoFormatInfo's
 *   component order (Y, U, V)
 *
 * A device frame mapped for one CUDA stream.
 */
typedef struct _GstCudaFxFrame
{
  GstVideoFrame video;
  guint n_components;
  GstCudaFxPlane comp[GST_VIDEO_MAX_COMPONENTS];

  /*< private > */
  cudaStream_t stream;
  GstMapFlags flags;
  GstCudaFxContext *context;
  gboolean foreign;             /* GStreamer's CUDA memory */
  gpointer _gst_reserved[GST_PADDING];
} GstCudaFxFrame;

gboolean gst_cuda_fx_frame_map (GstCudaFxFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GstCudaFxContext * context, cudaStream_t stream, GError ** error);
cudaError_t gst_cuda_fx_frame_unmap (GstCudaFxFrame * frame);

/* Copies between a device frame and a system-memory frame of the same
 * format and size, enqueued on the device frame's stream (no host wait) */
cudaError_t gst_cuda_fx_frame_upload (GstCudaFxFrame * dst,
    const GstVideoFrame * src);
cudaError_t gst_cuda_fx_frame_download (GstVideoFrame * dst,
    const GstCudaFxFrame * src);

/* Device copies on @dst's stream: plane @plane of @src, or (padding) the
 * bytes of @src's rows outside the picture (the last pair's second luma
 * of odd-width UYVY and YUY2). Elements leave padding to the base class,
 * which copies it from the input whenever the formats are equal. */
cudaError_t gst_cuda_fx_frame_copy_plane (GstCudaFxFrame * dst,
    const GstCudaFxFrame * src, guint plane);
cudaError_t gst_cuda_fx_frame_copy_padding (GstCudaFxFrame * dst,
    const GstCudaFxFrame * src);

/* Whether @buffer holds device memory that gst_cuda_fx_frame_map() takes:
 * ours, or GStreamer's CUDA memory where that library is loaded */
gboolean gst_cuda_fx_buffer_is_device (GstBuffer * buffer);

/* Whether @buffer's memory has a write enqueued that the GPU has not
 * finished (never waits; for tests and diagnostics) */
gboolean gst_cuda_fx_buffer_write_pending (GstBuffer * buffer);

G_END_DECLS

#endif
