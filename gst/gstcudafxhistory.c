/* gst-cudafx: the input history of window filters (see the header). In
 * the spirit of FFmpeg's yadif_common.c and the d3d12 deinterlacer's
 * state object: stream logic here, GPU launches in the filter. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxhistory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_history_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_history_debug

typedef struct
{
  GstBuffer *buffer;
  guint n_outputs;
  guint64 serial;
} Entry;

struct _GstCudaFxHistory
{
  guint past, future;
  /* inputs in order: up to @past already output, then the pending ones
   * from index @next on */
  GArray *entries;
  guint next;
  /* inputs pushed since the history was made: the next one's serial */
  guint64 pushed;

  gint fps_n, fps_d;
  gboolean progressive_out;
  GstClockTime last_duration;
};

static void
clear_entry (gpointer data)
{
  gst_buffer_unref (((Entry *) data)->buffer);
}

/**
 * gst_cuda_fx_history_new: (skip)
 *
 * For C: takes or gives CUDA types.
 */
GstCudaFxHistory *
gst_cuda_fx_history_new (guint past, guint future)
{
  GstCudaFxHistory *h;
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_history_debug, "cudafxhistory", 0,
        "gst-cudafx input history of window filters");
    g_once_init_leave (&once, 1);
  }
  g_return_val_if_fail (past + 1 + future <= GST_CUDA_FX_HISTORY_MAX_WINDOW,
      NULL);

  h = g_new0 (GstCudaFxHistory, 1);
  h->past = past;
  h->future = future;
  h->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_array_set_clear_func (h->entries, clear_entry);
  h->last_duration = GST_CLOCK_TIME_NONE;
  return h;
}

void
gst_cuda_fx_history_free (GstCudaFxHistory * history)
{
  g_array_unref (history->entries);
  g_free (history);
}

void
gst_cuda_fx_history_set_info (GstCudaFxHistory * history,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info)
{
  history->fps_n = GST_VIDEO_INFO_FPS_N (in_info);
  history->fps_d = GST_VIDEO_INFO_FPS_D (in_info);
  history->progressive_out = !GST_VIDEO_INFO_IS_INTERLACED (out_info);
}

void
gst_cuda_fx_history_push (GstCudaFxHistory * history, GstBuffer * input,
    guint n_outputs)
{
  Entry e = { input, n_outputs, history->pushed++ };

  GST_LOG ("input %" GST_PTR_FORMAT ", %u outputs", input, n_outputs);
  g_array_append_val (history->entries, e);
}

static Entry *
entry (GstCudaFxHistory * history, guint i)
{
  return &g_array_index (history->entries, Entry, i);
}

static GstClockTime
frame_period (GstCudaFxHistory * history)
{
  if (history->fps_n <= 0 || history->fps_d <= 0)
    return GST_CLOCK_TIME_NONE;
  return gst_util_uint64_scale_int (GST_SECOND, history->fps_d,
      history->fps_n);
}

/* The buffer's own duration; else up to the next input's timestamp; else
 * the frame rate's period (half of it for a buffer holding one field);
 * else the last duration seen */
static GstClockTime
input_duration (GstCudaFxHistory * history, guint i)
{
  GstBuffer *buf = entry (history, i)->buffer;
  GstClockTime pts = GST_BUFFER_PTS (buf), d = frame_period (history);

  if (GST_BUFFER_DURATION_IS_VALID (buf))
    return GST_BUFFER_DURATION (buf);
  if (i + 1 < history->entries->len && GST_CLOCK_TIME_IS_VALID (pts)) {
    GstBuffer *next = entry (history, i + 1)->buffer;

    if (GST_BUFFER_PTS_IS_VALID (next) && GST_BUFFER_PTS (next) > pts)
      return GST_BUFFER_PTS (next) - pts;
  }
  if (GST_CLOCK_TIME_IS_VALID (d))
    return GST_BUFFER_FLAG_IS_SET (buf, GST_VIDEO_BUFFER_FLAG_ONEFIELD) ?
        d / 2 : d;
  return history->last_duration;
}

gboolean
gst_cuda_fx_history_next (GstCudaFxHistory * history, gboolean draining,
    GstCudaFxBufferWindow * window)
{
  guint i = history->next, len = history->entries->len, k;
  Entry *e;

  if (i >= len)
    return FALSE;
  e = entry (history, i);
  if (e->n_outputs > 0 && !draining && len - 1 - i < history->future)
    return FALSE;

  memset (window, 0, sizeof (*window));
  window->past = history->past;
  window->future = history->future;
  window->n_before = i;         /* older ones were trimmed */
  window->n_after = MIN (history->future, len - 1 - i);
  window->n_outputs = e->n_outputs;
  /* neighbours the stream lacks: the nearest present frame */
  for (k = 0; k < history->past + 1 + history->future; k++) {
    gint j = (gint) i - (gint) history->past + (gint) k;

    j = CLAMP (j, (gint) i - (gint) window->n_before,
        (gint) (i + window->n_after));
    window->frames[k] = entry (history, j)->buffer;
    window->serials[k] = entry (history, j)->serial;
  }
  window->duration = input_duration (history, i);
  if (GST_CLOCK_TIME_IS_VALID (window->duration))
    history->last_duration = window->duration;
  return TRUE;
}

void
gst_cuda_fx_history_advance (GstCudaFxHistory * history)
{
  g_return_if_fail (history->next < history->entries->len);

  history->next++;
  /* keep @past output frames as neighbours of the next */
  if (history->next > history->past) {
    guint drop = history->next - history->past;

    g_array_remove_range (history->entries, 0, drop);
    history->next -= drop;
  }
}

static gboolean
copy_meta (GstBuffer * inbuf, GstMeta ** meta, gpointer user_data)
{
  GstBuffer *outbuf = user_data;
  const GstMetaInfo *info = (*meta)->info;
  GstMetaTransformCopy copy = { FALSE, 0, -1 };

  /* what describes the memory (the video meta) belongs to each buffer;
   * what describes the content (time codes, captions, regions) follows
   * the frame */
  if (!info->transform_func || gst_meta_api_type_has_tag (info->api,
          g_quark_from_static_string (GST_META_TAG_MEMORY_STR)))
    return TRUE;
  info->transform_func (outbuf, *meta, inbuf, _gst_meta_transform_copy, &copy);
  return TRUE;
}

void
gst_cuda_fx_history_set_output_metadata (GstCudaFxHistory * history,
    const GstCudaFxBufferWindow * window, GstBuffer * out, guint k)
{
  GstBuffer *in = window->frames[window->past];
  GstClockTime pts = GST_BUFFER_PTS (in), duration = window->duration;
  guint n = window->n_outputs;

  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_FLAGS, 0, -1);
  if (history->progressive_out) {
    GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED);
    GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_TFF);
    GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_RFF);
    GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_ONEFIELD);
  }
  if (k > 0) {
    GST_BUFFER_FLAG_UNSET (out, GST_BUFFER_FLAG_DISCONT);
    GST_BUFFER_FLAG_UNSET (out, GST_BUFFER_FLAG_RESYNC);
  }

  GST_BUFFER_DTS (out) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_OFFSET (out) = GST_BUFFER_OFFSET_NONE;
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET_NONE;
  if (n <= 1) {
    GST_BUFFER_PTS (out) = pts;
    GST_BUFFER_DURATION (out) = duration;
  } else if (GST_CLOCK_TIME_IS_VALID (duration)) {
    GST_BUFFER_PTS (out) = GST_CLOCK_TIME_IS_VALID (pts) ?
        pts + k * (duration / n) : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION (out) = duration / n;
  } else {
    /* nothing tells when the later outputs are */
    GST_BUFFER_PTS (out) = k == 0 ? pts : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION (out) = GST_CLOCK_TIME_NONE;
  }

  if (k == 0)
    gst_buffer_foreach_meta (in, copy_meta, out);
}

void
gst_cuda_fx_history_clear (GstCudaFxHistory * history)
{
  g_array_set_size (history->entries, 0);
  history->next = 0;
  history->last_duration = GST_CLOCK_TIME_NONE;
}

gboolean
gst_cuda_fx_history_is_empty (GstCudaFxHistory * history)
{
  return history->next >= history->entries->len;
}

GstClockTime
gst_cuda_fx_history_get_latency (GstCudaFxHistory * history)
{
  GstClockTime d = frame_period (history);

  if (!GST_CLOCK_TIME_IS_VALID (d) || history->future == 0)
    return 0;
  /* rounded up, as a sink's clock wait needs */
  return gst_util_uint64_scale_int_ceil (GST_SECOND,
      history->fps_d * history->future, history->fps_n);
}
