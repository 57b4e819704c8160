/* gst-cudafx: device memory. One pitched allocation per video frame, from
 * the context's memory pool. Shared (gst_buffer_copy) by reference, copied
 * (a write to a shared one) on the GPU; the frame layer
 * (gstcudafxframe.h) orders its users. */
#ifndef __GST_CUDA_FX_MEMORY_H__
#define __GST_CUDA_FX_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

#define GST_CUDA_FX_MEMORY_NAME "CUDAFxMemory"

/* With GST_MAP_READ/WRITE: map the device address, no copy. Without it a
 * map gives a host copy (a pinned mirror). */
#define GST_MAP_CUDA_FX (GST_MAP_FLAG_LAST << 1)

/* Row pitch alignment of device planes: keeps 16-byte vector loads aligned */
#define GST_CUDA_FX_PITCH_ALIGN 256

typedef struct _GstCudaFxMemory GstCudaFxMemory;

#define GST_TYPE_CUDA_FX_ALLOCATOR (gst_cuda_fx_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxAllocator, gst_cuda_fx_allocator, GST,
    CUDA_FX_ALLOCATOR, GstAllocator);

GstAllocator *gst_cuda_fx_allocator_get (void);

gboolean gst_cuda_fx_video_info_to_device (const GstVideoInfo * info,
    GstVideoInfo * device_info);

GstMemory *gst_cuda_fx_allocator_alloc_video (GstCudaFxContext * context,
    const GstVideoInfo * info, GError ** error);

gboolean gst_is_cuda_fx_memory (GstMemory * mem);

GstCudaFxContext *gst_cuda_fx_memory_get_context (GstMemory * mem);
const GstVideoInfo *gst_cuda_fx_memory_get_video_info (GstMemory * mem);
gpointer gst_cuda_fx_memory_get_device_pointer (GstMemory * mem);

/* Device buffers hold exactly one such memory; reach their frames with
 * gst_cuda_fx_frame_map() (gstcudafxframe.h), which orders the streams */
gboolean gst_is_cuda_fx_buffer (GstBuffer * buffer);

/* Device memory of @context's frame pool: bytes in frames now, bytes the
 * pool holds (freed frames are kept for reuse). FALSE without a pool
 * (devices without memory pools allocate each frame). */
gboolean gst_cuda_fx_context_get_memory_stats (GstCudaFxContext * context,
    guint64 * in_use, guint64 * reserved);
/* Gives the device back what the context's pool keeps of freed frames */
gboolean gst_cuda_fx_context_release_unused_memory (GstCudaFxContext *
    context);

/* Device copies of frames made since the process started (a write to
 * shared memory, a deep copy): what a zero-copy path leaves at 0 */
guint64 gst_cuda_fx_memory_get_copy_count (void);

G_END_DECLS

#endif
