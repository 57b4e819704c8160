/* gst-cudafx: pinned staging for frames in pageable memory (see the
 * header). One streaming thread uses a staging at a time: the part of the
 * copy in progress lives in the staging itself. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudafxstaging.h"
#include "gstcudafxframe.h"
#include "gstcudafxhostmemory.h"

/* frames in the pool: the one being copied, those whose upload is still
 * running, and one more */
#define STAGING_BUFFERS 4
/* below this many bytes a frame is copied by the calling thread alone:
 * waking the others costs more than it saves */
#define STAGING_SPLIT_BYTES (1 << 20)
/* threads by default: half the cores, at most this many (the pageable
 * upload table of docs/performance.md: on the H100 host one thread alone
 * reaches about a fifth of the link's speed, and the rate grows slower
 * than the count) */
#define STAGING_MAX_AUTO_THREADS 6

struct _GstCudaFxStaging
{
  GstBufferPool *pool;
  GstVideoInfo info;
  guint threads;
  GThread **workers;            /* threads - 1 of them */

  /* the copy in progress, published by a new generation */
  const GstVideoFrame *src;
  GstVideoFrame *dst;
  gboolean whole;
  gint generation;
  gint parts_left;
  gboolean quit;
  GMutex lock;
  GCond wake;                   /* a new generation, or quit */
  GCond done;                   /* parts_left reached 0 */
};

typedef struct
{
  GstCudaFxStaging *staging;
  guint part;
} Worker;

guint
gst_cuda_fx_staging_threads (guint threads)
{
  if (threads == 0)
    threads = CLAMP (g_get_num_processors () / 2, 1, STAGING_MAX_AUTO_THREADS);
  return threads;
}

/* Whether @src is laid out as @dst (one memory, the same offsets and
 * strides): then the frame is one block of bytes */
static gboolean
same_layout (const GstVideoFrame * src, const GstVideoFrame * dst)
{
  guint p;

  if (gst_buffer_n_memory (src->buffer) != 1
      || src->map[0].size < GST_VIDEO_INFO_SIZE (&dst->info))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (dst); p++)
    if (GST_VIDEO_FRAME_PLANE_STRIDE (src, p) !=
        GST_VIDEO_FRAME_PLANE_STRIDE (dst, p)
        || (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (src, p) -
        (guint8 *) src->map[0].data != (gssize) GST_VIDEO_INFO_PLANE_OFFSET
        (&dst->info, p))
      return FALSE;
  return TRUE;
}

/* Part @part of @parts of the frame: of its bytes when @whole (the same
 * layout), else of every plane's rows, whole rows as far as both strides
 * go (so padding a packed format defines comes along) but for each
 * plane's last row, which may end the source's memory */
static void
copy_part (const GstVideoFrame * src, GstVideoFrame * dst, gboolean whole,
    guint part, guint parts)
{
  guint p;

  if (whole) {
    gsize size = GST_VIDEO_INFO_SIZE (&dst->info);
    /* 4 KiB pieces: page-sized and aligned copies */
    gsize pages = (size + 4095) / 4096;
    gsize from = MIN (size, pages * part / parts * 4096);
    gsize to = MIN (size, pages * (part + 1) / parts * 4096);

    memcpy ((guint8 *) dst->map[0].data + from,
        (const guint8 *) src->map[0].data + from, to - from);
    return;
  }
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (dst); p++) {
    gint h = gst_cuda_fx_video_info_plane_height (&dst->info, p);
    gint y0 = (gint) ((gint64) h * part / parts);
    gint y1 = (gint) ((gint64) h * (part + 1) / parts);
    gint ss = GST_VIDEO_FRAME_PLANE_STRIDE (src, p);
    gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (dst, p);
    gsize row = (gsize) MIN (ss, ds);
    /* a plane's last row: its samples only, the source may end there */
    gsize last = MIN (row, gst_cuda_fx_video_format_row_bytes (dst->info.finfo,
            p, GST_VIDEO_FRAME_WIDTH (dst)));
    const guint8 *s = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (src, p) +
        (gsize) y0 *ss;
    guint8 *d = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (dst, p) + (gsize) y0 *ds;
    gint y;

    if (y1 <= y0)
      continue;
    if (ss == ds) {
      memcpy (d, s, (gsize) (y1 - y0 - 1) * ds + (y1 == h ? last : row));
      continue;
    }
    for (y = y0; y < y1; y++, s += ss, d += ds)
      memcpy (d, s, y == h - 1 ? last : row);
  }
}

/* Worker of part @w->part of every frame: asleep until a new generation
 * (a thread that polled instead would cost the host a core's share for
 * every frame it waits for) */
static gpointer
worker_func (gpointer data)
{
  Worker *w = data;
  GstCudaFxStaging *self = w->staging;
  gint seen = 0;

  for (;;) {
    gint gen;

    g_mutex_lock (&self->lock);
    while ((gen = g_atomic_int_get (&self->generation)) == seen)
      g_cond_wait (&self->wake, &self->lock);
    g_mutex_unlock (&self->lock);
    seen = gen;
    if (g_atomic_int_get (&self->quit))
      break;
    copy_part (self->src, self->dst, self->whole, w->part, self->threads);
    if (g_atomic_int_dec_and_test (&self->parts_left)) {
      g_mutex_lock (&self->lock);
      g_cond_signal (&self->done);
      g_mutex_unlock (&self->lock);
    }
  }
  g_free (w);
  return NULL;
}

/* Publishes a new generation (the fields set before it) to the workers */
static void
publish (GstCudaFxStaging * self)
{
  g_mutex_lock (&self->lock);
  g_atomic_int_inc (&self->generation);
  g_cond_broadcast (&self->wake);
  g_mutex_unlock (&self->lock);
}

GstCudaFxStaging *
gst_cuda_fx_staging_new (GstCaps * caps, guint threads)
{
  GstCudaFxStaging *self;
  GstBufferPool *pool;

  pool = gst_cuda_fx_host_buffer_pool_new (caps, STAGING_BUFFERS,
      STAGING_BUFFERS);
  if (!pool)
    return NULL;
  if (!gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return NULL;
  }
  self = g_new0 (GstCudaFxStaging, 1);
  self->pool = pool;
  gst_video_info_from_caps (&self->info, caps);
  self->threads = gst_cuda_fx_staging_threads (threads);
  g_mutex_init (&self->lock);
  g_cond_init (&self->wake);
  g_cond_init (&self->done);
  /* started now: no thread start-up in a copy */
  if (self->threads > 1) {
    guint i;

    self->workers = g_new0 (GThread *, self->threads - 1);
    for (i = 0; i + 1 < self->threads; i++) {
      Worker *w = g_new (Worker, 1);

      w->staging = self;
      w->part = i + 1;
      self->workers[i] = g_thread_new ("cudafx-staging", worker_func, w);
    }
  }
  return self;
}

void
gst_cuda_fx_staging_free (GstCudaFxStaging * self)
{
  if (!self)
    return;
  if (self->workers) {
    guint i;

    g_atomic_int_set (&self->quit, TRUE);
    publish (self);
    for (i = 0; i + 1 < self->threads; i++)
      g_thread_join (self->workers[i]);
    g_free (self->workers);
  }
  /* buffers still out (uploads in flight) come back to the pool later */
  gst_buffer_pool_set_active (self->pool, FALSE);
  gst_object_unref (self->pool);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->wake);
  g_cond_clear (&self->done);
  g_free (self);
}

GstBuffer *
gst_cuda_fx_staging_copy (GstCudaFxStaging * self, const GstVideoFrame * src,
    GstVideoFrame * staged)
{
  GstBuffer *buf = NULL;

  if (gst_buffer_pool_acquire_buffer (self->pool, &buf, NULL) != GST_FLOW_OK)
    return NULL;
  if (!gst_video_frame_map (staged, &self->info, buf, GST_MAP_READWRITE)) {
    gst_buffer_unref (buf);
    return NULL;
  }
  self->src = src;
  self->dst = staged;
  self->whole = same_layout (src, staged);
  if (!self->workers || GST_VIDEO_INFO_SIZE (&self->info) <
      STAGING_SPLIT_BYTES) {
    copy_part (src, staged, self->whole, 0, 1);
  } else {
    g_atomic_int_set (&self->parts_left, self->threads - 1);
    publish (self);
    copy_part (src, staged, self->whole, 0, self->threads);
    g_mutex_lock (&self->lock);
    while (g_atomic_int_get (&self->parts_left) > 0)
      g_cond_wait (&self->done, &self->lock);
    g_mutex_unlock (&self->lock);
  }
  self->src = NULL;
  self->dst = NULL;
  return buf;
}
