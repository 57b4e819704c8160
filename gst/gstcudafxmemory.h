/* gst-cudafx: device memory. One pitched allocation per video frame, with
 * the written/read event protocol that lets elements on different CUDA
 * streams share frames without the host waiting. */
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

gint gst_cuda_fx_video_info_plane_height (const GstVideoInfo * info,
    guint plane);
gboolean gst_cuda_fx_video_info_to_device (const GstVideoInfo * info,
    GstVideoInfo * device_info);

GstMemory *gst_cuda_fx_allocator_alloc_video (GstCudaFxContext * context,
    const GstVideoInfo * info, GError ** error);

gboolean gst_is_cuda_fx_memory (GstMemory * mem);

GstCudaFxContext *gst_cuda_fx_memory_get_context (GstMemory * mem);
const GstVideoInfo *gst_cuda_fx_memory_get_video_info (GstMemory * mem);
gpointer gst_cuda_fx_memory_get_device_pointer (GstMemory * mem);

/* The synchronisation protocol. A reader: begin_read (its stream waits for
 * the last writer), enqueue the reads, end_read (records its read event).
 * A writer: begin_write (waits for the last writer and every reader since),
 * enqueue the writes, end_write. None of these blocks the host. */
cudaError_t gst_cuda_fx_memory_begin_read (GstMemory * mem,
    cudaStream_t stream);
cudaError_t gst_cuda_fx_memory_end_read (GstMemory * mem,
    cudaStream_t stream);
cudaError_t gst_cuda_fx_memory_begin_write (GstMemory * mem,
    cudaStream_t stream);
cudaError_t gst_cuda_fx_memory_end_write (GstMemory * mem,
    cudaStream_t stream);

/* TRUE while the last write enqueued on the memory has not completed on
 * the GPU (never waits) */
gboolean gst_cuda_fx_memory_write_pending (GstMemory * mem);

/* Device buffers hold exactly one such memory */
gboolean gst_is_cuda_fx_buffer (GstBuffer * buffer);
cudaError_t gst_cuda_fx_buffer_begin_read (GstBuffer * buffer,
    cudaStream_t stream);
cudaError_t gst_cuda_fx_buffer_end_read (GstBuffer * buffer,
    cudaStream_t stream);
cudaError_t gst_cuda_fx_buffer_begin_write (GstBuffer * buffer,
    cudaStream_t stream);
cudaError_t gst_cuda_fx_buffer_end_write (GstBuffer * buffer,
    cudaStream_t stream);

G_END_DECLS

#endif
