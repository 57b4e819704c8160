/* gst-cudafx: the second door, GStreamer's own CUDA library
 * (gst-plugins-bad's libgstcuda-1.0, what nvcodec's decoders, encoders and
 * filters use). Loaded at run time where it is installed: then our
 * elements also accept and produce `memory:CUDAMemory` and share one CUDA
 * context with nvcodec's elements through `gst.cuda.context`. Without it
 * nothing here is offered, and nothing else changes. */
#ifndef __GST_CUDA_FX_INTEROP_H__
#define __GST_CUDA_FX_INTEROP_H__

#include <gst/gst.h>
#include <cuda_runtime_api.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

/* The caps feature and context type of GStreamer's CUDA library */
#define GST_CAPS_FEATURE_MEMORY_CUDA "memory:CUDAMemory"
#define GST_CUDA_FX_INTEROP_CONTEXT_TYPE "gst.cuda.context"

/* Whether GStreamer's CUDA library is there and found the CUDA driver (the
 * environment variable
 * GST_CUDA_FX_NO_INTEROP=1 hides it, as if it were not installed) */
gboolean gst_cuda_fx_interop_available (void);
/* Its version: 1.22 has no stream API (producers wait for their own work
 * before they push a buffer); 1.24 and later have one */
gboolean gst_cuda_fx_interop_has_streams (void);

/* Whether @mem is GStreamer's CUDA memory */
gboolean gst_cuda_fx_is_cuda_memory (GstMemory * mem);

/* The CUDA context (CUcontext) a memory or a pool of GStreamer's CUDA
 * library lives in; NULL if it is not one */
gpointer gst_cuda_fx_cuda_memory_get_handle (GstMemory * mem);

/* Context sharing (used by gstcudafxcontext.c's element helpers): a
 * gst.cuda.context set on an element or answered by a neighbour gives the
 * context of ours that runs in the same CUDA context (adopting it if it is
 * not the primary one); queries for gst.cuda.context are answered with a
 * GstCudaContext of gst-plugins-bad wrapping ours. */
gboolean gst_cuda_fx_interop_context_from (GstElement * element,
    GstContext * context, gint device_id, GstCudaFxContext ** cuda_ctx);
gboolean gst_cuda_fx_interop_handle_context_query (GstElement * element,
    GstQuery * query, GstCudaFxContext * cuda_ctx);
GstContext *gst_cuda_fx_interop_context_new (GstCudaFxContext * cuda_ctx);

/* A pool of GStreamer's CUDA memory in @cuda_ctx's CUDA context, and
 * whether @pool is one */
GstBufferPool *gst_cuda_fx_interop_pool_new (GstCudaFxContext * cuda_ctx);
gboolean gst_cuda_fx_interop_is_pool (GstBufferPool * pool,
    GstCudaFxContext * cuda_ctx);

/* 1.24 and later: makes @stream wait, on the GPU, for the work the
 * producer of @mem enqueued on its stream. Nothing to do on 1.22. */
cudaError_t gst_cuda_fx_interop_wait_for_memory (GstCudaFxContext * cuda_ctx,
    GstMemory * mem, cudaStream_t stream);

/* 1.24 and later: gives the frames of @pool (GStreamer's CUDA pool) a
 * stream, where @config has none. Nothing to do on 1.22 or for our pools. */
void gst_cuda_fx_interop_pool_config_add_stream (GstBufferPool * pool,
    GstStructure * config);

/* 1.24 and later: where @mem (GStreamer's CUDA memory we wrote on @stream)
 * has a stream, makes that stream wait on the GPU for our writes, sets
 * @err and returns TRUE; FALSE where the consumer needs a finished frame
 * (1.22, or memory without a stream). */
gboolean gst_cuda_fx_interop_order_write (GstCudaFxContext * cuda_ctx,
    GstMemory * mem, cudaStream_t stream, cudaError_t * err);

G_END_DECLS

#endif
