/* gst-cudafx: pool of device frames (no cudaMalloc per frame), and the
 * pool policies of the allocation queries. */
#ifndef __GST_CUDA_FX_BUFFER_POOL_H__
#define __GST_CUDA_FX_BUFFER_POOL_H__

#include <gst/video/video.h>
#include "gstcudafxcontext.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_BUFFER_POOL (gst_cuda_fx_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxBufferPool, gst_cuda_fx_buffer_pool, GST,
    CUDA_FX_BUFFER_POOL, GstBufferPool);

GstBufferPool *gst_cuda_fx_buffer_pool_new (GstCudaFxContext * context);
GstCudaFxContext *gst_cuda_fx_buffer_pool_get_context (GstBufferPool * pool);
gchar *gst_cuda_fx_buffer_pool_take_error (GstBufferPool * pool);

/* Pool policies of the allocation queries, for every element of ours: a
 * pool of the device memory the caps ask for (ours, or GStreamer's CUDA
 * memory for nvcodec's elements), offered upstream with @min_buffers, or
 * chosen for downstream (its own where it is one of @context's CUDA
 * context); errors are posted on @element, saying what ran out. */
GstBufferPool *gst_cuda_fx_device_pool_new (GstCudaFxContext * context,
    GstCaps * caps, guint min_buffers, guint max_buffers);
gboolean gst_cuda_fx_device_pool_propose (GstCudaFxContext * context,
    GstQuery * query, guint min_buffers);
gboolean gst_cuda_fx_device_pool_decide (GstElement * element,
    GstCudaFxContext * context, GstQuery * query,
    const GstVideoInfo * out_info);
void gst_cuda_fx_device_pool_post_error (GstElement * element,
    GstBufferPool * pool, const gchar * what, const GstVideoInfo * info,
    GstCudaFxContext * context);

G_END_DECLS

#endif
