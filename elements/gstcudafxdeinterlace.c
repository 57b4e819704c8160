/**
 * SECTION:element-cudadeinterlace
 * @title: cudadeinterlace
 *
 * Deinterlaces device frames on the GPU: bwdif (the default) and yadif,
 * bit-exact with FFmpeg 5.1's CPU filters, and the intra-field ELA and
 * linear modes. At field rate (`fields=all`, the default) every interlaced
 * frame gives two progressive frames and the framerate doubles; `top` or
 * `bottom` give one frame per input, from that field.
 *
 * Stream semantics:
 *
 * - caps: `interlace-mode` interleaved or mixed in, progressive out (no
 *   `field-order`, framerate doubled at field rate); progressive input
 *   passes through unless `mode=interlaced`. `alternate` (one field per
 *   buffer, caps feature `format:Interlaced`) is refused at negotiation:
 *   the pad templates carry only `memory:CUDAFxMemory` (cudafxupload does
 *   not take `format:Interlaced` either) and the caps transforms never
 *   produce or accept `alternate`; caps that reach the element anyway
 *   (an application calling set_caps) are refused with an error that
 *   says so.
 * - mixed content: frames without the INTERLACED flag pass through once
 *   and stay in the history.
 * - field order per frame: the `tff` property, else the caps' field-order,
 *   else the frame's TFF flag (a frame without the INTERLACED flag counts
 *   as top field first).
 * - timestamps at field rate: PTS and PTS + duration / 2, each lasting
 *   duration / 2 (duration: the buffer's, else the next PTS minus this one,
 *   else the caps framerate's); exactly two frames per interlaced input,
 *   the first and the last included.
 * - one frame of latency (the look-ahead), reported in latency queries;
 *   EOS, a caps change and a DISCONT buffer drain the last frame (it is
 *   its own next frame); a flush or DISCONT starts the history anew.
 * - metas (time codes, captions, ...) go on the first output of each
 *   input only.
 *
 * The history is the input device buffers themselves (refs held, never
 * copied): upstream is asked for enough pool buffers.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=UYVY,width=1920,height=1080,interlace-mode=interleaved ! \
 *     cudafxupload ! cudadeinterlace ! cudafxdownload ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudafxdeinterlace.h"
#include "cudafx-kernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_deinterlace_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_deinterlace_debug

#define DEFAULT_METHOD GST_CUDA_FX_DEINTERLACE_METHOD_BWDIF
#define DEFAULT_FIELDS GST_CUDA_FX_DEINTERLACE_FIELDS_ALL
#define DEFAULT_TFF GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_AUTO
#define DEFAULT_MODE GST_CUDA_FX_DEINTERLACE_MODE_AUTO
#define DEFAULT_SPATIAL_CHECK TRUE

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_FIELDS,
  PROP_TFF,
  PROP_MODE,
  PROP_SPATIAL_CHECK,
};

struct _GstCudaFxDeinterlace
{
  GstCudaFxFilter parent;

  /* properties, with the object lock */
  GstCudaFxDeinterlaceMethod method;
  GstCudaFxDeinterlaceFields fields;
  GstCudaFxDeinterlaceFieldOrder tff;
  GstCudaFxDeinterlaceMode mode;
  gboolean spatial_check;

  /* from the caps, with the stream lock */
  GstVideoInterlaceMode interlace_mode;
  gint caps_tff;                /* 1, 0, or -1: not in the caps */
  GstCudaFxDeinterlaceFields active_fields;
  GstCudaFxDeinterlaceMode active_mode;

  /* the history, with the stream lock: prev is the frame before cur (an
   * output or a passed-through frame); cur, when set, waits for its next
   * frame */
  GstBuffer *prev;
  GstBuffer *cur;
  gboolean cur_first;           /* cur starts the stream: bwdif intra */
  GstClockTime last_duration;
  GQueue outputs;               /* ready for generate_output */
};

G_DEFINE_TYPE (GstCudaFxDeinterlace, gst_cuda_fx_deinterlace,
    GST_TYPE_CUDA_FX_FILTER);

/* ---- property types ----------------------------------------------------- */

GType
gst_cuda_fx_deinterlace_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEINTERLACE_METHOD_BWDIF,
          "bwdif: motion adaptive, cubic spatial prediction (FFmpeg bwdif)",
        "bwdif"},
    {GST_CUDA_FX_DEINTERLACE_METHOD_YADIF,
        "yadif: motion adaptive, edge-directed spatial prediction "
          "(FFmpeg yadif)", "yadif"},
    {GST_CUDA_FX_DEINTERLACE_METHOD_ELA,
          "ELA: edge-based line averaging within the field, no latency cost",
        "ela"},
    {GST_CUDA_FX_DEINTERLACE_METHOD_LINEAR,
          "Linear: mean of the lines above and below, within the field",
        "linear"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFxDeinterlaceMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_fx_deinterlace_fields_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEINTERLACE_FIELDS_ALL,
        "All fields: two frames per interlaced frame (field rate)", "all"},
    {GST_CUDA_FX_DEINTERLACE_FIELDS_TOP,
        "Top field: one frame per interlaced frame", "top"},
    {GST_CUDA_FX_DEINTERLACE_FIELDS_BOTTOM,
        "Bottom field: one frame per interlaced frame", "bottom"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFxDeinterlaceFields", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_fx_deinterlace_field_order_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_AUTO,
        "Auto: the caps' field-order, else each frame's flags", "auto"},
    {GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_TFF, "Top field first", "tff"},
    {GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_BFF, "Bottom field first", "bff"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFxDeinterlaceFieldOrder",
        values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_fx_deinterlace_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEINTERLACE_MODE_AUTO,
        "Auto: deinterlace what caps and frame flags say is interlaced, "
          "pass progressive frames through", "auto"},
    {GST_CUDA_FX_DEINTERLACE_MODE_INTERLACED,
        "Interlaced: deinterlace every frame", "interlaced"},
    {GST_CUDA_FX_DEINTERLACE_MODE_DISABLED,
        "Disabled: pass every frame through", "disabled"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFxDeinterlaceMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---- pads --------------------------------------------------------------- */

/* Like every element's: device memory only. (Alternate, one field per
 * buffer, would need the format:Interlaced feature: it fails negotiation,
 * here and at cudafxupload.) */
static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS)));

/* ---- caps --------------------------------------------------------------- */

/* n/d * num/den into @rn/@rd; FALSE on overflow */
static gboolean
scale_fraction (gint n, gint d, gint num, gint den, gint * rn, gint * rd)
{
  if (n == 0) {
    *rn = 0;                    /* variable rate stays variable */
    *rd = 1;
    return TRUE;
  }
  return gst_util_fraction_multiply (n, d, num, den, rn, rd);
}

/* Multiplies (num/den) every fraction in @value (fraction, range, list).
 * A fixed rate that does not fit a fraction is dropped (FALSE); a range
 * saturates: doubling [0, 2147483647/1] (the templates' range) gives
 * [0, 2147483647/1], not nothing. */
static gboolean
scale_framerate (GValue * value, gint num, gint den)
{
  if (G_VALUE_HOLDS (value, GST_TYPE_FRACTION)) {
    gint rn, rd;

    if (!scale_fraction (gst_value_get_fraction_numerator (value),
            gst_value_get_fraction_denominator (value), num, den, &rn, &rd))
      return FALSE;
    gst_value_set_fraction (value, rn, rd);
    return TRUE;
  }
  if (G_VALUE_HOLDS (value, GST_TYPE_FRACTION_RANGE)) {
    const GValue *lo = gst_value_get_fraction_range_min (value);
    const GValue *hi = gst_value_get_fraction_range_max (value);
    gint ln, ld, hn, hd;

    if (!scale_fraction (gst_value_get_fraction_numerator (hi),
            gst_value_get_fraction_denominator (hi), num, den, &hn, &hd)) {
      /* past the largest fraction when multiplying, below the smallest
       * when dividing */
      hn = num > den ? G_MAXINT : 1;
      hd = num > den ? 1 : G_MAXINT;
    }
    if (!scale_fraction (gst_value_get_fraction_numerator (lo),
            gst_value_get_fraction_denominator (lo), num, den, &ln, &ld)) {
      if (num > den)
        return FALSE;           /* the whole range is too fast */
      ln = 0;
      ld = 1;
    }
    if (gst_util_fraction_compare (ln, ld, hn, hd) >= 0) {
      g_value_unset (value);
      g_value_init (value, GST_TYPE_FRACTION);
      gst_value_set_fraction (value, hn, hd);
    } else {
      gst_value_set_fraction_range_full (value, ln, ld, hn, hd);
    }
    return TRUE;
  }
  if (GST_VALUE_HOLDS_LIST (value)) {
    GValue list = G_VALUE_INIT;
    guint i;

    g_value_init (&list, GST_TYPE_LIST);
    for (i = 0; i < gst_value_list_get_size (value); i++) {
      GValue v = G_VALUE_INIT;

      gst_value_init_and_copy (&v, gst_value_list_get_value (value, i));
      if (scale_framerate (&v, num, den))
        gst_value_list_append_and_take_value (&list, &v);
      else
        g_value_unset (&v);
    }
    g_value_unset (value);
    *value = list;
    return gst_value_list_get_size (value) > 0;
  }
  return TRUE;
}

static gboolean
structure_scale_framerate (GstStructure * s, gint num, gint den)
{
  const GValue *fr = gst_structure_get_value (s, "framerate");
  GValue v = G_VALUE_INIT;
  gboolean ok;

  if (!fr)
    return TRUE;
  gst_value_init_and_copy (&v, fr);
  ok = scale_framerate (&v, num, den);
  if (ok)
    gst_structure_take_value (s, "framerate", &v);
  else
    g_value_unset (&v);
  return ok;
}

static gboolean
field_is_fixed (GQuark field, const GValue * value, gpointer user_data)
{
  return gst_value_is_fixed (value);
}

static gboolean
structure_is_fixed (const GstStructure * s)
{
  return gst_structure_foreach (s, field_is_fixed, NULL);
}

/* Can the structure's interlace-mode be @mode? A fixed structure without
 * the field is progressive; an unfixed one may be anything. */
static gboolean
interlace_mode_possible (const GstStructure * s, const gchar * mode)
{
  const GValue *v = gst_structure_get_value (s, "interlace-mode");
  guint i;

  if (!v)
    return !structure_is_fixed (s) || strcmp (mode, "progressive") == 0;
  if (G_VALUE_HOLDS_STRING (v))
    return strcmp (g_value_get_string (v), mode) == 0;
  if (GST_VALUE_HOLDS_LIST (v)) {
    for (i = 0; i < gst_value_list_get_size (v); i++) {
      const GValue *m = gst_value_list_get_value (v, i);
      if (G_VALUE_HOLDS_STRING (m) && strcmp (g_value_get_string (m),
              mode) == 0)
        return TRUE;
    }
  }
  return FALSE;
}

static void
set_interlace_modes (GstStructure * s, const gchar * const *modes)
{
  GValue list = G_VALUE_INIT;

  if (!modes[1]) {
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING, modes[0], NULL);
    return;
  }
  g_value_init (&list, GST_TYPE_LIST);
  for (; *modes; modes++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, G_TYPE_STRING);
    g_value_set_string (&v, *modes);
    gst_value_list_append_and_take_value (&list, &v);
  }
  gst_structure_take_value (s, "interlace-mode", &list);
}

static void
append (GstCaps * caps, GstStructure * s)
{
  gst_caps_append_structure_full (caps, s,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_FX, NULL));
}

static GstCaps *
gst_cuda_fx_deinterlace_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (trans);
  GstCudaFxDeinterlaceMode mode;
  gboolean field_rate;
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  field_rate = self->fields == GST_CUDA_FX_DEINTERLACE_FIELDS_ALL;
  GST_OBJECT_UNLOCK (self);

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    GstStructure *s;

    if (mode == GST_CUDA_FX_DEINTERLACE_MODE_DISABLED) {
      append (ret, gst_structure_copy (in));
      continue;
    }

    if (direction == GST_PAD_SINK) {
      /* (alternate, one field per buffer, is not among them: it gets no
       * output caps, so it fails negotiation) */
      gboolean interlaced = interlace_mode_possible (in, "interleaved")
          || interlace_mode_possible (in, "mixed")
          || (mode == GST_CUDA_FX_DEINTERLACE_MODE_INTERLACED
          && interlace_mode_possible (in, "progressive"));

      /* progressive in: passed through */
      if (mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO
          && interlace_mode_possible (in, "progressive")) {
        s = gst_structure_copy (in);
        gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
            NULL);
        append (ret, s);
      }
      /* interlaced in: progressive out, at field rate twice the frames */
      if (interlaced) {
        s = gst_structure_copy (in);
        gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
            NULL);
        gst_structure_remove_field (s, "field-order");
        if (!field_rate || structure_scale_framerate (s, 2, 1))
          append (ret, s);
        else
          gst_structure_free (s);
      }
    } else {
      static const gchar *const interlaced_auto[] =
          { "interleaved", "mixed", NULL };
      static const gchar *const interlaced_forced[] =
          { "interleaved", "mixed", "progressive", NULL };

      /* we only ever output progressive frames */
      if (!interlace_mode_possible (in, "progressive"))
        continue;
      if (mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO) {
        s = gst_structure_copy (in);
        gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
            NULL);
        append (ret, s);
      }
      s = gst_structure_copy (in);
      gst_structure_remove_field (s, "field-order");
      set_interlace_modes (s, mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO ?
          interlaced_auto : interlaced_forced);
      if (!field_rate || structure_scale_framerate (s, 1, 2))
        append (ret, s);
      else
        gst_structure_free (s);
    }
  }

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (ret);
    ret = tmp;
  }
  GST_DEBUG_OBJECT (self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* Every plane's channels at least min_w x min_h; else a message */
static gchar *
size_problem (const GstVideoInfo * info, CfxDeintMethod method)
{
  gint min_w, min_h;
  guint p;

  cfx_deinterlace_min_size (method, &min_w, &min_h);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint w, h;

    gst_video_format_info_component (info->finfo, p, comp);
    w = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
    h = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    /* packed 4:2:2: the chroma channels are half as wide as the luma */
    if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UYVY
        || GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_YUY2)
      w = (w + 1) / 2;
    if (w < min_w || h < min_h)
      return g_strdup_printf ("%dx%d %s frames are too small for method %s: "
          "plane %u is %dx%d, every plane's channels must be at least "
          "%dx%d", GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info),
          g_enum_get_value (g_type_class_peek
              (GST_TYPE_CUDA_FX_DEINTERLACE_METHOD), method)->value_nick,
          p, w, h, min_w, min_h);
  }
  return NULL;
}

static gboolean
gst_cuda_fx_deinterlace_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  const GstStructure *s = gst_caps_get_structure (incaps, 0);
  const gchar *im = gst_structure_get_string (s, "interlace-mode");

  /* The templates and the caps transforms keep alternate out of
   * negotiation; this is for caps set some other way (an application) */
  if (im && strcmp (im, "alternate") == 0) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION,
        ("%s cannot deinterlace interlace-mode=alternate (one field per "
            "buffer)", GST_OBJECT_NAME (trans)),
        ("Caps %" GST_PTR_FORMAT ": only interleaved and mixed frames are "
            "supported", incaps));
    return FALSE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
      ->set_caps (trans, incaps, outcaps);
}

static void
clear_history (GstCudaFxDeinterlace * self)
{
  gst_clear_buffer (&self->prev);
  gst_clear_buffer (&self->cur);
  self->cur_first = FALSE;
  self->last_duration = GST_CLOCK_TIME_NONE;
}

static void
clear_outputs (GstCudaFxDeinterlace * self)
{
  GstBuffer *buf;

  while ((buf = g_queue_pop_head (&self->outputs)))
    gst_buffer_unref (buf);
}

static gboolean
gst_cuda_fx_deinterlace_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (filter);
  GstCudaFxDeinterlaceMethod method;
  GstVideoInterlaceMode im = GST_VIDEO_INFO_INTERLACE_MODE (in_info);
  gboolean passthrough;
  gchar *problem;

  GST_OBJECT_LOCK (self);
  method = self->method;
  self->active_fields = self->fields;
  self->active_mode = self->mode;
  GST_OBJECT_UNLOCK (self);

  passthrough = self->active_mode == GST_CUDA_FX_DEINTERLACE_MODE_DISABLED
      || (self->active_mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO
      && im == GST_VIDEO_INTERLACE_MODE_PROGRESSIVE);

  if (!passthrough && (problem = size_problem (in_info,
              (CfxDeintMethod) method))) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", problem),
        ("Caps %" GST_PTR_FORMAT, incaps));
    g_free (problem);
    return FALSE;
  }

  self->interlace_mode = im;
  switch (GST_VIDEO_INFO_FIELD_ORDER (in_info)) {
    case GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST:
      self->caps_tff = 1;
      break;
    case GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST:
      self->caps_tff = 0;
      break;
    default:
      self->caps_tff = -1;
      break;
  }
  GST_DEBUG_OBJECT (self, "%s, %s", gst_video_interlace_mode_to_string (im),
      passthrough ? "passthrough" : "deinterlacing");
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), passthrough);
  return TRUE;
}

/* ---- the stream --------------------------------------------------------- */

static gboolean
is_interlaced_frame (GstCudaFxDeinterlace * self, GstBuffer * buf)
{
  if (self->active_mode == GST_CUDA_FX_DEINTERLACE_MODE_INTERLACED)
    return TRUE;
  if (self->interlace_mode == GST_VIDEO_INTERLACE_MODE_MIXED)
    return GST_BUFFER_FLAG_IS_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  return self->interlace_mode == GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
}

static gboolean
frame_tff (GstCudaFxDeinterlace * self, GstBuffer * buf,
    GstCudaFxDeinterlaceFieldOrder order)
{
  if (order != GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_AUTO)
    return order == GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_TFF;
  if (self->caps_tff >= 0)
    return self->caps_tff;
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED))
    return GST_BUFFER_FLAG_IS_SET (buf, GST_VIDEO_BUFFER_FLAG_TFF);
  return TRUE;                  /* unflagged: top field first */
}

/* Duration of the input frame @cur (followed by @next, NULL at the end) */
static GstClockTime
frame_duration (GstCudaFxDeinterlace * self, GstBuffer * cur, GstBuffer * next)
{
  const GstVideoInfo *info =
      gst_cuda_fx_filter_get_in_info (GST_CUDA_FX_FILTER (self));
  GstClockTime pts = GST_BUFFER_PTS (cur);

  if (GST_BUFFER_DURATION_IS_VALID (cur))
    return GST_BUFFER_DURATION (cur);
  if (next && GST_CLOCK_TIME_IS_VALID (pts)
      && GST_BUFFER_PTS_IS_VALID (next) && GST_BUFFER_PTS (next) > pts)
    return GST_BUFFER_PTS (next) - pts;
  if (GST_VIDEO_INFO_FPS_N (info) > 0 && GST_VIDEO_INFO_FPS_D (info) > 0)
    return gst_util_uint64_scale_int (GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
        GST_VIDEO_INFO_FPS_N (info));
  return self->last_duration;
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

/* Flags, timestamps and (first output only) metas of output @k of @n */
static void
set_output_metadata (GstBuffer * out, GstBuffer * in, guint k, guint n,
    GstClockTime duration)
{
  GstClockTime pts = GST_BUFFER_PTS (in);

  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_FLAGS, 0, -1);
  GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_TFF);
  GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_RFF);
  GST_BUFFER_FLAG_UNSET (out, GST_VIDEO_BUFFER_FLAG_ONEFIELD);
  if (k > 0) {
    GST_BUFFER_FLAG_UNSET (out, GST_BUFFER_FLAG_DISCONT);
    GST_BUFFER_FLAG_UNSET (out, GST_BUFFER_FLAG_RESYNC);
  }

  GST_BUFFER_DTS (out) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_OFFSET (out) = GST_BUFFER_OFFSET_NONE;
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET_NONE;
  if (n == 1) {
    GST_BUFFER_PTS (out) = pts;
    GST_BUFFER_DURATION (out) = duration;
  } else if (GST_CLOCK_TIME_IS_VALID (duration)) {
    GST_BUFFER_PTS (out) = GST_CLOCK_TIME_IS_VALID (pts) ?
        pts + k * (duration / 2) : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION (out) = duration / 2;
  } else {
    /* nothing tells when the second field is */
    GST_BUFFER_PTS (out) = k == 0 ? pts : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION (out) = GST_CLOCK_TIME_NONE;
  }

  if (k == 0)
    gst_buffer_foreach_meta (in, copy_meta, out);
}

static void
fill_planes (CfxDeintPlane * planes, guint n, GstVideoFrame * p,
    GstVideoFrame * c, GstVideoFrame * nx, GstVideoFrame * o)
{
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (c);
  guint i;

  for (i = 0; i < n; i++) {
    GstVideoFrame *f[4] = { p, c, nx, o };
    CfxPlane *dst[4] = { &planes[i].prev, &planes[i].cur, &planes[i].next,
      &planes[i].dst
    };
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    guint j;

    gst_video_format_info_component (c->info.finfo, i, comp);
    for (j = 0; j < 4; j++) {
      dst[j]->data = GST_VIDEO_FRAME_PLANE_DATA (f[j], i);
      dst[j]->pitch = GST_VIDEO_FRAME_PLANE_STRIDE (f[j], i);
      dst[j]->width = GST_VIDEO_FRAME_COMP_WIDTH (c, comp[0]);
      dst[j]->height = GST_VIDEO_FRAME_COMP_HEIGHT (c, comp[0]);
    }
    if (format == GST_VIDEO_FORMAT_UYVY)
      planes[i].layout = CFX_DEINT_LAYOUT_UYVY;
    else if (format == GST_VIDEO_FORMAT_YUY2)
      planes[i].layout = CFX_DEINT_LAYOUT_YUY2;
    else if (format == GST_VIDEO_FORMAT_NV12 && i == 1)
      planes[i].layout = CFX_DEINT_LAYOUT_PAIRS;
    else
      planes[i].layout = CFX_DEINT_LAYOUT_PLANAR;
  }
}

/* Orders the element's stream after the frames' last users, enqueues one
 * output frame and records the frames' events. */
static GstFlowReturn
launch_field (GstCudaFxDeinterlace * self, GstBuffer * bufs[3],
    GstVideoFrame frames[3], GstBuffer * outbuf, const CfxDeintField * field)
{
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (self);
  cudaStream_t stream = gst_cuda_fx_filter_get_stream (filter);
  CfxDeintPlane planes[CFX_DEINT_MAX_PLANES];
  GstVideoFrame out;
  cudaError_t err;
  guint i, n_planes;
  GstFlowReturn ret = GST_FLOW_OK;

  if (!gst_cuda_fx_filter_map_device_frame (filter, &out,
          gst_cuda_fx_filter_get_out_info (filter), outbuf, GST_MAP_WRITE))
    return GST_FLOW_ERROR;

  err = gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
      (filter));
  /* each distinct history buffer once (the ends repeat one) */
  for (i = 0; i < 3 && err == cudaSuccess; i++)
    if ((i == 0 || bufs[i] != bufs[i - 1]) && (i < 2 || bufs[2] != bufs[0]))
      err = gst_cuda_fx_buffer_begin_read (bufs[i], stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_buffer_begin_write (outbuf, stream);
  if (!gst_cuda_fx_check (self, err, "Ordering %s's stream after the "
          "frames' last users", GST_OBJECT_NAME (self))) {
    ret = GST_FLOW_ERROR;
    goto out;
  }

  n_planes = GST_VIDEO_FRAME_N_PLANES (&frames[1]);
  fill_planes (planes, n_planes, &frames[0], &frames[1], &frames[2], &out);
  err = cfx_deinterlace_frame (planes, n_planes, field, stream);
  if (!gst_cuda_fx_check (self, err, "Deinterlacing a %dx%d %s frame",
          GST_VIDEO_FRAME_WIDTH (&out), GST_VIDEO_FRAME_HEIGHT (&out),
          GST_VIDEO_INFO_NAME (&out.info)))
    ret = GST_FLOW_ERROR;

  err = gst_cuda_fx_buffer_end_write (outbuf, stream);
  for (i = 0; i < 3 && err == cudaSuccess; i++)
    if ((i == 0 || bufs[i] != bufs[i - 1]) && (i < 2 || bufs[2] != bufs[0]))
      err = gst_cuda_fx_buffer_end_read (bufs[i], stream);
  if (!gst_cuda_fx_check (self, err, "Recording %s's frame events",
          GST_OBJECT_NAME (self)))
    ret = GST_FLOW_ERROR;

out:
  gst_video_frame_unmap (&out);
  return ret;
}

/* Deinterlaces the pending frame with @next as its next frame (NULL: it
 * ends the stream and is its own next); queues the outputs. */
static GstFlowReturn
render_pending (GstCudaFxDeinterlace * self, GstBuffer * next)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (self);
  const GstVideoInfo *info = gst_cuda_fx_filter_get_in_info (filter);
  GstBuffer *bufs[3];
  GstVideoFrame frames[3];
  GstCudaFxDeinterlaceMethod method;
  GstCudaFxDeinterlaceFieldOrder order;
  gboolean spatial_check, tff, last = next == NULL;
  GstClockTime duration;
  guint k, n, mapped = 0;
  GstFlowReturn ret = GST_FLOW_OK;
  gchar *problem;

  if (!self->cur)
    return GST_FLOW_OK;

  /* outputs are made here, not in transform: sync controlled properties
   * to the frame being deinterlaced */
  gst_cuda_fx_filter_sync_values (filter, self->cur);
  GST_OBJECT_LOCK (self);
  method = self->method;
  order = self->tff;
  spatial_check = self->spatial_check;
  GST_OBJECT_UNLOCK (self);

  /* the method may have changed since the caps were checked */
  if ((problem = size_problem (info, (CfxDeintMethod) method))) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("%s", problem), (NULL));
    g_free (problem);
    return GST_FLOW_ERROR;
  }

  bufs[0] = self->prev ? self->prev : self->cur;
  bufs[1] = self->cur;
  bufs[2] = next ? next : self->cur;
  for (mapped = 0; mapped < 3; mapped++)
    if (!gst_cuda_fx_filter_map_device_frame (filter, &frames[mapped], info,
            bufs[mapped], GST_MAP_READ)) {
      ret = GST_FLOW_ERROR;
      goto out;
    }

  tff = frame_tff (self, self->cur, order);
  duration = frame_duration (self, self->cur, next);
  if (GST_CLOCK_TIME_IS_VALID (duration))
    self->last_duration = duration;

  n = self->active_fields == GST_CUDA_FX_DEINTERLACE_FIELDS_ALL
      && !GST_BUFFER_FLAG_IS_SET (self->cur, GST_VIDEO_BUFFER_FLAG_ONEFIELD)
      ? 2 : 1;
  if (n == 1 && self->active_fields == GST_CUDA_FX_DEINTERLACE_FIELDS_ALL
      && !GST_BUFFER_DURATION_IS_VALID (self->cur)
      && GST_CLOCK_TIME_IS_VALID (duration))
    duration /= 2;              /* one field of a frame */

  for (k = 0; k < n && ret == GST_FLOW_OK; k++) {
    CfxDeintField field;
    GstBuffer *out = NULL;

    field.method = (CfxDeintMethod) method;
    field.tff = tff;
    field.spatial_check = spatial_check;
    switch (self->active_fields) {
      case GST_CUDA_FX_DEINTERLACE_FIELDS_TOP:
        field.parity = 0;
        break;
      case GST_CUDA_FX_DEINTERLACE_FIELDS_BOTTOM:
        field.parity = 1;
        break;
      default:
        field.parity = tff ^ (k == 0);
        break;
    }
    /* bwdif has no temporal neighbour for the stream's first field, nor
     * at field rate for its last */
    field.intra_only = (k == 0 && self->cur_first)
        || (k == 1 && last);

    ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
        ->prepare_output_buffer (trans, self->cur, &out);
    if (ret != GST_FLOW_OK)
      break;
    ret = launch_field (self, bufs, frames, out, &field);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (out);
      break;
    }
    set_output_metadata (out, self->cur, k, n, duration);
    g_queue_push_tail (&self->outputs, out);
  }

out:
  while (mapped > 0)
    gst_video_frame_unmap (&frames[--mapped]);
  /* the frame joins the history whatever happened */
  gst_buffer_replace (&self->prev, self->cur);
  gst_clear_buffer (&self->cur);
  return ret;
}

static GstFlowReturn
push_outputs (GstCudaFxDeinterlace * self)
{
  GstBuffer *buf;
  GstFlowReturn ret = GST_FLOW_OK;

  while ((buf = g_queue_pop_head (&self->outputs))) {
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buf);
    else
      gst_buffer_unref (buf);
  }
  return ret;
}

/* The pending frame ends its stream: output it now, start anew */
static GstFlowReturn
drain (GstCudaFxDeinterlace * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  if (self->cur) {
    GST_DEBUG_OBJECT (self, "draining %" GST_PTR_FORMAT, self->cur);
    ret = render_pending (self, NULL);
    if (ret == GST_FLOW_OK)
      ret = push_outputs (self);
    else
      clear_outputs (self);
  }
  clear_history (self);
  return ret;
}

static GstFlowReturn
gst_cuda_fx_deinterlace_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (trans);
  GstFlowReturn ret;
  GstBuffer *buf;

  /* negotiation, QoS: the default; it leaves the buffer in queued_buf */
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
      ->submit_input_buffer (trans, is_discont, input);
  if (ret != GST_FLOW_OK || gst_base_transform_is_passthrough (trans))
    return ret;
  buf = trans->queued_buf;
  trans->queued_buf = NULL;
  if (!buf)
    return GST_FLOW_OK;         /* dropped for QoS */

  /* a discontinuity ends one stream and starts another (is_discont stays
   * set until something is pushed, so look at the buffer itself) */
  if (GST_BUFFER_IS_DISCONT (buf)) {
    ret = drain (self);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (buf);
      return ret;
    }
  }

  if (self->cur) {
    ret = render_pending (self, buf);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (buf);
      return ret;
    }
  }

  if (is_interlaced_frame (self, buf)) {
    self->cur_first = self->prev == NULL;
    self->cur = buf;
  } else {
    /* progressive: out once as it is, and into the history */
    gst_buffer_replace (&self->prev, buf);
    g_queue_push_tail (&self->outputs, buf);
  }
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_fx_deinterlace_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (trans);

  if (gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
        ->generate_output (trans, outbuf);
  *outbuf = g_queue_pop_head (&self->outputs);
  return GST_FLOW_OK;
}

/* Metadata is set per output in render_pending */
static gboolean
gst_cuda_fx_deinterlace_copy_metadata (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer * outbuf)
{
  return TRUE;
}

static gboolean
gst_cuda_fx_deinterlace_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      drain (self);
      break;
    case GST_EVENT_CAPS:{
      GstCaps *caps, *current;

      gst_event_parse_caps (event, &caps);
      current = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
      if (current && !gst_caps_is_equal (caps, current))
        drain (self);
      gst_clear_caps (&current);
      break;
    }
    case GST_EVENT_FLUSH_STOP:
      clear_history (self);
      clear_outputs (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
      ->sink_event (trans, event);
}

static gboolean
gst_cuda_fx_deinterlace_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY
      && direction == GST_PAD_SRC
      && !gst_base_transform_is_passthrough (trans)) {
    const GstVideoInfo *info =
        gst_cuda_fx_filter_get_in_info (GST_CUDA_FX_FILTER (trans));
    GstClockTime min, max, frame = 0;
    gboolean live;

    if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (trans), query))
      return FALSE;
    gst_query_parse_latency (query, &live, &min, &max);
    /* one input frame of look-ahead */
    if (GST_VIDEO_INFO_FPS_N (info) > 0 && GST_VIDEO_INFO_FPS_D (info) > 0)
      frame = gst_util_uint64_scale_int_ceil (GST_SECOND,
          GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
    GST_DEBUG_OBJECT (trans, "adding %" GST_TIME_FORMAT " of latency",
        GST_TIME_ARGS (frame));
    min += frame;
    if (GST_CLOCK_TIME_IS_VALID (max))
      max += frame;
    gst_query_set_latency (query, live, min, max);
    return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
      ->query (trans, direction, query);
}

static gboolean
gst_cuda_fx_deinterlace_stop (GstBaseTransform * trans)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (trans);

  clear_history (self);
  clear_outputs (self);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)
      ->stop (trans);
}

/* ---- GObject ------------------------------------------------------------ */

static void
gst_cuda_fx_deinterlace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      self->method = g_value_get_enum (value);
      break;
    case PROP_FIELDS:
      self->fields = g_value_get_enum (value);
      break;
    case PROP_TFF:
      self->tff = g_value_get_enum (value);
      break;
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_SPATIAL_CHECK:
      self->spatial_check = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  /* fields and mode change the caps */
  if (prop_id == PROP_FIELDS || prop_id == PROP_MODE)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

static void
gst_cuda_fx_deinterlace_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, self->method);
      break;
    case PROP_FIELDS:
      g_value_set_enum (value, self->fields);
      break;
    case PROP_TFF:
      g_value_set_enum (value, self->tff);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_SPATIAL_CHECK:
      g_value_set_boolean (value, self->spatial_check);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_fx_deinterlace_finalize (GObject * object)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (object);

  clear_history (self);
  clear_outputs (self);
  G_OBJECT_CLASS (gst_cuda_fx_deinterlace_parent_class)->finalize (object);
}

static void
gst_cuda_fx_deinterlace_class_init (GstCudaFxDeinterlaceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_fx_deinterlace_set_property;
  gobject_class->get_property = gst_cuda_fx_deinterlace_get_property;
  gobject_class->finalize = gst_cuda_fx_deinterlace_finalize;

  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Deinterlacing algorithm: bwdif and yadif are motion adaptive and "
          "bit-exact with FFmpeg's CPU filters; ela and linear use the "
          "current field only",
          GST_TYPE_CUDA_FX_DEINTERLACE_METHOD, DEFAULT_METHOD,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_FIELDS,
      g_param_spec_enum ("fields", "Fields",
          "Which fields become frames: all (field rate, the framerate "
          "doubles) or only the top or bottom field (frame rate)",
          GST_TYPE_CUDA_FX_DEINTERLACE_FIELDS, DEFAULT_FIELDS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_TFF,
      g_param_spec_enum ("tff", "Field order",
          "Field order: auto takes the caps' field-order, else each frame's "
          "TFF flag (frames without the INTERLACED flag count as top field "
          "first); tff and bff override both",
          GST_TYPE_CUDA_FX_DEINTERLACE_FIELD_ORDER, DEFAULT_TFF,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What to deinterlace: auto (what caps and frame flags say is "
          "interlaced), interlaced (every frame) or disabled (nothing)",
          GST_TYPE_CUDA_FX_DEINTERLACE_MODE, DEFAULT_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_SPATIAL_CHECK,
      g_param_spec_boolean ("spatial-check", "Spatial check",
          "yadif only: check the temporal prediction against the vertical "
          "neighbours (off: FFmpeg's send_field_nospatial)",
          DEFAULT_SPATIAL_CHECK,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX deinterlace", "Filter/Effect/Video/Deinterlace/Hardware",
      "Deinterlaces device frames: bwdif and yadif (bit-exact with FFmpeg), "
      "ELA, linear", "gst-cudafx developers");

  trans_class->transform_caps = gst_cuda_fx_deinterlace_transform_caps;
  trans_class->set_caps = gst_cuda_fx_deinterlace_set_caps;
  trans_class->submit_input_buffer =
      gst_cuda_fx_deinterlace_submit_input_buffer;
  trans_class->generate_output = gst_cuda_fx_deinterlace_generate_output;
  trans_class->copy_metadata = gst_cuda_fx_deinterlace_copy_metadata;
  trans_class->sink_event = gst_cuda_fx_deinterlace_sink_event;
  trans_class->query = gst_cuda_fx_deinterlace_query;
  trans_class->stop = gst_cuda_fx_deinterlace_stop;
  filter_class->set_info = gst_cuda_fx_deinterlace_set_info;
  /* previous and current frame held while the next one is produced */
  filter_class->history = 2;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEINTERLACE_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEINTERLACE_FIELDS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEINTERLACE_FIELD_ORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEINTERLACE_MODE, 0);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_deinterlace_debug, "cudadeinterlace",
      0, "cudadeinterlace element");
}

static void
gst_cuda_fx_deinterlace_init (GstCudaFxDeinterlace * self)
{
  self->method = DEFAULT_METHOD;
  self->fields = DEFAULT_FIELDS;
  self->tff = DEFAULT_TFF;
  self->mode = DEFAULT_MODE;
  self->spatial_check = DEFAULT_SPATIAL_CHECK;
  self->active_fields = DEFAULT_FIELDS;
  self->active_mode = DEFAULT_MODE;
  self->caps_tff = -1;
  self->last_duration = GST_CLOCK_TIME_NONE;
  g_queue_init (&self->outputs);
}
