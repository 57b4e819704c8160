/* gst-cudafx: a per-channel estimate that the GPU measures on every frame
 * (a noise level, say), read back @lag frames later (gstcudafxreadback.h)
 * and smoothed by an exponential moving average. Frame k applies the
 * measurements of frames 0 to k - lag, so what a frame applies depends on
 * its index alone, never on how far the GPU ran behind the host; a
 * stream's first frame may measure itself and wait for it, once.
 * Internal to gst-cudafx (not installed). */
#ifndef __GST_CUDA_FX_ESTIMATE_H__
#define __GST_CUDA_FX_ESTIMATE_H__

#include "gstcudafxreadback.h"

G_BEGIN_DECLS

typedef struct _GstCudaFxEstimate GstCudaFxEstimate;

/* Turns one channel's measurement (a gint of the device; a channel with
 * nothing to measure gives a negative one, which is skipped) into the
 * value that is smoothed, >= 0 */
typedef gdouble (*GstCudaFxEstimateConvert) (gint measured);

/* An estimate of @n_channels channels, each frame's measurements
 * (@n_channels gints on the device) folded in @lag frames after it with
 * the weight @smoothing; made in @context, which must be current */
GstCudaFxEstimate *gst_cuda_fx_estimate_new (GstCudaFxContext * context,
    guint n_channels, guint lag, gdouble smoothing,
    GstCudaFxEstimateConvert convert, cudaError_t * err);
void gst_cuda_fx_estimate_free (GstCudaFxEstimate * estimate);
/* A new stream: no value, no frame */
void gst_cuda_fx_estimate_reset (GstCudaFxEstimate * estimate);

/* First call of each frame: folds in the measurements queued lag frames
 * before it, waiting only if their copy has not completed */
cudaError_t gst_cuda_fx_estimate_collect (GstCudaFxEstimate * estimate);
/* Whether a channel has no value yet and the stream has not measured a
 * frame with gst_cuda_fx_estimate_now(): then measure this one */
gboolean gst_cuda_fx_estimate_needs_now (GstCudaFxEstimate * estimate);
/* Takes this frame's measurements at @device, enqueued on @stream, as the
 * values (no smoothing), waiting for them */
cudaError_t gst_cuda_fx_estimate_now (GstCudaFxEstimate * estimate,
    gconstpointer device, cudaStream_t stream);
/* Last call of each frame: queues the copy of its measurements at
 * @device, enqueued on @stream, and counts the frame */
cudaError_t gst_cuda_fx_estimate_queue (GstCudaFxEstimate * estimate,
    gconstpointer device, cudaStream_t stream);

/* Channel @channel's smoothed value, 0 while it has none */
gdouble gst_cuda_fx_estimate_get (GstCudaFxEstimate * estimate, guint channel);
/* Frames queued since the reset */
guint64 gst_cuda_fx_estimate_get_frames (GstCudaFxEstimate * estimate);

G_END_DECLS

#endif
