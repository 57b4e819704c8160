/* gst-cudafx: the event protocol of one device allocation. Internal to
 * libgstcudafx-1.0 (not installed): the memory owns one per allocation,
 * the frame layer applies it, nothing else touches its events.
 *
 *   - written: recorded by the last writer on its stream;
 *   - reads: one event per stream that read it since, recorded there.
 *
 * A reader's stream waits for written; a writer's stream waits for
 * written and every read. Waits are cudaStreamWaitEvent: the host never
 * blocks. */
#ifndef __GST_CUDA_FX_SYNC_H__
#define __GST_CUDA_FX_SYNC_H__

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

typedef struct _GstCudaFxSync GstCudaFxSync;

GstCudaFxSync *gst_cuda_fx_sync_new (GstCudaFxContext * context);
void gst_cuda_fx_sync_free (GstCudaFxSync * sync);

/* Orders @stream after the last writer (and, @write, every reader) */
cudaError_t gst_cuda_fx_sync_begin (GstCudaFxSync * sync, cudaStream_t stream,
    gboolean write);
/* Records @stream's read, or its write (which supersedes every read) */
cudaError_t gst_cuda_fx_sync_end (GstCudaFxSync * sync, cudaStream_t stream,
    gboolean write);
/* Whether the last write has not completed on the GPU (never waits) */
gboolean gst_cuda_fx_sync_write_pending (GstCudaFxSync * sync);

G_END_DECLS

#endif
