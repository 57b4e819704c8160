/* GPU suite: our filters with gst-plugins-bad's nvcodec elements, through
 * GStreamer's CUDA memory (`memory:CUDAMemory`) and one shared CUDA
 * context:
 * - nvcodec's cudaupload ! each of our filters ! nvcodec's cudadownload
 *   gives the bytes of the same chain through our upload and download;
 * - whichever plugin's element the registry holds as "cudaupload" and
 *   "cudadownload", the chain gives the same bytes;
 * - nvh264dec ! cudadegrain reads the decoder's memory in place (no copy
 *   by our library, one CUDA context for both plugins) and gives the bytes
 *   of the same chain through system memory.
 * Skips (77) without a GPU, or without nvcodec (then CUDAFX_REQUIRE_GPU=1
 * fails: GPU hosts carry nvcodec). */
#include "cfx-test.h"

#include <gst/cudafx.h>

static gchar *clip_path;

#define SRC "videotestsrc num-buffers=6 pattern=ball ! "
#define CAPS_P "video/x-raw,format=%s,width=322,height=242,framerate=25/1"
#define CAPS_I CAPS_P ",interlace-mode=interleaved,field-order=top-field-first"
#define CUDA_MEM "video/x-raw(memory:CUDAMemory)"

static const struct
{
  const gchar *filter, *format;
  gboolean interlaced, nvcodec_down;
} chains[] = {
  {"cudablur sigma=2.5", "NV12", FALSE, TRUE},
  {"cudablur method=box radius=4", "UYVY", FALSE, TRUE},
  {"cudadegrain sigma=8", "I420", FALSE, TRUE},
  {"cudadeinterlace", "NV12", TRUE, TRUE},
  {"cudadeinterlace ! cudadegrain sigma=8 ! cudablur sigma=1", "I420", TRUE,
      TRUE},
  /* GRAY8 is not among nvcodec's formats: ours downloads */
  {"cudaluma", "YUY2", FALSE, FALSE},
};

/* nvcodec's cudaupload ! our filters ! nvcodec's cudadownload, forced
 * through GStreamer's CUDA memory, against our own upload and download.
 * With GStreamer 1.24+ (a stream API) our writes into their memory are
 * ordered on its stream: no host wait; 1.22 waits once per frame. */
GST_START_TEST (test_nvcodec_memory_through_filters)
{
  guint i;


  for (i = 0; i < G_N_ELEMENTS (chains); i++) {
    gchar *caps = g_strdup_printf (chains[i].interlaced ? CAPS_I : CAPS_P,
        chains[i].format);
    gchar *ref = g_strdup_printf (SRC "%s ! cudafxupload ! %s ! "
        "cudafxdownload ! appsink name=out sync=false", caps,
        chains[i].filter);
    gchar *theirs = g_strdup_printf (SRC "%s ! cudaupload ! " CUDA_MEM " ! "
        "%s ! %s ! %s ! appsink name=out sync=false", caps, chains[i].filter,
        chains[i].nvcodec_down ? CUDA_MEM : "video/x-raw(memory:CUDAFxMemory)",
        chains[i].nvcodec_down ? "cudadownload" : "cudafxdownload");
    GPtrArray *want = cfx_test_run_samples (ref, "out", 20);
    guint64 copies = gst_cuda_fx_memory_get_copy_count ();
    GPtrArray *got;

    cfx_test_count_boundary_waits ();
    got = cfx_test_run_samples (theirs, "out", 20);
    cfx_test_check_samples_equal (got, want, TRUE, theirs);
    fail_unless_equals_uint64 (gst_cuda_fx_memory_get_copy_count (), copies);
    g_printerr ("interop: %s: %d host waits at the boundary (%s)\n",
        chains[i].filter, cfx_test_boundary_waits (),
        gst_cuda_fx_interop_has_streams ()? "stream API" : "1.22");
    if (!chains[i].nvcodec_down || gst_cuda_fx_interop_has_streams ()) {
      fail_unless_equals_int (cfx_test_boundary_waits (), 0);
    } else {
      fail_unless (cfx_test_boundary_waits () > 0);
    }
    g_ptr_array_unref (want);
    g_ptr_array_unref (got);
    g_free (ref);
    g_free (theirs);
    g_free (caps);
  }
}

GST_END_TEST;

/* The registry holds one element per name: make "cudaupload" and
 * "cudadownload" each plugin's in turn, as the order plugins were scanned
 * in would */
static void
register_as (const gchar * name, const gchar * type_name)
{
  GType type = g_type_from_name (type_name);

  fail_unless (type != 0, "no type %s", type_name);
  fail_unless (gst_element_register (NULL, name, GST_RANK_NONE, type));
}

GST_START_TEST (test_either_plugins_upload_download)
{
  const gchar *owners[][3] = {
    {"nvcodec", "GstCudaUpload", "GstCudaDownload"},
    {"cudafx", "GstCudaFxUpload", "GstCudaFxDownload"},
    {"nvcodec", "GstCudaUpload", "GstCudaDownload"},
  };
  gchar *caps = g_strdup_printf (CAPS_P, "NV12");
  gchar *ref = g_strdup_printf (SRC "%s ! cudafxupload ! cudablur sigma=3 ! "
      "cudadeinterlace mode=interlaced ! cudafxdownload ! appsink name=out "
      "sync=false", caps);
  gchar *line = g_strdup_printf (SRC "%s ! cudaupload ! cudablur sigma=3 ! "
      "cudadeinterlace mode=interlaced ! cudadownload ! appsink name=out "
      "sync=false", caps);
  GPtrArray *want = cfx_test_run_samples (ref, "out", 20);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (owners); i++) {
    GstElement *up;
    GPtrArray *got;

    register_as ("cudaupload", owners[i][1]);
    register_as ("cudadownload", owners[i][2]);
    up = gst_element_factory_make ("cudaupload", NULL);
    fail_unless_equals_string (G_OBJECT_TYPE_NAME (up), owners[i][1]);
    gst_object_unref (up);
    got = cfx_test_run_samples (line, "out", 20);
    cfx_test_check_samples_equal (got, want, TRUE, owners[i][0]);
    g_ptr_array_unref (got);
  }
  g_ptr_array_unref (want);
  g_free (line);
  g_free (ref);
  g_free (caps);
}

GST_END_TEST;

static gpointer decoder_handle;

static GstPadProbeReturn
decoder_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);

  /* the CUDA context the decoder's memory lives in */
  if (!decoder_handle)
    decoder_handle = gst_cuda_fx_cuda_memory_get_handle (mem);
  return GST_PAD_PROBE_OK;
}

/* NVDEC's memory read in place by our filter, in one CUDA context */
GST_START_TEST (test_nvdec_zero_copy)
{
  gchar *direct = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "nvh264dec name=dec ! cudadegrain name=f sigma=8 ! cudafxdownload ! "
      "appsink name=out sync=false", clip_path);
  gchar *via_system = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "nvh264dec ! video/x-raw ! cudafxupload ! cudadegrain sigma=8 ! "
      "cudafxdownload ! appsink name=out sync=false", clip_path);
  GPtrArray *want = cfx_test_run_samples (via_system, "out", 20), *got;
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (direct, &error);
  GstElement *dec, *f;
  GstPad *pad;
  GstCaps *caps;
  guint64 copies;

  fail_unless (pipeline != NULL, "%s", error ? error->message : "?");
  cfx_test_track_pipeline (pipeline);
  dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  pad = gst_element_get_static_pad (dec, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, decoder_probe, NULL,
      NULL);
  decoder_handle = NULL;
  copies = gst_cuda_fx_memory_get_copy_count ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  got = cfx_test_collect_samples (pipeline, "out", 20, direct);

  /* the decoder's memory went to the filter as it was */
  caps = gst_pad_get_current_caps (pad);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURE_MEMORY_CUDA), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  fail_unless_equals_uint64 (gst_cuda_fx_memory_get_copy_count (), copies);
  /* one CUDA context: the decoder's memory lives in the filter's */
  fail_unless (decoder_handle != NULL);
  fail_unless (decoder_handle == gst_cuda_fx_context_get_handle
      (gst_cuda_fx_filter_get_context (GST_CUDA_FX_FILTER (f))));
  cfx_test_check_samples_equal (got, want, TRUE, "nvh264dec ! cudadegrain");
  fail_unless_equals_int (got->len, 30);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (dec);
  gst_object_unref (f);
  gst_object_unref (pipeline);
  g_ptr_array_unref (want);
  g_ptr_array_unref (got);
  g_free (direct);
  g_free (via_system);
}

GST_END_TEST;

static Suite *
interop_suite (gboolean nvdec)
{
  Suite *s = suite_create ("cudafx-interop");
  TCase *tc = cfx_test_tcase ("interop");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 180);
  tcase_add_test (tc, test_nvcodec_memory_through_filters);
  tcase_add_test (tc, test_either_plugins_upload_download);
  if (nvdec)
    tcase_add_test (tc, test_nvdec_zero_copy);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *root = g_getenv ("CUDAFX_SOURCE_ROOT");
  gboolean nvdec;
  int ret;

  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return cfx_test_no_gpu_exit ("interop");
  /* nvcodec registers its elements only where CUDA works */
  if (!cfx_test_load_system_plugin ("nvcodec")
      || !gst_cuda_fx_interop_available ()
      || !gst_registry_check_feature_version (gst_registry_get (),
          "cudaupload", 1, 0, 0)) {
    g_printerr ("interop: nvcodec or libgstcuda-1.0 missing\n");
    return cfx_test_no_gpu_exit ("interop");
  }
  if (!cfx_test_load_system_plugin ("videoparsersbad"))
    g_printerr ("interop: no h264parse: the NVDEC test does not run\n");
  clip_path = g_build_filename (root ? root : ".", "tests", "data",
      "test-320x240.h264", NULL);
  nvdec = gst_registry_check_feature_version (gst_registry_get (),
      "nvh264dec", 1, 0, 0) && gst_registry_check_feature_version
      (gst_registry_get (), "h264parse", 1, 0, 0);
  if (!nvdec)
    g_printerr ("interop: no nvh264dec here: the NVDEC test does not run\n");
  ret = cfx_test_run_suite (interop_suite (nvdec));
  g_free (clip_path);
  return ret;
}
