/* gst-cudafx: caps helpers shared by the elements. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxcaps.h"
#include "gstcudafxinterop.h"

#include <string.h>

GstCaps *
gst_cuda_fx_caps_set_features (const GstCaps * caps, const gchar * feature)
{
  GstCaps *ret = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (ret); i++)
    gst_caps_set_features (ret, i, gst_caps_features_new (feature, NULL));
  return ret;
}

/**
 * gst_cuda_fx_caps_apply_filter:
 * @caps: (transfer full): caps, taken
 * @filter: (nullable): a filter, not taken
 *
 * Returns: (transfer full): @caps intersected with @filter, @filter's
 * order first.
 */
GstCaps *
gst_cuda_fx_caps_apply_filter (GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret;

  if (!filter)
    return caps;
  ret = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return ret;
}

gboolean
gst_cuda_fx_caps_have_feature (GstCaps * caps, const gchar * feature)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features, feature);
}

gboolean
gst_cuda_fx_caps_are_device (GstCaps * caps)
{
  return gst_cuda_fx_caps_have_feature (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX)
      || gst_cuda_fx_caps_have_feature (caps, GST_CAPS_FEATURE_MEMORY_CUDA);
}

/**
 * gst_cuda_fx_caps_add_interop:
 * @caps: (transfer full): caps, taken
 *
 * Returns: (transfer full): @caps, with a copy of each structure in
 * GStreamer's CUDA memory where its library is loaded.
 */
GstCaps *
gst_cuda_fx_caps_add_interop (GstCaps * caps)
{
  GstCaps *extra;
  guint i;

  if (!gst_cuda_fx_interop_available ())
    return caps;
  extra = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CUDA_FX))
      gst_caps_append_structure_full (extra,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA, NULL));
  }
  return gst_caps_merge (caps, extra);
}

/* v210 crosses as I422_10LE: upload unpacks it into the planar 4:2:2
 * 10-bit format the filters work on, download packs it back. Rewrites the
 * "format" of a structure crossing @to_device. */
static void
map_v210 (GstStructure * s, gboolean to_device)
{
  const GValue *have = gst_structure_get_value (s, "format");
  GValue formats = G_VALUE_INIT, item = G_VALUE_INIT;
  gboolean v210 = FALSE, planar = FALSE;
  guint i, n;

  if (!have || (!G_VALUE_HOLDS_STRING (have) && !GST_VALUE_HOLDS_LIST (have)))
    return;
  g_value_init (&formats, GST_TYPE_LIST);
  n = G_VALUE_HOLDS_STRING (have) ? 1 : gst_value_list_get_size (have);
  for (i = 0; i < n; i++) {
    const GValue *v = G_VALUE_HOLDS_STRING (have) ? have :
        gst_value_list_get_value (have, i);
    const gchar *name = G_VALUE_HOLDS_STRING (v) ? g_value_get_string (v) : "";

    v210 |= g_str_equal (name, "v210");
    planar |= g_str_equal (name, "I422_10LE");
    if (!to_device || !g_str_equal (name, "v210"))
      gst_value_list_append_value (&formats, v);
  }
  g_value_init (&item, G_TYPE_STRING);
  if (to_device && v210 && !planar) {
    g_value_set_static_string (&item, "I422_10LE");
    gst_value_list_append_value (&formats, &item);
  } else if (!to_device && planar && !v210) {
    g_value_set_static_string (&item, "v210");
    gst_value_list_append_value (&formats, &item);
  }
  g_value_unset (&item);
  if (gst_value_list_get_size (&formats) == 1)
    gst_structure_set_value (s, "format", gst_value_list_get_value (&formats,
            0));
  else if (gst_value_list_get_size (&formats) > 1)
    gst_structure_set_value (s, "format", &formats);
  g_value_unset (&formats);
}

/**
 * gst_cuda_fx_caps_transfer:
 * @caps: caps (not taken)
 * @to_device: the direction of the transfer
 *
 * Returns: (transfer full): @caps on the other side of an upload
 * (@to_device) or a download; v210 crosses as I422_10LE.
 */
GstCaps *
gst_cuda_fx_caps_transfer (GstCaps * caps, gboolean to_device)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gboolean device = f && (gst_caps_features_contains (f,
            GST_CAPS_FEATURE_MEMORY_CUDA_FX)
        || gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CUDA));
    GstCaps *one = gst_caps_new_empty ();
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));

    if (device != to_device)
      map_v210 (s, to_device);
    gst_caps_append_structure_full (one, s, device == to_device ? (f ? gst_caps_features_copy (f) : NULL) :
        gst_caps_features_new (to_device ? GST_CAPS_FEATURE_MEMORY_CUDA_FX :
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY, NULL));
    if (device != to_device && to_device)
      one = gst_cuda_fx_caps_add_interop (one);
    ret = gst_caps_merge (ret, one);
  }
  return ret;
}

/**
 * gst_cuda_fx_caps_to_device:
 * @caps: caps (not taken)
 *
 * Returns: (transfer full): @caps in our device memory and, where
 * GStreamer's CUDA library is loaded, in its CUDA memory too.
 */
GstCaps *
gst_cuda_fx_caps_to_device (GstCaps * caps)
{
  return gst_cuda_fx_caps_add_interop (gst_cuda_fx_caps_set_features (caps,
          GST_CAPS_FEATURE_MEMORY_CUDA_FX));
}

static void
add_template (GstElementClass * klass, const gchar * name,
    GstPadDirection direction, const gchar * caps_string)
{
  GstCaps *caps = gst_cuda_fx_caps_add_interop (gst_caps_from_string
      (caps_string));

  gst_element_class_add_pad_template (klass, gst_pad_template_new (name,
          direction, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

void
gst_cuda_fx_element_class_add_pad_templates (GstElementClass * klass,
    const gchar * sink_caps, const gchar * src_caps)
{
  add_template (klass, "sink", GST_PAD_SINK, sink_caps);
  add_template (klass, "src", GST_PAD_SRC, src_caps);
}

/* ---- frame rates and interlace modes ---------------------------------- */

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

gboolean
gst_cuda_fx_structure_scale_framerate (GstStructure * s, gint num,
    gint den)
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

gboolean
gst_cuda_fx_structure_interlace_mode_possible (const GstStructure * s,
    const gchar * mode)
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

void
gst_cuda_fx_structure_set_interlace_modes (GstStructure * s,
    const gchar * const *modes)
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

