/* CPU suite for cudadeinterlace (no GPU needed, runs in CI): properties,
 * the pad templates (device memory only), the caps transforms in both
 * directions for every mode and fields setting, fixed and unfixed (the
 * templates' framerate range saturates instead of vanishing), linking
 * between cudafxupload and cudafxdownload in every mode, alternate
 * refused at negotiation (and with a clear message should it reach
 * set_caps), too-small caps refused at caps time with a clear message,
 * passthrough decisions, and the latency answer. The element is never
 * started (that needs a device): its GstBaseTransform vfuncs and pads are
 * driven directly. */
#include "cfx-test.h"

#include <gst/cudafx.h>

#include <string.h>

#define CAPS(fields) "video/x-raw(memory:CUDAFxMemory),format=I420," \
  "width=64,height=48," fields

static GstElement *
new_element (const gchar * props)
{
  gchar *launch = g_strdup_printf ("cudadeinterlace %s", props ? props : "");
  GError *error = NULL;
  GstElement *e = gst_parse_launch (launch, &error);

  fail_unless (e != NULL, "%s: %s", launch, error ? error->message : "?");
  g_free (launch);
  return e;
}

static GstCaps *
transform (GstElement * e, GstPadDirection direction, const gchar * caps_str)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GstCaps *caps = gst_caps_from_string (caps_str), *ret;

  fail_unless (caps != NULL, "bad caps %s", caps_str);
  ret = GST_BASE_TRANSFORM_GET_CLASS (trans)->transform_caps (trans,
      direction, caps, NULL);
  gst_caps_unref (caps);
  return ret;
}

/* sink caps in, src caps out: exactly @want */
static void
expect_src_caps (const gchar * props, const gchar * in, const gchar * want)
{
  GstElement *e = new_element (props);
  GstCaps *got = transform (e, GST_PAD_SINK, in);
  GstCaps *w = gst_caps_from_string (want);

  gchar *gs = gst_caps_to_string (got), *ws = gst_caps_to_string (w);

  fail_unless (gst_caps_is_equal (got, w), "%s: %s -> %s, expected %s",
      props ? props : "", in, gs, ws);
  g_free (gs);
  g_free (ws);
  gst_caps_unref (got);
  gst_caps_unref (w);
  gst_object_unref (e);
}

GST_START_TEST (test_properties)
{
  GstElement *e = new_element (NULL);
  GParamSpec *pspec;
  gint method, fields, tff, mode;
  gboolean sc;
  struct
  {
    const gchar *name;
    gboolean playing;
  } props[] = { {"method", TRUE}, {"tff", TRUE}, {"spatial-check", TRUE},
  {"fields", FALSE}, {"mode", FALSE}
  };
  guint i;

  g_object_get (e, "method", &method, "fields", &fields, "tff", &tff,
      "mode", &mode, "spatial-check", &sc, NULL);
  fail_unless_equals_int (method, 0);   /* bwdif */
  fail_unless_equals_int (fields, 0);   /* all */
  fail_unless_equals_int (tff, 0);      /* auto */
  fail_unless_equals_int (mode, 0);     /* auto */
  fail_unless (sc);

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        props[i].name);
    fail_unless (pspec != NULL, "no property %s", props[i].name);
    fail_unless (g_param_spec_get_blurb (pspec) != NULL
        && strlen (g_param_spec_get_blurb (pspec)) > 20);
    fail_unless_equals_int (!!(pspec->flags & GST_PARAM_MUTABLE_PLAYING),
        props[i].playing);
    if (!props[i].playing)
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY);
  }

  /* by nick, as gst-launch sets them */
  gst_util_set_object_arg (G_OBJECT (e), "method", "yadif");
  gst_util_set_object_arg (G_OBJECT (e), "fields", "bottom");
  gst_util_set_object_arg (G_OBJECT (e), "tff", "bff");
  gst_util_set_object_arg (G_OBJECT (e), "mode", "interlaced");
  gst_util_set_object_arg (G_OBJECT (e), "spatial-check", "false");
  g_object_get (e, "method", &method, "fields", &fields, "tff", &tff,
      "mode", &mode, "spatial-check", &sc, NULL);
  fail_unless_equals_int (method, 1);
  fail_unless_equals_int (fields, 2);
  fail_unless_equals_int (tff, 2);
  fail_unless_equals_int (mode, 1);
  fail_unless (!sc);
  gst_util_set_object_arg (G_OBJECT (e), "method", "ela");
  g_object_get (e, "method", &method, NULL);
  fail_unless_equals_int (method, 2);
  gst_util_set_object_arg (G_OBJECT (e), "method", "linear");
  g_object_get (e, "method", &method, NULL);
  fail_unless_equals_int (method, 3);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_caps_sink_to_src)
{
  /* interlaced in: progressive out, field rate, no field order */
  expect_src_caps (NULL, CAPS ("framerate=25/1,interlace-mode=interleaved,"
          "field-order=top-field-first"),
      CAPS ("framerate=50/1,interlace-mode=progressive"));
  expect_src_caps (NULL, CAPS ("framerate=30000/1001,interlace-mode=mixed"),
      CAPS ("framerate=60000/1001,interlace-mode=progressive"));
  /* progressive in: passthrough */
  expect_src_caps (NULL, CAPS ("framerate=25/1,interlace-mode=progressive"),
      CAPS ("framerate=25/1,interlace-mode=progressive"));
  /* fixed caps without interlace-mode are progressive */
  expect_src_caps (NULL, CAPS ("framerate=25/1"),
      CAPS ("framerate=25/1,interlace-mode=progressive"));
  /* frame rate output */
  expect_src_caps ("fields=top", CAPS ("framerate=25/1,"
          "interlace-mode=interleaved"),
      CAPS ("framerate=25/1,interlace-mode=progressive"));
  expect_src_caps ("fields=bottom", CAPS ("framerate=25/1,"
          "interlace-mode=interleaved,field-order=bottom-field-first"),
      CAPS ("framerate=25/1,interlace-mode=progressive"));
  /* forced: progressive frames are deinterlaced too */
  expect_src_caps ("mode=interlaced", CAPS ("framerate=25/1,"
          "interlace-mode=progressive"),
      CAPS ("framerate=50/1,interlace-mode=progressive"));
  /* disabled: untouched */
  expect_src_caps ("mode=disabled", CAPS ("framerate=25/1,"
          "interlace-mode=interleaved,field-order=top-field-first"),
      CAPS ("framerate=25/1,interlace-mode=interleaved,"
          "field-order=top-field-first"));
  /* ranges and lists of rates, variable rate */
  expect_src_caps (NULL, CAPS ("framerate=[25/1,30/1],"
          "interlace-mode=interleaved"),
      CAPS ("framerate=[50/1,60/1],interlace-mode=progressive"));
  expect_src_caps (NULL, CAPS ("framerate={25/1,30000/1001},"
          "interlace-mode=interleaved"),
      CAPS ("framerate={50/1,60000/1001},interlace-mode=progressive"));
  expect_src_caps (NULL, CAPS ("framerate=0/1,interlace-mode=interleaved"),
      CAPS ("framerate=0/1,interlace-mode=progressive"));
}

GST_END_TEST;

/* What the upload's src pad and the download's sink pad offer before
 * anything is fixed */
#define UNFIXED_DEVICE "video/x-raw(memory:CUDAFxMemory)," \
  "format={UYVY,YUY2,I420,YV12,NV12,Y42B,Y444,GRAY8}," \
  "width=[1,2147483647],height=[1,2147483647],framerate=[0/1,2147483647/1]"
#define UNFIXED_SYSTEM "video/x-raw," \
  "format={UYVY,YUY2,I420,YV12,NV12,Y42B,Y444,GRAY8}," \
  "width=[1,2147483647],height=[1,2147483647],framerate=[0/1,2147483647/1]"

static gboolean
structure_is_alternate (const GstStructure * s)
{
  const gchar *im = gst_structure_get_string (s, "interlace-mode");

  return im && strcmp (im, "alternate") == 0;
}

/* every structure with memory:CUDAFxMemory and nothing else, none
 * alternate */
static void
expect_device_only (GstCaps * caps, const gchar * what)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gchar *fs = gst_caps_features_to_string (f);

    fail_unless_equals_string (fs, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
    fail_if (structure_is_alternate (gst_caps_get_structure (caps, i)),
        "%s: alternate in %" GST_PTR_FORMAT, what, caps);
    g_free (fs);
  }
}

GST_START_TEST (test_pad_templates)
{
  GstElement *e = new_element (NULL);
  const gchar *pads[] = { "sink", "src" };
  guint p;

  for (p = 0; p < G_N_ELEMENTS (pads); p++) {
    GstPad *pad = gst_element_get_static_pad (e, pads[p]);
    GstCaps *templ = gst_pad_get_pad_template_caps (pad);

    fail_unless (gst_caps_get_size (templ) >= 1);
    expect_device_only (templ, pads[p]);
    gst_caps_unref (templ);
    gst_object_unref (pad);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* Alternate (one field per buffer) never negotiates: no output caps for
 * it, none offered upstream, and the sink pad does not accept it */
GST_START_TEST (test_alternate_refused_at_negotiation)
{
  const gchar *alternates[] = {
    "video/x-raw(memory:CUDAFxMemory,format:Interlaced),format=I420,"
        "width=64,height=48,framerate=25/1,interlace-mode=alternate",
    "video/x-raw(memory:CUDAFxMemory),format=I420,width=64,height=48,"
        "framerate=25/1,interlace-mode=alternate",
  };
  const gchar *modes[] = { "mode=auto", "mode=interlaced", "fields=top" };
  guint i, m;

  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    GstElement *e = new_element (modes[m]);
    GstPad *sink = gst_element_get_static_pad (e, "sink");
    GstCaps *got;

    for (i = 0; i < G_N_ELEMENTS (alternates); i++) {
      GstCaps *caps = gst_caps_from_string (alternates[i]);

      got = transform (e, GST_PAD_SINK, alternates[i]);
      fail_unless (gst_caps_is_empty (got), "%s: %s -> %" GST_PTR_FORMAT,
          modes[m], alternates[i], got);
      gst_caps_unref (got);
      fail_if (gst_pad_query_accept_caps (sink, caps), "%s accepts %s",
          modes[m], alternates[i]);
      gst_caps_unref (caps);
    }
    /* nothing alternate offered upstream, fixed or not */
    got = transform (e, GST_PAD_SRC, CAPS ("framerate=50/1,"
            "interlace-mode=progressive"));
    fail_if (gst_caps_is_empty (got));
    expect_device_only (got, modes[m]);
    gst_caps_unref (got);
    got = transform (e, GST_PAD_SRC, UNFIXED_DEVICE);
    fail_if (gst_caps_is_empty (got));
    expect_device_only (got, modes[m]);
    gst_caps_unref (got);
    gst_object_unref (sink);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* Unfixed caps both ways: the templates' framerate range [0, max] doubled
 * saturates at max (it used to overflow and leave no caps at all in
 * mode=interlaced: "could not link cudafxdeinterlace to cudafxdownload") */
GST_START_TEST (test_unfixed_caps)
{
  const gchar *props[] = { "mode=auto", "mode=interlaced", "mode=disabled",
    "mode=auto fields=top", "mode=interlaced fields=bottom"
  };
  GstCaps *download_sink = gst_caps_from_string (UNFIXED_DEVICE ";"
      UNFIXED_SYSTEM);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    GstElement *e = new_element (props[i]);
    GstCaps *src = transform (e, GST_PAD_SINK, UNFIXED_DEVICE);
    GstCaps *sink = transform (e, GST_PAD_SRC, UNFIXED_DEVICE ";"
        UNFIXED_SYSTEM);

    fail_unless (gst_caps_can_intersect (src, download_sink),
        "%s: %" GST_PTR_FORMAT, props[i], src);
    fail_if (gst_caps_is_empty (sink), "%s: nothing upstream", props[i]);
    expect_device_only (src, props[i]);
    expect_device_only (sink, props[i]);
    gst_caps_unref (src);
    gst_caps_unref (sink);
    gst_object_unref (e);
  }
  gst_caps_unref (download_sink);

  /* the doubled range: [25, max] -> [50, max]; a fixed rate that cannot
   * double has no output */
  expect_src_caps ("mode=interlaced", CAPS ("framerate=[25/1,2147483647/1],"
          "interlace-mode=interleaved"),
      CAPS ("framerate=[50/1,2147483647/1],interlace-mode=progressive"));
  expect_src_caps ("mode=interlaced", CAPS ("framerate=[0/1,2147483647/1],"
          "interlace-mode=interleaved"),
      CAPS ("framerate=[0/1,2147483647/1],interlace-mode=progressive"));
  expect_src_caps (NULL, CAPS ("framerate=2147483647/1,"
          "interlace-mode=interleaved"), "EMPTY");
}

GST_END_TEST;

/* What gst-launch does with the element between the copy elements: links
 * in every mode (no device needed to link) */
GST_START_TEST (test_links_between_copy_elements)
{
  const gchar *props[] = { "", "mode=interlaced", "mode=disabled",
    "fields=top", "mode=interlaced fields=bottom", "method=yadif",
    "method=linear mode=interlaced"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    gchar *launch = g_strdup_printf ("cudafxupload ! cudadeinterlace %s ! "
        "cudafxdownload", props[i]);
    GError *error = NULL;
    GstElement *bin = gst_parse_launch (launch, &error);

    fail_unless (bin != NULL && error == NULL, "%s: %s", launch,
        error ? error->message : "?");
    gst_object_unref (bin);
    g_free (launch);
  }
}

GST_END_TEST;

GST_START_TEST (test_caps_src_to_sink)
{
  GstElement *e = new_element (NULL);
  GstCaps *got, *want;

  /* progressive 50p out: interleaved or mixed 25i in, or 50p passed
   * through */
  got = transform (e, GST_PAD_SRC, CAPS ("framerate=50/1,"
          "interlace-mode=progressive"));
  want = gst_caps_from_string (CAPS ("framerate=25/1,"
          "interlace-mode=interleaved,field-order=top-field-first"));
  fail_unless (gst_caps_can_intersect (got, want));
  gst_caps_unref (want);
  want = gst_caps_from_string (CAPS ("framerate=25/1,interlace-mode=mixed"));
  fail_unless (gst_caps_can_intersect (got, want));
  gst_caps_unref (want);
  want = gst_caps_from_string (CAPS ("framerate=50/1,"
          "interlace-mode=progressive"));
  fail_unless (gst_caps_can_intersect (got, want));
  gst_caps_unref (want);
  /* not 50i in, and not 25p */
  want = gst_caps_from_string (CAPS ("framerate=50/1,"
          "interlace-mode=interleaved"));
  fail_unless (!gst_caps_can_intersect (got, want));
  gst_caps_unref (want);
  want = gst_caps_from_string (CAPS ("framerate=25/1,"
          "interlace-mode=progressive"));
  fail_unless (!gst_caps_can_intersect (got, want));
  gst_caps_unref (want);
  gst_caps_unref (got);

  /* we never output interlaced frames */
  got = transform (e, GST_PAD_SRC, CAPS ("framerate=50/1,"
          "interlace-mode=interleaved"));
  fail_unless (gst_caps_is_empty (got));
  gst_caps_unref (got);
  gst_object_unref (e);

  /* frame rate: the same rate on both sides */
  e = new_element ("fields=top");
  got = transform (e, GST_PAD_SRC, CAPS ("framerate=25/1,"
          "interlace-mode=progressive"));
  want = gst_caps_from_string (CAPS ("framerate=25/1,"
          "interlace-mode=interleaved"));
  fail_unless (gst_caps_can_intersect (got, want));
  gst_caps_unref (want);
  gst_caps_unref (got);
  gst_object_unref (e);
}

GST_END_TEST;

/* set_caps straight on the element (no device needed); returns its verdict
 * and the error message posted, if any */
static gboolean
try_set_caps (GstElement * e, const gchar * in, gchar ** message)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GstBus *bus = gst_bus_new ();
  GstCaps *incaps = gst_caps_from_string (in), *outcaps;
  GstMessage *msg;
  gboolean ret;

  gst_element_set_bus (e, bus);
  outcaps = GST_BASE_TRANSFORM_GET_CLASS (trans)->transform_caps (trans,
      GST_PAD_SINK, incaps, NULL);
  if (gst_caps_is_empty (outcaps)) {
    /* caps negotiation would refuse (alternate): set them anyway, as an
     * application calling set_caps could, with progressive output caps */
    fail_unless (structure_is_alternate (gst_caps_get_structure (incaps,
                0)), "no output caps for %s", in);
    gst_caps_unref (outcaps);
    outcaps = gst_caps_copy (incaps);
    gst_caps_set_features (outcaps, 0,
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_FX, NULL));
    gst_caps_set_simple (outcaps, "interlace-mode", G_TYPE_STRING,
        "progressive", NULL);
  }
  outcaps = gst_caps_fixate (outcaps);
  ret = GST_BASE_TRANSFORM_GET_CLASS (trans)->set_caps (trans, incaps, outcaps);
  *message = NULL;
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    *message = g_strdup (err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
  }
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_caps_unref (incaps);
  gst_caps_unref (outcaps);
  return ret;
}

static void
expect_refused (const gchar * props, const gchar * in, const gchar * needle)
{
  GstElement *e = new_element (props);
  gchar *message;

  fail_if (try_set_caps (e, in, &message), "%s accepted", in);
  fail_unless (message != NULL, "no error message for %s", in);
  fail_unless (strstr (message, needle) != NULL, "'%s' lacks '%s'",
      message, needle);
  g_free (message);
  gst_object_unref (e);
}

static void
expect_accepted (const gchar * props, const gchar * in, gboolean passthrough)
{
  GstElement *e = new_element (props);
  gchar *message;

  fail_unless (try_set_caps (e, in, &message), "%s %s refused: %s",
      props ? props : "", in, message);
  fail_unless (message == NULL);
  fail_unless_equals_int (gst_base_transform_is_passthrough
      (GST_BASE_TRANSFORM (e)), passthrough);
  gst_object_unref (e);
}

#define SIZED(fmt, w, h, rest) "video/x-raw(memory:CUDAFxMemory),format=" \
  fmt ",width=" #w ",height=" #h ",framerate=25/1," rest

GST_START_TEST (test_refusals_and_sizes)
{
  /* one field per buffer: refused at negotiation (above); should such caps
   * reach set_caps anyway, refused with a clear message */
  expect_refused (NULL, "video/x-raw(memory:CUDAFxMemory,format:Interlaced),"
      "format=I420,width=64,height=48,framerate=25/1,"
      "interlace-mode=alternate", "interlace-mode=alternate");
  expect_refused (NULL, "video/x-raw(memory:CUDAFxMemory),format=NV12,"
      "width=64,height=48,framerate=25/1,interlace-mode=alternate",
      "alternate");

  /* bwdif: every plane's channels 3 wide, 4 high */
  expect_accepted (NULL, SIZED ("GRAY8", 3, 4, "interlace-mode=interleaved"),
      FALSE);
  expect_refused (NULL, SIZED ("GRAY8", 2, 4, "interlace-mode=interleaved"),
      "too small");
  expect_refused (NULL, SIZED ("GRAY8", 3, 3, "interlace-mode=interleaved"),
      "too small");
  expect_accepted (NULL, SIZED ("I420", 6, 8, "interlace-mode=interleaved"),
      FALSE);
  expect_accepted (NULL, SIZED ("I420", 5, 7, "interlace-mode=interleaved"),
      FALSE);
  expect_refused (NULL, SIZED ("I420", 4, 8, "interlace-mode=interleaved"),
      "too small");
  expect_refused (NULL, SIZED ("NV12", 6, 6, "interlace-mode=interleaved"),
      "too small");
  expect_accepted (NULL, SIZED ("UYVY", 5, 4, "interlace-mode=interleaved"),
      FALSE);
  expect_refused (NULL, SIZED ("YUY2", 4, 4, "interlace-mode=interleaved"),
      "too small");
  expect_accepted (NULL, SIZED ("Y444", 3, 4, "interlace-mode=mixed"), FALSE);
  expect_accepted (NULL, SIZED ("Y42B", 5, 4, "interlace-mode=interleaved"),
      FALSE);
  expect_refused (NULL, SIZED ("Y42B", 4, 4, "interlace-mode=interleaved"),
      "too small");

  /* yadif: 3 x 3 */
  expect_accepted ("method=yadif", SIZED ("GRAY8", 3, 3,
          "interlace-mode=interleaved"), FALSE);
  expect_refused ("method=yadif", SIZED ("I420", 6, 4,
          "interlace-mode=interleaved"), "too small");
  expect_accepted ("method=yadif", SIZED ("I420", 6, 5,
          "interlace-mode=interleaved"), FALSE);
  /* the intra-field modes: two rows */
  expect_accepted ("method=linear", SIZED ("GRAY8", 1, 2,
          "interlace-mode=interleaved"), FALSE);
  expect_refused ("method=ela", SIZED ("GRAY8", 1, 1,
          "interlace-mode=interleaved"), "too small");

  /* passthrough decisions: any size passes through */
  expect_accepted (NULL, SIZED ("I420", 64, 48, "interlace-mode=progressive"),
      TRUE);
  expect_accepted (NULL, SIZED ("GRAY8", 1, 1, "interlace-mode=progressive"),
      TRUE);
  expect_accepted ("mode=disabled", SIZED ("I420", 64, 48,
          "interlace-mode=interleaved"), TRUE);
  expect_accepted ("mode=interlaced", SIZED ("I420", 64, 48,
          "interlace-mode=progressive"), FALSE);
}

GST_END_TEST;

static gboolean
upstream_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    gst_query_set_latency (query, TRUE, 10 * GST_MSECOND, 100 * GST_MSECOND);
    return TRUE;
  }
  return gst_pad_query_default (pad, parent, query);
}

static void
expect_latency (const gchar * props, const gchar * in, GstClockTime min,
    GstClockTime max)
{
  GstElement *e = new_element (props);
  GstPad *up = gst_pad_new ("up", GST_PAD_SRC);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstQuery *q = gst_query_new_latency ();
  GstClockTime got_min, got_max;
  gboolean live;
  gchar *message;

  gst_pad_set_query_function (up, upstream_query);
  fail_unless_equals_int (gst_pad_link (up, sink), GST_PAD_LINK_OK);
  fail_unless (try_set_caps (e, in, &message));
  fail_unless (gst_pad_query (src, q));
  gst_query_parse_latency (q, &live, &got_min, &got_max);
  fail_unless (live);
  fail_unless_equals_uint64 (got_min, min);
  fail_unless_equals_uint64 (got_max, max);
  gst_query_unref (q);
  gst_pad_unlink (up, sink);
  gst_object_unref (up);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (e);
}

GST_START_TEST (test_latency)
{
  /* one input frame of look-ahead on top of upstream's */
  expect_latency (NULL, SIZED ("I420", 64, 48, "interlace-mode=interleaved"),
      50 * GST_MSECOND, 140 * GST_MSECOND);
  expect_latency ("fields=top", SIZED ("UYVY", 64, 48,
          "interlace-mode=mixed"), 50 * GST_MSECOND, 140 * GST_MSECOND);
  /* passthrough: nothing added */
  expect_latency (NULL, SIZED ("I420", 64, 48, "interlace-mode=progressive"),
      10 * GST_MSECOND, 100 * GST_MSECOND);
}

GST_END_TEST;

static Suite *
deinterlace_cpu_suite (void)
{
  Suite *s = suite_create ("cudadeinterlace (CPU)");
  TCase *tc = cfx_test_tcase ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_pad_templates);
  tcase_add_test (tc, test_alternate_refused_at_negotiation);
  tcase_add_test (tc, test_unfixed_caps);
  tcase_add_test (tc, test_links_between_copy_elements);
  tcase_add_test (tc, test_caps_sink_to_src);
  tcase_add_test (tc, test_caps_src_to_sink);
  tcase_add_test (tc, test_refusals_and_sizes);
  tcase_add_test (tc, test_latency);
  return s;
}

int
main (int argc, char **argv)
{
  /* these caps checks are about our memory alone: the variants in
   * GStreamer's CUDA memory are test-interop-cpu's */
  g_setenv ("GST_CUDA_FX_NO_INTEROP", "1", TRUE);
  if (!cfx_test_init (&argc, &argv))
    return 1;
  return cfx_test_run_suite (deinterlace_cpu_suite ());
}
