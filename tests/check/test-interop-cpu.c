/* CPU suite: the door to GStreamer's CUDA library (gst-plugins-bad's
 * libgstcuda-1.0, nvcodec's memory and context) opens exactly where that
 * library can be loaded and finds the CUDA driver it needs. Run twice by
 * meson: as the machine is, and with
 * GST_CUDA_FX_NO_INTEROP=1, which makes the plugin behave as if the library
 * were not installed. Either way the plugin loads and registers every
 * element; `memory:CUDAMemory` is in the templates and caps only with the
 * library. Needs no GPU. */
#include "cfx-test.h"

#include <gst/cudafx.h>
#include <gmodule.h>
#include <string.h>

static gboolean expect_interop;

static const gchar *filters[] = { "cudaluma", "cudablur", "cudadeinterlace",
  "cudadegrain", NULL
};

static gboolean
caps_have_feature (GstCaps * caps, const gchar * feature)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && gst_caps_features_contains (f, feature))
      return TRUE;
  }
  return FALSE;
}

static GstCaps *
template_caps (const gchar * factory, const gchar * pad)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  const GList *l;
  GstCaps *caps = NULL;

  fail_unless (f != NULL, "%s is not registered", factory);
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;

    if (strcmp (t->name_template, pad) == 0)
      caps = gst_static_caps_get (&t->static_caps);
  }
  gst_object_unref (f);
  fail_unless (caps != NULL);
  return caps;
}

GST_START_TEST (test_library_detection)
{
  fail_unless (!gst_cuda_fx_interop_available () == !expect_interop);
}

GST_END_TEST;

/* Filters take and give our memory first and GStreamer's CUDA memory
 * second; upload gives it, download takes it */
GST_START_TEST (test_templates)
{
  struct
  {
    const gchar *factory, *pad;
  } with[] = { {"cudafxupload", "src"}, {"cudafxupload", "sink"},
  {"cudafxdownload", "sink"}
  };
  guint i;

  for (i = 0; filters[i]; i++) {
    GstCaps *sink = template_caps (filters[i], "sink");
    GstCaps *src = template_caps (filters[i], "src");

    fail_unless (caps_have_feature (sink, GST_CAPS_FEATURE_MEMORY_CUDA_FX));
    fail_unless (!caps_have_feature (sink, GST_CAPS_FEATURE_MEMORY_CUDA) ==
        !expect_interop, "%s sink", filters[i]);
    fail_unless (!caps_have_feature (src, GST_CAPS_FEATURE_MEMORY_CUDA) ==
        !expect_interop, "%s src", filters[i]);
    gst_caps_unref (sink);
    gst_caps_unref (src);
  }
  for (i = 0; i < G_N_ELEMENTS (with); i++) {
    GstCaps *caps = template_caps (with[i].factory, with[i].pad);

    fail_unless (!caps_have_feature (caps, GST_CAPS_FEATURE_MEMORY_CUDA) ==
        !expect_interop, "%s %s", with[i].factory, with[i].pad);
    gst_caps_unref (caps);
  }
}

GST_END_TEST;

/* Caps through a filter: CUDAMemory in, both memories out (ours first);
 * system memory into the upload: both out; CUDAMemory into the upload
 * passes through; into the download: system memory */
GST_START_TEST (test_caps_transforms)
{
  const gchar *fmt = "format=NV12,width=64,height=48,framerate=25/1";
  gchar *theirs_str = g_strdup_printf ("video/x-raw(memory:CUDAMemory),%s",
      fmt);
  gchar *sys_str = g_strdup_printf ("video/x-raw,%s", fmt);
  GstCaps *theirs = gst_caps_from_string (theirs_str);
  GstCaps *sys = gst_caps_from_string (sys_str);
  guint i;

  for (i = 0; filters[i]; i++) {
    GstElement *e = gst_element_factory_make (filters[i], NULL);
    GstPad *sink = gst_element_get_static_pad (e, "sink");

    fail_unless (!gst_pad_query_accept_caps (sink, theirs) == !expect_interop,
        "%s", filters[i]);
    gst_object_unref (sink);
    gst_object_unref (e);
  }
  if (expect_interop) {
    GstElement *e = gst_element_factory_make ("cudablur", NULL);
    GstPad *sink = gst_element_get_static_pad (e, "sink");
    GstPad *src = gst_element_get_static_pad (e, "src");
    GstCaps *out;

    /* what the src pad can give for CUDAMemory in: ours, then theirs */
    out = gst_pad_query_caps (src, NULL);
    fail_unless (caps_have_feature (out, GST_CAPS_FEATURE_MEMORY_CUDA));
    fail_unless (gst_caps_features_contains (gst_caps_get_features (out, 0),
            GST_CAPS_FEATURE_MEMORY_CUDA_FX));
    gst_caps_unref (out);
    gst_object_unref (sink);
    gst_object_unref (src);
    gst_object_unref (e);

    e = gst_element_factory_make ("cudafxupload", NULL);
    sink = gst_element_get_static_pad (e, "sink");
    fail_unless (gst_pad_query_accept_caps (sink, sys));
    fail_unless (gst_pad_query_accept_caps (sink, theirs));
    gst_object_unref (sink);
    gst_object_unref (e);
    e = gst_element_factory_make ("cudafxdownload", NULL);
    sink = gst_element_get_static_pad (e, "sink");
    fail_unless (gst_pad_query_accept_caps (sink, theirs));
    gst_object_unref (sink);
    gst_object_unref (e);
  }
  gst_caps_unref (theirs);
  gst_caps_unref (sys);
  g_free (theirs_str);
  g_free (sys_str);
}

GST_END_TEST;

static Suite *
interop_suite (void)
{
  Suite *s = suite_create ("cudafx-interop-cpu");
  TCase *tc = cfx_test_tcase ("interop");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_library_detection);
  tcase_add_test (tc, test_templates);
  tcase_add_test (tc, test_caps_transforms);
  return s;
}

/* Whether a library can be loaded here */
static gboolean
loadable (const gchar * name)
{
  GModule *m = g_module_open (name, G_MODULE_BIND_LAZY);

  if (m)
    g_module_close (m);
  return m != NULL;
}

int
main (int argc, char **argv)
{
  /* what the plugin should find: the library, which needs the CUDA driver
   * to work at all, unless told not to look */
  gboolean lib = loadable ("libgstcuda-1.0.so.0");
  gboolean driver = loadable ("libcuda.so.1");

  expect_interop = lib && driver
      && g_strcmp0 (g_getenv ("GST_CUDA_FX_NO_INTEROP"), "1") != 0;
  g_print ("libgstcuda-1.0 %s, CUDA driver %s, GST_CUDA_FX_NO_INTEROP=%s: "
      "expecting %s\n", lib ? "installed" : "not installed",
      driver ? "installed" : "not installed",
      g_getenv ("GST_CUDA_FX_NO_INTEROP") ? g_getenv ("GST_CUDA_FX_NO_INTEROP")
      : "(unset)", expect_interop ? "the door open" : "no door");
  if (!cfx_test_init (&argc, &argv))
    return 1;
  return cfx_test_run_suite (interop_suite ());
}
