/* gst-cudafx: pinned (page-locked) host memory, which the copy engine reads
 * and writes at full PCIe speed, and a video buffer pool made of it. */
#ifndef __GST_CUDA_FX_HOST_MEMORY_H__
#define __GST_CUDA_FX_HOST_MEMORY_H__

#include <gst/video/video.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

#define GST_CUDA_FX_HOST_MEMORY_NAME "CUDAFxHostMemory"

#define GST_TYPE_CUDA_FX_HOST_ALLOCATOR (gst_cuda_fx_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxHostAllocator, gst_cuda_fx_host_allocator,
    GST, CUDA_FX_HOST_ALLOCATOR, GstAllocator);

GstAllocator *gst_cuda_fx_host_allocator_get (void);
gboolean gst_is_cuda_fx_host_memory (GstMemory * mem);

/* Whether @mem is page-locked: ours, or memory someone else pinned (the
 * copy engine reads it directly; from pageable memory a copy has taken
 * the bytes before it returns) */
gboolean gst_cuda_fx_memory_is_pinned (GstMemory * mem);

/* Pins (cudaHostRegister) system memory that comes back: the second time
 * @mem is seen here (a pool's memory, or one frame pushed again and again)
 * its pages are registered, for as long as @mem lives, and TRUE is
 * returned; FALSE for memory seen once (a new allocation every frame, as
 * filesrc's, is cheaper to copy than to register) or that cannot be
 * registered. @context is made current to unregister it. */
gboolean gst_cuda_fx_memory_pin_recurring (GstMemory * mem,
    GstCudaFxContext * context);

/* A GstVideoBufferPool of pinned frames, configured for @caps */
GstBufferPool *gst_cuda_fx_host_buffer_pool_new (GstCaps * caps,
    guint min_buffers, guint max_buffers);

G_END_DECLS

#endif
