/**
 * SECTION:element-cudadeinterlace
 * @title: cudadeinterlace
 *
 * Deinterlaces device frames on the GPU: bwdif (the default) and yadif,
 * bit-exact with the CPU filters of FFmpeg 6.1 to 8.x, the intra-field
 * ELA and linear modes, and `mc`, motion compensated: each missing line
 * is predicted from the neighbouring fields moved onto the current
 * field's instant (a block motion search between fields of the same
 * parity) and blended with bwdif's own estimate by how well the moved
 * fields agree with the lines that exist, so that where the motion fails
 * the output is bwdif's; scene cuts fall back to bwdif
 * (kernels/deinterlace-mc.md; the same latency as bwdif). 10 to 16-bit formats (P010_10LE, I420_10LE, I422_10LE,
 * Y444_16LE ...) take the same methods as FFmpeg's two-byte filters
 * (bwdif there needs frames of 7 rows); the unused bits of their words
 * are ignored and written 0. At field rate (`fields=all`, the default) every interlaced
 * frame gives two progressive frames and the framerate doubles; `top` or
 * `bottom` give one frame per input, from that field.
 *
 * Stream semantics:
 *
 * - caps: `interlace-mode` interleaved or mixed in, progressive out (no
 *   `field-order`, framerate doubled at field rate); progressive input
 *   passes through unless `mode=interlaced`. `alternate` (one field per
 *   buffer, caps feature `format:Interlaced`) is refused at negotiation:
 *   the caps transforms never produce or accept it, and caps that reach
 *   the element anyway (an application calling set_caps) are refused with
 *   an error that says so.
 * - mixed content: frames without the INTERLACED flag pass through once
 *   and stay in the history.
 * - field order per frame: the `tff` property, else the caps' field-order,
 *   else the frame's TFF flag (a frame without the INTERLACED flag counts
 *   as top field first).
 * - timestamps at field rate: PTS and PTS + duration / 2, each lasting
 *   duration / 2 (duration: the buffer's, else the next PTS minus this one,
 *   else the caps framerate's period, half of it for a ONEFIELD buffer);
 *   exactly two frames per interlaced input, the first and the last
 *   included.
 * - one frame of latency (the look-ahead), reported in latency queries;
 *   EOS, a caps change, a new segment, a gap and a DISCONT buffer drain the
 *   last frame (it is its own next frame) before they go on; a flush or
 *   DISCONT starts the history anew.
 * - metas (time codes, captions, ...) go on the first output of each
 *   input only.
 *
 * The history (GstCudaFxFilter's, gstcudafxhistory.h) is the input device
 * buffers themselves (refs held, never copied): upstream is asked for
 * enough pool buffers. The algorithms: kernels/deinterlace.md.
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

  /* method mc's device state (search images, vectors), made at its first
   * frame of a size, with the stream lock */
  CfxDeintMc *mc;
  gint mc_width, mc_height;
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
    {GST_CUDA_FX_DEINTERLACE_METHOD_MC,
          "mc: motion compensated from the neighbouring fields, bwdif where "
          "the motion does not hold", "mc"},
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
/* 8-bit formats and the planar and semi-planar 10 to 16-bit ones
 * (kernels/deinterlace16.cu) */
#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)
#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)

/* ---- caps --------------------------------------------------------------- */

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
      gboolean interlaced = gst_cuda_fx_structure_interlace_mode_possible (in, "interleaved")
          || gst_cuda_fx_structure_interlace_mode_possible (in, "mixed")
          || (mode == GST_CUDA_FX_DEINTERLACE_MODE_INTERLACED
          && gst_cuda_fx_structure_interlace_mode_possible (in, "progressive"));

      /* progressive in: passed through */
      if (mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO
          && gst_cuda_fx_structure_interlace_mode_possible (in, "progressive")) {
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
        if (!field_rate || gst_cuda_fx_structure_scale_framerate (s, 2, 1))
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
      if (!gst_cuda_fx_structure_interlace_mode_possible (in, "progressive"))
        continue;
      if (mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO) {
        s = gst_structure_copy (in);
        gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
            NULL);
        append (ret, s);
      }
      s = gst_structure_copy (in);
      gst_structure_remove_field (s, "field-order");
      gst_cuda_fx_structure_set_interlace_modes (s, mode == GST_CUDA_FX_DEINTERLACE_MODE_AUTO ?
          interlaced_auto : interlaced_forced);
      if (!field_rate || gst_cuda_fx_structure_scale_framerate (s, 1, 2))
        append (ret, s);
      else
        gst_structure_free (s);
    }
  }

  ret = gst_cuda_fx_caps_apply_filter (gst_cuda_fx_caps_add_interop (ret),
      filter);
  GST_DEBUG_OBJECT (self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* Every component at least the method's smallest size; else a message */
static gchar *
size_problem (const GstVideoInfo * info, CfxDeintMethod method)
{
  gint min_w, min_h;
  guint c;

  cfx_deinterlace_min_size (method, GST_VIDEO_INFO_COMP_DEPTH (info,
          0) > 8 ? 2 : 1, &min_w, &min_h);
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    gint w = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    gint h = GST_VIDEO_INFO_COMP_HEIGHT (info, c);

    if (w < min_w || h < min_h)
      return g_strdup_printf ("%dx%d %s frames are too small for method %s: "
          "component %u is %dx%d, every component must be at least %dx%d",
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info),
          g_enum_get_value (g_type_class_peek
              (GST_TYPE_CUDA_FX_DEINTERLACE_METHOD), method)->value_nick,
          c, w, h, min_w, min_h);
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

/* Outputs of @input: none for a progressive frame of mixed content (it
 * goes out as it is), two per interlaced frame at field rate */
static guint
gst_cuda_fx_deinterlace_outputs_for (GstCudaFxFilter * filter,
    GstBuffer * input)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (filter);

  if (!is_interlaced_frame (self, input))
    return 0;
  return self->active_fields == GST_CUDA_FX_DEINTERLACE_FIELDS_ALL
      && !GST_BUFFER_FLAG_IS_SET (input, GST_VIDEO_BUFFER_FLAG_ONEFIELD)
      ? 2 : 1;
}

/* Method mc: its state made for the frames' size where it has none, and
 * the field. Where the stream has no previous (next) frame, that side is
 * not used (the reference's NULL frame); bwdif's floor still gets the
 * frame itself as its neighbour, as for method bwdif. */
static GstFlowReturn
process_mc (GstCudaFxDeinterlace * self, const GstCudaFxFrameWindow * window,
    const CfxDeintComponent * comps, guint n_comps,
    const CfxDeintField * field, GstVideoFrame * out, cudaStream_t stream)
{
  const CfxPlane *luma = &comps[0].cur;
  CfxDeintMcWindow mw;
  cudaError_t err;

  if (self->mc && (self->mc_width != luma->width
          || self->mc_height != luma->height))
    g_clear_pointer (&self->mc, cfx_deint_mc_free);
  if (!self->mc) {
    err = cfx_deint_mc_new (&self->mc, luma->width, luma->height);
    if (!gst_cuda_fx_check (self, err, "Allocating the mc deinterlacer's "
            "state for %dx%d frames", luma->width, luma->height))
      return GST_FLOW_ERROR;
    self->mc_width = luma->width;
    self->mc_height = luma->height;
    GST_DEBUG_OBJECT (self, "%" G_GSIZE_FORMAT " bytes of mc state",
        cfx_deint_mc_bytes (self->mc));
  }

  mw.has_prev = window->n_before > 0;
  mw.has_next = window->n_after > 0;
  mw.keys[0] = window->serials[0];
  mw.keys[1] = window->serials[1];
  mw.keys[2] = window->serials[2];
  /* a new stream (after a flush or DISCONT, whose serials may repeat):
   * no field image from before counts */
  mw.restart = window->n_before == 0 && window->output == 0;
  if (!gst_cuda_fx_check (self, cfx_deinterlace_mc (self->mc, comps,
              (gint) n_comps, field, &mw, stream),
          "Deinterlacing (mc) a %dx%d %s frame", GST_VIDEO_FRAME_WIDTH (out),
          GST_VIDEO_FRAME_HEIGHT (out), GST_VIDEO_INFO_NAME (&out->info)))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

/* One output field of the frame window->frames[1], with its previous and
 * next frames (the ends of a stream are their own neighbours) */
static GstFlowReturn
gst_cuda_fx_deinterlace_process_window (GstCudaFxFilter * filter,
    const GstCudaFxFrameWindow * window, GstCudaFxFrame * out,
    cudaStream_t stream)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (filter);
  GstCudaFxFrame *prev = window->frames[0], *cur = window->frames[1];
  GstCudaFxFrame *next = window->frames[2];
  CfxDeintComponent comps[CFX_DEINT_MAX_COMPONENTS];
  CfxDeintField field;
  GstCudaFxDeinterlaceFieldOrder order;
  gchar *problem;
  guint c;

  GST_OBJECT_LOCK (self);
  field.method = (CfxDeintMethod) self->method;
  field.spatial_check = self->spatial_check;
  order = self->tff;
  GST_OBJECT_UNLOCK (self);

  /* the method may have changed since the caps were checked */
  if ((problem = size_problem (&cur->video.info, field.method))) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("%s", problem), (NULL));
    g_free (problem);
    return GST_FLOW_ERROR;
  }

  field.tff = frame_tff (self, cur->video.buffer, order);
  switch (self->active_fields) {
    case GST_CUDA_FX_DEINTERLACE_FIELDS_TOP:
      field.parity = 0;
      break;
    case GST_CUDA_FX_DEINTERLACE_FIELDS_BOTTOM:
      field.parity = 1;
      break;
    default:
      field.parity = field.tff ^ (window->output == 0);
      break;
  }
  /* bwdif has no temporal neighbour for the stream's first field, nor at
   * field rate for its last: the intra filter (but on the 3 edge rows each
   * side, FFmpeg 6.1's rule); mc's floor the same */
  field.intra_only = (window->output == 0 && window->n_before == 0)
      || (window->output == 1 && window->n_after == 0);

  for (c = 0; c < cur->n_components; c++) {
    comps[c].prev = prev->comp[c];
    comps[c].cur = cur->comp[c];
    comps[c].next = next->comp[c];
    comps[c].dst = out->comp[c];
  }
  if (field.method == CFX_DEINT_MC)
    return process_mc (self, window, comps, cur->n_components, &field,
        &out->video, stream);
  if (!gst_cuda_fx_check (self, cfx_deinterlace_frame (comps,
              cur->n_components, &field, stream),
          "Deinterlacing a %dx%d %s frame", GST_VIDEO_FRAME_WIDTH (&out->video),
          GST_VIDEO_FRAME_HEIGHT (&out->video),
          GST_VIDEO_INFO_NAME (&out->video.info)))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

/* ---- GObject ------------------------------------------------------------ */

static gboolean
gst_cuda_fx_deinterlace_stop (GstBaseTransform * trans)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (trans);

  if (self->mc) {
    /* cudaFree on the device it was made on */
    gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
        (GST_CUDA_FX_FILTER (self)));
    g_clear_pointer (&self->mc, cfx_deint_mc_free);
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_deinterlace_parent_class)->stop
      (trans);
}

static void
gst_cuda_fx_deinterlace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxDeinterlace *self = GST_CUDA_FX_DEINTERLACE (object);

  /* fields and mode change the caps: only before the stream starts */
  if ((prop_id == PROP_FIELDS || prop_id == PROP_MODE)
      && gst_cuda_fx_filter_refuse_change (GST_CUDA_FX_FILTER (self), pspec,
          value))
    return;

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
gst_cuda_fx_deinterlace_class_init (GstCudaFxDeinterlaceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_fx_deinterlace_set_property;
  gobject_class->get_property = gst_cuda_fx_deinterlace_get_property;

  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Deinterlacing algorithm: bwdif and yadif are motion adaptive and "
          "bit-exact with FFmpeg's CPU filters; ela and linear use the "
          "current field only; mc moves the neighbouring fields onto the "
          "current one (motion search), bwdif where that does not hold",
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

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX deinterlace", "Filter/Effect/Video/Deinterlace/Hardware",
      "Deinterlaces device frames: bwdif and yadif (bit-exact with FFmpeg), "
      "ELA, linear, motion compensated", "gst-cudafx developers");

  trans_class->transform_caps = gst_cuda_fx_deinterlace_transform_caps;
  trans_class->set_caps = gst_cuda_fx_deinterlace_set_caps;
  trans_class->stop = gst_cuda_fx_deinterlace_stop;
  filter_class->set_info = gst_cuda_fx_deinterlace_set_info;
  /* the previous and the next frame of each */
  filter_class->past = 1;
  filter_class->future = 1;
  filter_class->outputs_for = gst_cuda_fx_deinterlace_outputs_for;
  filter_class->process_window = gst_cuda_fx_deinterlace_process_window;

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
}
