#include "cfx-test.h"

#include <math.h>

#include <gst/app/app.h>
#include <gst/cudafx.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gchar *registry_file;

static void
remove_registry (void)
{
  if (registry_file) {
    g_unlink (registry_file);
    g_free (registry_file);
    registry_file = NULL;
  }
}

gboolean
cfx_test_load_system_plugin (const gchar * name)
{
  const gchar *dir = g_getenv ("CUDAFX_GST_PLUGINS_DIR");
  gchar *file, *path;
  GstPlugin *plugin;
  GError *error = NULL;

  if (!dir)
    dir = CUDAFX_GST_PLUGINS_DIR;
  file = g_strdup_printf ("libgst%s.so", name);
  path = g_build_filename (dir, file, NULL);
  plugin = gst_plugin_load_file (path, &error);
  if (!plugin) {
    g_printerr ("cannot load %s: %s\n", path, error ? error->message : "?");
    g_clear_error (&error);
  } else {
    gst_object_unref (plugin);
  }
  g_free (file);
  g_free (path);
  return plugin != NULL;
}

gboolean
cfx_test_init (int *argc, char ***argv)
{
  const gchar *ours = g_getenv ("CUDAFX_PLUGIN");
  const gchar *system[] = { "coreelements", "videotestsrc", "app",
    "videoconvertscale", NULL
  };
  GstPlugin *plugin;
  GError *error = NULL;
  gint fd;
  guint i;

  /* CUDA does not survive fork: run every test in this process */
  g_setenv ("CK_FORK", "no", TRUE);
  /* a fresh registry with only what is loaded below: no gst-plugins-bad */
  fd = g_file_open_tmp ("cudafx-registry-XXXXXX.bin", &registry_file, NULL);
  if (fd >= 0)
    close (fd);
  g_unlink (registry_file);
  atexit (remove_registry);
  g_setenv ("GST_REGISTRY_1_0", registry_file, TRUE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "", TRUE);
  g_setenv ("GST_REGISTRY_FORK", "no", TRUE);

  gst_check_init (argc, argv);

  if (!ours)
    ours = CUDAFX_PLUGIN;
  plugin = gst_plugin_load_file (ours, &error);
  if (!plugin) {
    g_printerr ("cannot load the cudafx plugin %s: %s\n", ours,
        error ? error->message : "?");
    g_clear_error (&error);
    return FALSE;
  }
  gst_object_unref (plugin);

  for (i = 0; system[i]; i++) {
    /* videoconvertscale is videoconvert + videoscale before 1.22 */
    if (!cfx_test_load_system_plugin (system[i])
        && g_strcmp0 (system[i], "videoconvertscale") != 0)
      return FALSE;
  }
  return TRUE;
}

gboolean
cfx_test_have_gpu (void)
{
  GstCudaFxContext *ctx;
  GError *error = NULL;

  ctx = gst_cuda_fx_context_get (0, &error);
  if (!ctx) {
    g_print ("no GPU: %s\n", error->message);
    g_clear_error (&error);
    return FALSE;
  }
  gst_object_unref (ctx);
  return TRUE;
}

int
cfx_test_no_gpu_exit (const gchar * suite)
{
  if (g_strcmp0 (g_getenv ("CUDAFX_REQUIRE_GPU"), "1") == 0) {
    g_printerr ("%s: FAIL: no GPU, and CUDAFX_REQUIRE_GPU=1\n", suite);
    return 1;
  }
  g_print ("%s: SKIP: no GPU\n", suite);
  return CFX_TEST_SKIP;
}

int
cfx_test_run_suite (Suite * s)
{
  SRunner *sr = srunner_create (s);
  int failed;

  srunner_set_fork_status (sr, CK_NOFORK);
  srunner_run_all (sr, CK_ENV);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}

int
cfx_test_gpu_main (int *argc, char ***argv, const gchar * name,
    Suite * (*make) (void))
{
  if (!cfx_test_init (argc, argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return cfx_test_no_gpu_exit (name);
  return cfx_test_run_suite (make ());
}

guint64
cfx_test_splitmix64 (guint64 * state)
{
  guint64 z = (*state += 0x9e3779b97f4a7c15ULL);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double
cfx_test_gauss (guint64 * state)
{
  double u1 = ((cfx_test_splitmix64 (state) >> 11) + 1) *
      (1.0 / 9007199254740992.0);
  double u2 = (cfx_test_splitmix64 (state) >> 11) *
      (1.0 / 9007199254740992.0);

  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

guint8
cfx_test_clip_u8 (double v)
{
  v = floor (v + 0.5);
  return v < 0.0 ? 0 : v > 255.0 ? 255 : (guint8) v;
}

void
cfx_test_fill_random (guint8 * data, gsize size, guint64 seed)
{
  guint64 x = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  gsize i;

  for (i = 0; i + 8 <= size; i += 8) {
    guint64 v;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = x * 0x2545F4914F6CDD1Dull;
    memcpy (data + i, &v, 8);
  }
  for (; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    data[i] = (guint8) (x >> 32);
  }
}

GstBuffer *
cfx_test_random_frame (const GstVideoInfo * info, guint64 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  cfx_test_fill_random (map.data, map.size, seed);
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  return buf;
}

gsize
cfx_test_plane_row_bytes (const GstVideoInfo * info, guint p)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  const GstVideoFormatInfo *finfo = info->finfo;
  gint w;

  gst_video_format_info_component (finfo, p, comp);
  w = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, comp[0],
      GST_VIDEO_INFO_WIDTH (info));
  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YUY2:
      /* whole pixel pairs: an odd width still carries its last pair */
      return (gsize) GST_ROUND_UP_2 (GST_VIDEO_INFO_WIDTH (info)) * 2;
    default:
      return (gsize) w *GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp[0]);
  }
}

gint
cfx_test_comp_byte_offset (const GstVideoFormatInfo * finfo, guint c)
{
  gint off = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
  gint bytes = GST_VIDEO_FORMAT_INFO_BITS (finfo) > 8 ? 2 : 1;

  return off % bytes ? off * bytes : off;
}

gboolean
cfx_test_frames_equal (GstVideoFrame * a, GstVideoFrame * b,
    const gchar * what)
{
  guint p;
  gint y;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (a); p++) {
    gsize row = cfx_test_plane_row_bytes (&a->info, p);
    gint rows = gst_cuda_fx_video_info_plane_height (&a->info, p);

    for (y = 0; y < rows; y++) {
      const guint8 *ra = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (a, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (a, p);
      const guint8 *rb = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (b, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (b, p);

      if (memcmp (ra, rb, row) != 0) {
        gsize x;
        for (x = 0; x < row && ra[x] == rb[x]; x++);
        g_print ("%s: %s %dx%d plane %u row %d byte %" G_GSIZE_FORMAT
            ": %u != %u\n", what,
            GST_VIDEO_INFO_NAME (&a->info), GST_VIDEO_INFO_WIDTH (&a->info),
            GST_VIDEO_INFO_HEIGHT (&a->info), p, y, x, ra[x], rb[x]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* ---- pipelines a failed check leaves running ---------------------------- */

/* Weak references: a pipeline its test released is gone and not kept
 * alive here (its memory goes back when the test lets go of it) */
static GMutex tracked_lock;
static GPtrArray *tracked;

static void
free_weak_ref (gpointer data)
{
  g_weak_ref_clear ((GWeakRef *) data);
  g_free (data);
}

GstElement *
cfx_test_track_pipeline (GstElement * pipeline)
{
  GWeakRef *ref;

  if (!pipeline)
    return NULL;
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, pipeline);
  g_mutex_lock (&tracked_lock);
  if (!tracked)
    tracked = g_ptr_array_new_with_free_func (free_weak_ref);
  g_ptr_array_add (tracked, ref);
  g_mutex_unlock (&tracked_lock);
  return pipeline;
}

void
cfx_test_stop_pipelines (void)
{
  GPtrArray *left;
  guint i;

  g_mutex_lock (&tracked_lock);
  left = tracked;
  tracked = NULL;
  g_mutex_unlock (&tracked_lock);
  if (!left)
    return;
  /* what a test still holds (a failed check left it): stopped, and its
   * reference left to the test that leaked it */
  for (i = 0; i < left->len; i++) {
    GstElement *pipeline = g_weak_ref_get (g_ptr_array_index (left, i));

    if (pipeline) {
      gst_element_set_state (pipeline, GST_STATE_NULL);
      gst_object_unref (pipeline);
    }
  }
  g_ptr_array_unref (left);
}

TCase *
cfx_test_tcase (const gchar * name)
{
  TCase *tc = tcase_create (name);

  tcase_add_checked_fixture (tc, NULL, cfx_test_stop_pipelines);
  return tc;
}

/* ---- pipelines ending in an appsink ------------------------------------ */

GstElement *
cfx_test_start_pipeline (const gchar * launch, GstStateChangeReturn * ret)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstStateChangeReturn r;

  fail_unless (pipeline != NULL, "%s: %s", launch,
      error ? error->message : "?");
  cfx_test_track_pipeline (pipeline);
  r = gst_element_set_state (pipeline, GST_STATE_PLAYING);
  if (ret)
    *ret = r;
  return pipeline;
}

void
cfx_test_fail_on_error (GstElement * pipeline, const gchar * what)
{
  GstMessage *msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_MESSAGE_ERROR);
  GError *error = NULL;
  gchar *debug = NULL;

  if (!msg)
    return;
  gst_message_parse_error (msg, &error, &debug);
  fail ("%s: %s (%s)", what, error->message, debug ? debug : "");
}

GstSample *
cfx_test_next_sample (GstElement * pipeline, GstElement * appsink,
    guint timeout_s, const gchar * what)
{
  GstSample *sample;
  guint waited = 0;

  while (!(sample = gst_app_sink_try_pull_sample (GST_APP_SINK (appsink),
              GST_SECOND))) {
    if (gst_app_sink_is_eos (GST_APP_SINK (appsink)))
      return NULL;
    cfx_test_fail_on_error (pipeline, what);
    fail_if (++waited > timeout_s, "%s: no sample in %u s", what, timeout_s);
  }
  return sample;
}

GPtrArray *
cfx_test_collect_samples (GstElement * pipeline, const gchar * sink_name,
    guint timeout_s, const gchar * what)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), sink_name);
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstSample *sample;

  fail_unless (sink != NULL, "%s: no appsink %s", what, sink_name);
  while ((sample = cfx_test_next_sample (pipeline, sink, timeout_s, what)))
    g_ptr_array_add (samples, sample);
  cfx_test_fail_on_error (pipeline, what);
  gst_object_unref (sink);
  return samples;
}

GPtrArray *
cfx_test_run_samples (const gchar * launch, const gchar * sink_name,
    guint timeout_s)
{
  GstStateChangeReturn ret;
  GstElement *pipeline = cfx_test_start_pipeline (launch, &ret);
  GPtrArray *samples;

  fail_if (ret == GST_STATE_CHANGE_FAILURE, "%s", launch);
  samples = cfx_test_collect_samples (pipeline, sink_name, timeout_s, launch);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return samples;
}

void
cfx_test_check_samples_equal (GPtrArray * got, GPtrArray * want,
    gboolean timestamps, const gchar * what)
{
  guint i;

  fail_unless (want->len > 0, "%s: no reference frames", what);
  fail_unless_equals_int (got->len, want->len);
  for (i = 0; i < got->len; i++) {
    GstSample *a = g_ptr_array_index (got, i), *b = g_ptr_array_index (want,
        i);
    GstVideoInfo ia, ib;
    GstVideoFrame fa, fb;
    gchar *frame_what = g_strdup_printf ("%s, frame %u", what, i);

    fail_unless (gst_video_info_from_caps (&ia, gst_sample_get_caps (a)));
    ib = ia;
    if (timestamps) {
      fail_unless (gst_video_info_from_caps (&ib, gst_sample_get_caps (b)));
      fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&ia),
          GST_VIDEO_INFO_FORMAT (&ib));
    }
    fail_unless (gst_video_frame_map (&fa, &ia, gst_sample_get_buffer (a),
            GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fb, &ib, gst_sample_get_buffer (b),
            GST_MAP_READ));
    fail_unless (cfx_test_frames_equal (&fa, &fb, frame_what));
    if (timestamps)
      fail_unless_equals_uint64 (GST_BUFFER_PTS (fa.buffer),
          GST_BUFFER_PTS (fb.buffer));
    gst_video_frame_unmap (&fa);
    gst_video_frame_unmap (&fb);
    g_free (frame_what);
  }
}

/* ---- host waits at the boundary ----------------------------------------- */

static gint boundary_waits;

static void
log_boundary_wait (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  if (g_strcmp0 (gst_debug_category_get_name (category), "cudafxframe") == 0
      && g_str_has_prefix (gst_debug_message_get (message),
          "host wait at the boundary"))
    g_atomic_int_inc (&boundary_waits);
}

void
cfx_test_count_boundary_waits (void)
{
  static gsize once = 0;

  /* one log function for the process: a failed test leaves no second */
  if (g_once_init_enter (&once)) {
    gst_debug_set_threshold_for_name ("cudafxframe", GST_LEVEL_DEBUG);
    gst_debug_add_log_function (log_boundary_wait, NULL, NULL);
    g_once_init_leave (&once, 1);
  }
  g_atomic_int_set (&boundary_waits, 0);
}

gint
cfx_test_boundary_waits (void)
{
  return g_atomic_int_get (&boundary_waits);
}
