/* gst-cudafx: small results read back from the device without stalling
 * the stream: a ring of pinned host slots, one per frame in flight, each
 * filled by a copy queued on the element's stream and read @lag frames
 * later, when it has long completed. A wait that does happen sleeps. */
#ifndef __GST_CUDA_FX_READBACK_H__
#define __GST_CUDA_FX_READBACK_H__

#include <gst/gst.h>
#include <cuda_runtime_api.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

typedef struct _GstCudaFxReadback GstCudaFxReadback;

/* @slot_bytes a frame, read @lag frames after it was queued; made in
 * @context, which must be current */
GstCudaFxReadback *gst_cuda_fx_readback_new (GstCudaFxContext * context,
    gsize slot_bytes, guint lag, cudaError_t * err);
void gst_cuda_fx_readback_free (GstCudaFxReadback * readback);

/* Queues the copy of @bytes at @device for frame @frame on @stream. Frame
 * @frame - lag's slot must have been collected. */
cudaError_t gst_cuda_fx_readback_queue (GstCudaFxReadback * readback,
    guint64 frame, gconstpointer device, gsize bytes, cudaStream_t stream);
/* The bytes queued for frame @frame - lag, in @host (NULL where nothing was
 * queued for it), waiting only if that copy has not completed */
cudaError_t gst_cuda_fx_readback_collect (GstCudaFxReadback * readback,
    guint64 frame, gconstpointer * host);
/* Reads @bytes at @device now: queued on @stream and waited for (once,
 * where a result is needed before anything can go on) */
cudaError_t gst_cuda_fx_readback_now (GstCudaFxReadback * readback,
    gconstpointer device, gsize bytes, cudaStream_t stream,
    gconstpointer * host);
/* Forgets every copy queued (a new stream starts) */
void gst_cuda_fx_readback_reset (GstCudaFxReadback * readback);

G_END_DECLS

#endif
