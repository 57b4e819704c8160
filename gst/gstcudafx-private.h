/* gst-cudafx: declarations shared between the files of libgstcudafx-1.0
 * only (not installed). */
#ifndef __GST_CUDA_FX_PRIVATE_H__
#define __GST_CUDA_FX_PRIVATE_H__

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

/* The event protocol of one device allocation (gstcudafxframe.c):
 *   - written: recorded by the last writer on its stream;
 *   - reads: one event per stream that read it since, recorded there.
 * A reader's stream waits for written; a writer's stream waits for
 * written and every read. Waits are cudaStreamWaitEvent: the host never
 * blocks. */
typedef struct _GstCudaFxSync GstCudaFxSync;

GstCudaFxSync *gst_cuda_fx_sync_new (GstCudaFxContext * context);
void gst_cuda_fx_sync_free (GstCudaFxSync * sync);

/* Orders @stream after the last writer (and, @write, every reader) */
cudaError_t gst_cuda_fx_sync_begin (GstCudaFxSync * sync, cudaStream_t stream,
    gboolean write);
/* Records @stream's read, or its write (which supersedes every read) */
cudaError_t gst_cuda_fx_sync_end (GstCudaFxSync * sync, cudaStream_t stream,
    gboolean write);
gboolean gst_cuda_fx_sync_write_pending (GstCudaFxSync * sync);

/* Device memory internals (gstcudafxmemory.c) */
GstCudaFxSync *gst_cuda_fx_memory_get_sync (GstMemory * mem);

/* Device allocations of a context (gstcudafxcontext.c): stream-ordered,
 * from the context's memory pool, never a device-wide wait. The memory
 * (zeroed with @zero) is ready once the write alloc records in @sync has
 * completed; free releases it after the work @sync orders. */
cudaError_t gst_cuda_fx_context_alloc (GstCudaFxContext * context,
    gsize size, gboolean zero, gpointer * ptr, GstCudaFxSync * sync);
void gst_cuda_fx_context_free (GstCudaFxContext * context, gpointer ptr,
    GstCudaFxSync * sync);

/* Contexts of GStreamer's CUDA library (gstcudafxcontext.c) */
GstCudaFxContext *gst_cuda_fx_context_adopt (gpointer cu_context,
    gint device_id, GstObject * interop_context, GError ** error);
GstObject *gst_cuda_fx_context_get_interop (GstCudaFxContext * context);
void gst_cuda_fx_context_set_interop (GstCudaFxContext * context,
    GstObject * interop_context);

G_END_DECLS

#endif
