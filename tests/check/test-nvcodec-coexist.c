/* CPU suite: our plugin and gst-plugins-bad's nvcodec in one process.
 *
 * cfx_test_init loads ours; the first test loads nvcodec. A GType name,
 * allocator or caps feature the two shared would show up as a GLib warning
 * or critical (fatal under gst-check) or as one type answering for both.
 * nvcodec registers its elements only where CUDA works (the GPU host);
 * without them, libgstcuda-1.0 (which nvcodec links) still defines
 * GstCudaContext, GstCudaAllocator and GstCudaBufferPool, and the test
 * registers those types itself, so the clash check runs everywhere.
 *
 * Skips (77) only when libgstnvcodec.so is not installed. */
#include "cfx-test.h"

#include <gst/cudafx.h>
#include <dlfcn.h>
#include <string.h>

static gboolean have_gpu;
static gboolean nvcodec_loaded;

/* nvcodec's element names that are also ours */
static const gchar *shared_names[] = { "cudaupload", "cudadownload", NULL };

/* libgstcuda-1.0 types, when this GStreamer has them */
static const gchar *libgstcuda_get_type[] = { "gst_cuda_context_get_type",
  "gst_cuda_allocator_get_type", "gst_cuda_buffer_pool_get_type",
  "gst_cuda_pool_allocator_get_type", "gst_cuda_stream_get_type",
  "gst_cuda_memory_pool_get_type", NULL
};

static const gchar *nvcodec_type_names[] = { "GstCudaUpload",
  "GstCudaDownload", "GstCudaContext", "GstCudaAllocator",
  "GstCudaBufferPool", NULL
};

#define NVCODEC_CAPS_FEATURE "memory:CUDAMemory"

static const gchar *
plugins_dir (void)
{
  return g_getenv ("CUDAFX_GST_PLUGINS_DIR");
}

static void
ensure_nvcodec (void)
{
  if (!nvcodec_loaded)
    fail_unless (cfx_test_load_system_plugin ("nvcodec"));
  nvcodec_loaded = TRUE;
}

static GType
factory_type (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);
  GstPluginFeature *loaded;
  GType type;

  fail_unless (f != NULL, "no factory %s", name);
  loaded = gst_plugin_feature_load (GST_PLUGIN_FEATURE (f));
  fail_unless (loaded != NULL, "cannot load %s", name);
  type = gst_element_factory_get_element_type (GST_ELEMENT_FACTORY (loaded));
  gst_object_unref (loaded);
  gst_object_unref (f);
  return type;
}

static const gchar *
factory_plugin (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);
  const gchar *plugin;

  fail_unless (f != NULL, "no factory %s", name);
  plugin = gst_plugin_feature_get_plugin_name (GST_PLUGIN_FEATURE (f));
  gst_object_unref (f);
  /* interned by the registry for the life of the process */
  return g_intern_string (plugin);
}

/* Element factory names of @plugin (free with g_strfreev) */
static gchar **
element_names (const gchar * plugin)
{
  GList *features, *l;
  GPtrArray *names = g_ptr_array_new ();

  features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
      plugin);
  for (l = features; l; l = l->next)
    if (GST_IS_ELEMENT_FACTORY (l->data))
      g_ptr_array_add (names, g_strdup (GST_OBJECT_NAME (l->data)));
  gst_plugin_feature_list_free (features);
  g_ptr_array_add (names, NULL);
  return (gchar **) g_ptr_array_free (names, FALSE);
}

static gboolean
nvcodec_has (const gchar * element)
{
  gchar **names = element_names ("nvcodec");
  gboolean ret = g_strv_contains ((const gchar * const *) names, element);

  g_strfreev (names);
  return ret;
}

/* Runs @desc to EOS; returns the error message of a failure, or NULL */
static gchar *
run_pipeline (const gchar * desc)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstMessage *msg;
  GstBus *bus;
  gchar *ret = NULL;

  fail_unless (pipeline != NULL, "%s: %s", desc, error ? error->message : "");
  g_clear_error (&error);
  bus = gst_element_get_bus (pipeline);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  else
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg) {
    ret = g_strdup ("no EOS within 60 s");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    ret = g_strdup_printf ("%s (%s)", error->message, debug ? debug : "");
    g_clear_error (&error);
    g_free (debug);
  }
  if (msg)
    gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_print ("%s: %s\n", desc, ret ? ret : "EOS");
  return ret;
}

GST_START_TEST (test_load_both)
{
  GstPlugin *plugin;

  ensure_nvcodec ();
  plugin = gst_registry_find_plugin (gst_registry_get (), "nvcodec");
  fail_unless (plugin != NULL);
  gst_object_unref (plugin);
  plugin = gst_registry_find_plugin (gst_registry_get (), "cudafx");
  fail_unless (plugin != NULL);
  gst_object_unref (plugin);

  g_print ("nvcodec registered %s of the shared element names\n",
      nvcodec_has ("cudaupload") ? "its elements, including" : "none");
}

GST_END_TEST;

GST_START_TEST (test_aliases_are_ours)
{
  const gchar *aliases[] = { "cudafxupload", "cudafxdownload", "cudaluma" };
  const gchar *types[] = { "GstCudaFxUpload", "GstCudaFxDownload",
    "GstCudaFxLuma"
  };
  guint i;

  ensure_nvcodec ();
  for (i = 0; i < G_N_ELEMENTS (aliases); i++) {
    GstElement *e = gst_element_factory_make (aliases[i], NULL);

    fail_unless (e != NULL, "cannot create %s", aliases[i]);
    fail_unless_equals_string (G_OBJECT_TYPE_NAME (e), types[i]);
    fail_unless_equals_string (factory_plugin (aliases[i]), "cudafx");
    gst_object_unref (e);
  }

  /* the shared names: nvcodec's where it registered them (the registry
   * keeps the last one), else still ours */
  for (i = 0; shared_names[i]; i++) {
    GstElement *e = gst_element_factory_make (shared_names[i], NULL);
    const gchar *type;

    fail_unless (e != NULL, "cannot create %s", shared_names[i]);
    type = G_OBJECT_TYPE_NAME (e);
    g_print ("%s is %s from %s\n", shared_names[i], type,
        factory_plugin (shared_names[i]));
    if (nvcodec_has (shared_names[i])) {
      fail_unless_equals_string (factory_plugin (shared_names[i]), "nvcodec");
      fail_if (g_str_has_prefix (type, "GstCudaFx"), "%s", type);
    } else {
      fail_unless_equals_string (factory_plugin (shared_names[i]), "cudafx");
      fail_unless (g_str_has_prefix (type, "GstCudaFx"), "%s", type);
    }
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* No type of one plugin is a type of the other; both kinds instantiate */
GST_START_TEST (test_types_distinct)
{
  gchar **ours, **theirs;
  void *libgstcuda;
  GType our_types[] = { GST_TYPE_CUDA_FX_CONTEXT, GST_TYPE_CUDA_FX_ALLOCATOR,
    GST_TYPE_CUDA_FX_BUFFER_POOL, GST_TYPE_CUDA_FX_HOST_ALLOCATOR,
    GST_TYPE_CUDA_FX_FILTER
  };
  guint i, j, n_theirs = 0;

  ensure_nvcodec ();

  /* libgstcuda's types, registered here even without CUDA: GLib would
   * warn (fatal here) on a name ours took */
  libgstcuda = dlopen ("libgstcuda-1.0.so.0", RTLD_LAZY | RTLD_LOCAL);
  if (libgstcuda) {
    for (i = 0; libgstcuda_get_type[i]; i++) {
      GType (*get_type) (void) = NULL;

      *(void **) (&get_type) = dlsym (libgstcuda, libgstcuda_get_type[i]);
      if (get_type) {
        GType t = get_type ();
        guint k;

        g_print ("libgstcuda-1.0: %s\n", g_type_name (t));
        fail_if (g_str_has_prefix (g_type_name (t), "GstCudaFx"));
        for (k = 0; k < G_N_ELEMENTS (our_types); k++)
          fail_if (t == our_types[k] || g_type_is_a (t, our_types[k])
              || g_type_is_a (our_types[k], t), "%s vs %s", g_type_name (t),
              g_type_name (our_types[k]));
        n_theirs++;
      }
    }
    /* registered types stay: the library is never unloaded */
  } else {
    g_print ("libgstcuda-1.0 not loadable here: %s\n", dlerror ());
  }
  for (i = 0; i < G_N_ELEMENTS (our_types); i++)
    fail_unless (g_str_has_prefix (g_type_name (our_types[i]), "GstCudaFx"));
  for (i = 0; nvcodec_type_names[i]; i++) {
    GType t = g_type_from_name (nvcodec_type_names[i]);

    if (t)
      for (j = 0; j < G_N_ELEMENTS (our_types); j++)
        fail_if (g_type_is_a (t, our_types[j]));
  }

  ours = element_names ("cudafx");
  theirs = element_names ("nvcodec");
  fail_unless (g_strv_length (ours) >= 3);
  for (i = 0; ours[i]; i++) {
    /* a shared name now means nvcodec's: ours are under the aliases */
    if (g_strv_contains ((const gchar * const *) theirs, ours[i]))
      continue;
    fail_unless (g_str_has_prefix (g_type_name (factory_type (ours[i])),
            "GstCudaFx"), "%s", ours[i]);
  }
  for (i = 0; theirs[i]; i++) {
    GType t = factory_type (theirs[i]);

    fail_if (g_str_has_prefix (g_type_name (t), "GstCudaFx"), "%s", theirs[i]);
    for (j = 0; j < G_N_ELEMENTS (our_types); j++)
      fail_if (g_type_is_a (t, our_types[j]), "%s", theirs[i]);
  }

  /* both kinds in one process */
  if (nvcodec_has ("cudaupload")) {
    GstElement *theirs_up = gst_element_factory_make ("cudaupload", NULL);
    GstElement *theirs_down = gst_element_factory_make ("cudadownload", NULL);
    GstElement *ours_up = gst_element_factory_make ("cudafxupload", NULL);
    GstElement *ours_down = gst_element_factory_make ("cudafxdownload", NULL);

    fail_unless (theirs_up && theirs_down && ours_up && ours_down);
    fail_unless (G_OBJECT_TYPE (theirs_up) != G_OBJECT_TYPE (ours_up));
    fail_unless (G_OBJECT_TYPE (theirs_down) != G_OBJECT_TYPE (ours_down));
    fail_unless (g_type_from_name (G_OBJECT_TYPE_NAME (theirs_up)) ==
        G_OBJECT_TYPE (theirs_up));
    fail_unless_equals_string (G_OBJECT_TYPE_NAME (ours_up), "GstCudaFxUpload");
    fail_unless_equals_string (G_OBJECT_TYPE_NAME (ours_down),
        "GstCudaFxDownload");
    gst_object_unref (theirs_up);
    gst_object_unref (theirs_down);
    gst_object_unref (ours_up);
    gst_object_unref (ours_down);
  } else {
    /* with a driver and a GPU nvcodec registers its copy elements; if it
     * did not, this test could not check what it is for */
    fail_if (have_gpu, "a GPU is present but nvcodec registered no "
        "cudaupload: cannot test both kinds in one process");
  }
  fail_unless (n_theirs >= 3 || !libgstcuda, "libgstcuda-1.0 has only %u "
      "of the types looked for", n_theirs);
  g_strfreev (ours);
  g_strfreev (theirs);
}

GST_END_TEST;

/* The device-memory structures of @caps whose features contain @feature */
static GstCaps *
caps_with_feature (GstCaps * caps, const gchar * feature)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && gst_caps_features_contains (f, feature))
      gst_caps_append_structure_full (ret,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          gst_caps_features_copy (f));
  }
  return ret;
}

static GstCaps *
template_caps (GstElement * e, const gchar * pad)
{
  GstPadTemplate *t =
      gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e), pad);

  fail_unless (t != NULL);
  return gst_pad_template_get_caps (t);
}

/* Our memory's caps feature and nvcodec's never intersect; ours takes
 * nvcodec's memory on both pads exactly where GStreamer's CUDA library is
 * loaded (the interop door) */
GST_START_TEST (test_caps_features_distinct)
{
  GstElement *ours;
  GstCaps *their_caps, *tmpl;
  GstPad *sink, *src;

  ensure_nvcodec ();
  ours = gst_element_factory_make ("cudafxupload", NULL);
  fail_unless (ours != NULL);

  their_caps = gst_caps_from_string ("video/x-raw(" NVCODEC_CAPS_FEATURE "),"
      "format=NV12,width=64,height=48,framerate=25/1");
  sink = gst_element_get_static_pad (ours, "sink");
  src = gst_element_get_static_pad (ours, "src");
  fail_unless_equals_int (gst_pad_query_accept_caps (sink, their_caps),
      gst_cuda_fx_interop_available ());
  fail_unless_equals_int (gst_pad_query_accept_caps (src, their_caps),
      gst_cuda_fx_interop_available ());
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_caps_unref (their_caps);

  if (nvcodec_has ("cudaupload")) {
    const gchar *pads[] = { "sink", "src" };
    GstElement *theirs = gst_element_factory_make ("cudaupload", NULL);
    guint p;

    fail_unless (theirs != NULL);
    for (p = 0; p < 2; p++) {
      GstCaps *ours_dev, *theirs_dev;

      tmpl = template_caps (ours, pads[p]);
      ours_dev = caps_with_feature (tmpl, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
      gst_caps_unref (tmpl);
      tmpl = template_caps (theirs, pads[p]);
      theirs_dev = caps_with_feature (tmpl, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
      fail_unless (gst_caps_is_empty (theirs_dev), "nvcodec uses %s",
          GST_CAPS_FEATURE_MEMORY_CUDA_FX);
      gst_caps_unref (theirs_dev);
      theirs_dev = caps_with_feature (tmpl, NVCODEC_CAPS_FEATURE);
      gst_caps_unref (tmpl);
      if (p == 1)
        fail_if (gst_caps_is_empty (theirs_dev), "nvcodec's cudaupload "
            "has no %s", NVCODEC_CAPS_FEATURE);
      fail_if (gst_caps_can_intersect (ours_dev, theirs_dev), "%s: %"
          GST_PTR_FORMAT " and %" GST_PTR_FORMAT, pads[p], ours_dev,
          theirs_dev);
      gst_caps_unref (ours_dev);
      gst_caps_unref (theirs_dev);
    }
    gst_object_unref (theirs);
  }
  gst_object_unref (ours);
}

GST_END_TEST;

/* With a GPU: ours runs after nvcodec loaded, and after nvcodec's own
 * elements ran in the same process. Without one: ours fails to start with
 * the clear no-GPU error, nvcodec loaded or not. */
GST_START_TEST (test_pipeline_after_nvcodec)
{
  const gchar *ours = "videotestsrc num-buffers=3 ! cudafxupload ! "
      "cudafxdownload ! fakesink";
  gchar *err;

  ensure_nvcodec ();
  err = run_pipeline (ours);
  if (have_gpu) {
    fail_unless (err == NULL, "%s", err);
    if (nvcodec_has ("cudaupload") && nvcodec_has ("cudadownload")) {
      /* nvcodec's result is its own business; ours must survive it */
      g_free (run_pipeline ("videotestsrc num-buffers=3 ! cudaupload ! "
              "cudadownload ! fakesink"));
      err = run_pipeline (ours);
      fail_unless (err == NULL, "%s", err);
    }
  } else {
    fail_unless (err != NULL);
    fail_unless (strstr (err, "CUDA") && (strstr (err, "driver")
            || strstr (err, "device")), "%s", err);
  }
  g_free (err);
}

GST_END_TEST;

static Suite *
coexist_suite (void)
{
  Suite *s = suite_create ("cudafx and nvcodec in one process");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_load_both);
  tcase_add_test (tc, test_aliases_are_ours);
  tcase_add_test (tc, test_types_distinct);
  tcase_add_test (tc, test_caps_features_distinct);
  tcase_add_test (tc, test_pipeline_after_nvcodec);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *path;
  gboolean installed;

  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!plugins_dir ()) {
    g_printerr ("nvcodec-coexist: CUDAFX_GST_PLUGINS_DIR is not set\n");
    return 1;
  }
  path = g_build_filename (plugins_dir (), "libgstnvcodec.so", NULL);
  installed = g_file_test (path, G_FILE_TEST_EXISTS);
  if (!installed) {
    g_print ("nvcodec-coexist: SKIP: %s is not installed "
        "(gst-plugins-bad)\n", path);
    g_free (path);
    return CFX_TEST_SKIP;
  }
  g_free (path);
  have_gpu = cfx_test_have_gpu ();
  return cfx_test_run_suite (coexist_suite ());
}
