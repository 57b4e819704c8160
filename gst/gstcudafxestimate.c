/* gst-cudafx: lagged, smoothed per-channel estimates (gstcudafxestimate.h).
 * The host logic only: the copies and their waits are the readback's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxestimate.h"

struct _GstCudaFxEstimate
{
  GstCudaFxReadback *readback;  /* each frame's measurements */
  GstCudaFxEstimateConvert convert;
  guint n_channels;
  gdouble smoothing;            /* weight of a new frame's measurement */
  gdouble *values;              /* < 0: none yet */
  gboolean measured_now;        /* the one waited-for measurement is done */
  guint64 frames;               /* queued since the reset */
};

GstCudaFxEstimate *
gst_cuda_fx_estimate_new (GstCudaFxContext * context, guint n_channels,
    guint lag, gdouble smoothing, GstCudaFxEstimateConvert convert,
    cudaError_t * err)
{
  GstCudaFxEstimate *self;

  g_return_val_if_fail (n_channels > 0 && convert != NULL, NULL);
  self = g_new0 (GstCudaFxEstimate, 1);
  self->readback = gst_cuda_fx_readback_new (context,
      n_channels * sizeof (gint), lag, err);
  if (!self->readback) {
    g_free (self);
    return NULL;
  }
  self->convert = convert;
  self->n_channels = n_channels;
  self->smoothing = smoothing;
  self->values = g_new (gdouble, n_channels);
  gst_cuda_fx_estimate_reset (self);
  return self;
}

/* (cudaFreeHost waits for the copies still queued) */
void
gst_cuda_fx_estimate_free (GstCudaFxEstimate * self)
{
  if (!self)
    return;
  gst_cuda_fx_readback_free (self->readback);
  g_free (self->values);
  g_free (self);
}

void
gst_cuda_fx_estimate_reset (GstCudaFxEstimate * self)
{
  guint c;

  for (c = 0; c < self->n_channels; c++)
    self->values[c] = -1.0;
  gst_cuda_fx_readback_reset (self->readback);
  self->measured_now = FALSE;
  self->frames = 0;
}

static void
fold (GstCudaFxEstimate * self, const gint * measured, gboolean first)
{
  guint c;

  for (c = 0; c < self->n_channels; c++) {
    gdouble v;

    if (measured[c] < 0)
      continue;                 /* nothing measured: keep what we had */
    v = self->convert (measured[c]);
    if (first || self->values[c] < 0.0)
      self->values[c] = v;
    else
      self->values[c] += self->smoothing * (v - self->values[c]);
  }
}

cudaError_t
gst_cuda_fx_estimate_collect (GstCudaFxEstimate * self)
{
  gconstpointer measured;
  cudaError_t err;

  err = gst_cuda_fx_readback_collect (self->readback, self->frames, &measured);
  if (err == cudaSuccess && measured)
    fold (self, measured, FALSE);
  return err;
}

/* (once every channel has a value, none loses it before the reset) */
gboolean
gst_cuda_fx_estimate_needs_now (GstCudaFxEstimate * self)
{
  guint c;

  for (c = 0; !self->measured_now && c < self->n_channels; c++)
    if (self->values[c] < 0.0)
      return TRUE;
  return FALSE;
}

cudaError_t
gst_cuda_fx_estimate_now (GstCudaFxEstimate * self, gconstpointer device,
    cudaStream_t stream)
{
  gconstpointer measured;
  cudaError_t err;

  err = gst_cuda_fx_readback_now (self->readback, device,
      self->n_channels * sizeof (gint), stream, &measured);
  if (err != cudaSuccess)
    return err;
  fold (self, measured, TRUE);
  self->measured_now = TRUE;
  return cudaSuccess;
}

cudaError_t
gst_cuda_fx_estimate_queue (GstCudaFxEstimate * self, gconstpointer device,
    cudaStream_t stream)
{
  cudaError_t err;

  err = gst_cuda_fx_readback_queue (self->readback, self->frames, device,
      self->n_channels * sizeof (gint), stream);
  if (err == cudaSuccess)
    self->frames++;
  return err;
}

gdouble
gst_cuda_fx_estimate_get (GstCudaFxEstimate * self, guint channel)
{
  g_return_val_if_fail (channel < self->n_channels, 0.0);
  return MAX (self->values[channel], 0.0);
}

guint64
gst_cuda_fx_estimate_get_frames (GstCudaFxEstimate * self)
{
  return self->frames;
}
