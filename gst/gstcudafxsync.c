/* gst-cudafx: the event protocol that orders the CUDA streams of every
 * user of one device allocation (gstcudafxsync.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxsync.h"

typedef struct
{
  cudaStream_t stream;
  cudaEvent_t event;
} ReadMark;

struct _GstCudaFxSync
{
  GstCudaFxContext *context;
  GMutex lock;
  cudaEvent_t written;          /* NULL until the first write */
  GArray *reads;                /* ReadMark: one per stream read since */
};

GstCudaFxSync *
gst_cuda_fx_sync_new (GstCudaFxContext * context)
{
  GstCudaFxSync *sync = g_new0 (GstCudaFxSync, 1);

  sync->context = gst_object_ref (context);
  g_mutex_init (&sync->lock);
  sync->reads = g_array_new (FALSE, FALSE, sizeof (ReadMark));
  return sync;
}

static void
clear_reads (GstCudaFxSync * sync)
{
  guint i;

  for (i = 0; i < sync->reads->len; i++)
    gst_cuda_fx_context_release_event (sync->context,
        g_array_index (sync->reads, ReadMark, i).event);
  g_array_set_size (sync->reads, 0);
}

/* Events go back to the context's pool even if still pending: whoever
 * must wait for them has enqueued the wait already (a wait captures the
 * event's state when it is enqueued). */
void
gst_cuda_fx_sync_free (GstCudaFxSync * sync)
{
  clear_reads (sync);
  g_array_unref (sync->reads);
  gst_cuda_fx_context_release_event (sync->context, sync->written);
  g_mutex_clear (&sync->lock);
  gst_object_unref (sync->context);
  g_free (sync);
}

cudaError_t
gst_cuda_fx_sync_begin (GstCudaFxSync * sync, cudaStream_t stream,
    gboolean write)
{
  cudaError_t err = cudaSuccess;
  guint i;

  g_mutex_lock (&sync->lock);
  if (sync->written)
    err = cudaStreamWaitEvent (stream, sync->written, 0);
  for (i = 0; write && err == cudaSuccess && i < sync->reads->len; i++) {
    ReadMark *mark = &g_array_index (sync->reads, ReadMark, i);

    /* a stream's own earlier reads are ordered by the stream */
    if (mark->stream != stream)
      err = cudaStreamWaitEvent (stream, mark->event, 0);
  }
  g_mutex_unlock (&sync->lock);
  return err;
}

static cudaError_t
record_read (GstCudaFxSync * sync, cudaStream_t stream)
{
  ReadMark *mark = NULL, fresh;
  guint i;

  for (i = 0; i < sync->reads->len && !mark; i++)
    if (g_array_index (sync->reads, ReadMark, i).stream == stream)
      mark = &g_array_index (sync->reads, ReadMark, i);
  if (!mark) {
    fresh.stream = stream;
    fresh.event = gst_cuda_fx_context_acquire_event (sync->context);
    if (!fresh.event)
      return cudaErrorMemoryAllocation;
    g_array_append_val (sync->reads, fresh);
    mark = &g_array_index (sync->reads, ReadMark, sync->reads->len - 1);
  }
  return cudaEventRecord (mark->event, stream);
}

static cudaError_t
record_write (GstCudaFxSync * sync, cudaStream_t stream)
{
  cudaError_t err;

  if (!sync->written) {
    sync->written = gst_cuda_fx_context_acquire_event (sync->context);
    if (!sync->written)
      return cudaErrorMemoryAllocation;
  }
  err = cudaEventRecord (sync->written, stream);
  /* begin (write) ordered every earlier read before this write */
  if (err == cudaSuccess)
    clear_reads (sync);
  return err;
}

cudaError_t
gst_cuda_fx_sync_end (GstCudaFxSync * sync, cudaStream_t stream,
    gboolean write)
{
  cudaError_t err;

  g_mutex_lock (&sync->lock);
  err = write ? record_write (sync, stream) : record_read (sync, stream);
  g_mutex_unlock (&sync->lock);
  return err;
}

gboolean
gst_cuda_fx_sync_write_pending (GstCudaFxSync * sync)
{
  gboolean pending;

  g_mutex_lock (&sync->lock);
  pending = sync->written && cudaEventQuery (sync->written) ==
      cudaErrorNotReady;
  g_mutex_unlock (&sync->lock);
  /* cudaErrorNotReady is not sticky, but clear it for later checks */
  cudaGetLastError ();
  return pending;
}
