/* gst-cudafx: asynchronous readbacks of small device results
 * (gstcudafxreadback.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxreadback.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_readback_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_readback_debug

struct _GstCudaFxReadback
{
  GstCudaFxContext *context;
  gsize slot_bytes;
  guint lag;
  /* pinned: lag + 1 slots, the last one for readback_now */
  guint8 *host;
  /* blocking sync: a host that runs ahead of a busy GPU waits for a
   * result asleep, not spinning a core */
  cudaEvent_t *events;
  gboolean *pending;
};

GstCudaFxReadback *
gst_cuda_fx_readback_new (GstCudaFxContext * context, gsize slot_bytes,
    guint lag, cudaError_t * err)
{
  GstCudaFxReadback *self;
  guint i;

  g_return_val_if_fail (lag > 0, NULL);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_readback_debug, "cudafxreadback", 0,
      "gst-cudafx device result readbacks");
  self = g_new0 (GstCudaFxReadback, 1);
  self->context = gst_object_ref (context);
  self->slot_bytes = slot_bytes;
  self->lag = lag;
  self->events = g_new0 (cudaEvent_t, lag + 1);
  self->pending = g_new0 (gboolean, lag);
  *err = cudaHostAlloc ((void **) &self->host, (lag + 1) * slot_bytes,
      cudaHostAllocDefault);
  for (i = 0; *err == cudaSuccess && i < lag + 1; i++)
    *err = cudaEventCreateWithFlags (&self->events[i],
        cudaEventDisableTiming | cudaEventBlockingSync);
  if (*err != cudaSuccess) {
    gst_cuda_fx_readback_free (self);
    return NULL;
  }
  return self;
}

/* cudaFreeHost waits for the copies that still write the slots */
void
gst_cuda_fx_readback_free (GstCudaFxReadback * self)
{
  guint i;

  if (!self)
    return;
  gst_cuda_fx_context_make_current (self->context);
  for (i = 0; i < self->lag + 1; i++)
    if (self->events[i])
      cudaEventDestroy (self->events[i]);
  if (self->host)
    cudaFreeHost (self->host);
  g_free (self->events);
  g_free (self->pending);
  gst_object_unref (self->context);
  g_free (self);
}

void
gst_cuda_fx_readback_reset (GstCudaFxReadback * self)
{
  memset (self->pending, 0, self->lag * sizeof (gboolean));
}

cudaError_t
gst_cuda_fx_readback_queue (GstCudaFxReadback * self, guint64 frame,
    gconstpointer device, gsize bytes, cudaStream_t stream)
{
  guint slot = frame % self->lag;
  cudaError_t err;

  g_return_val_if_fail (!self->pending[slot], cudaErrorInvalidValue);
  g_return_val_if_fail (bytes <= self->slot_bytes, cudaErrorInvalidValue);
  err = cudaMemcpyAsync (self->host + slot * self->slot_bytes, device, bytes,
      cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (self->events[slot], stream);
  if (err == cudaSuccess)
    self->pending[slot] = TRUE;
  return err;
}

cudaError_t
gst_cuda_fx_readback_collect (GstCudaFxReadback * self, guint64 frame,
    gconstpointer * host)
{
  guint slot = frame % self->lag;
  cudaError_t err;

  *host = NULL;
  if (frame < self->lag || !self->pending[slot])
    return cudaSuccess;
  err = cudaEventQuery (self->events[slot]);
  if (err == cudaErrorNotReady) {
    (void) cudaGetLastError ();   /* not an error: not for the launch check */
    GST_LOG ("readback of frame %" G_GUINT64_FORMAT " is late",
        frame - self->lag);
    err = cudaEventSynchronize (self->events[slot]);
  }
  if (err != cudaSuccess)
    return err;
  self->pending[slot] = FALSE;
  *host = self->host + slot * self->slot_bytes;
  return cudaSuccess;
}

cudaError_t
gst_cuda_fx_readback_now (GstCudaFxReadback * self, gconstpointer device,
    gsize bytes, cudaStream_t stream, gconstpointer * host)
{
  guint8 *slot = self->host + self->lag * self->slot_bytes;
  cudaEvent_t event = self->events[self->lag];
  cudaError_t err;

  *host = NULL;
  g_return_val_if_fail (bytes <= self->slot_bytes, cudaErrorInvalidValue);
  err = cudaMemcpyAsync (slot, device, bytes, cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (event, stream);
  if (err == cudaSuccess)
    err = cudaEventSynchronize (event);
  if (err == cudaSuccess)
    *host = slot;
  return err;
}
