/* gst-cudafx: pool of device frames (no cudaMalloc per frame). */
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

G_END_DECLS

#endif
