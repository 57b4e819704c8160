/* GPU suite, two GPUs: device-id for real.
 * - device-id=1 runs every element on device 1 (the elements' contexts, the
 *   buffers' memory and the device the driver says the pointers are on),
 *   with the bytes of device 0;
 * - elements left at -1 next to one with device-id=1 take device 1,
 *   wherever in the chain it is;
 * - two pipelines, one per device, run at once with the right bytes;
 * - a chain whose elements name two devices fails at negotiation with one
 *   error naming both;
 * - a context set on a started element is ignored; device-id set after a
 *   context wins; device-id does not change while started;
 * - nvcodec's elements on device 1 share the CUDA context with ours.
 * Skips (77) with fewer than two GPUs; CUDAFX_REQUIRE_GPUS=2 makes that a
 * failure (CUDAFX_REQUIRE_GPU=1 alone does not: most GPU hosts have one). */
#include "cfx-test.h"

#include <gst/cudafx.h>
#include <string.h>

#define SRC "videotestsrc num-buffers=5 pattern=ball ! " \
  "video/x-raw,format=I420,width=322,height=242,framerate=25/1," \
  "interlace-mode=interleaved,field-order=top-field-first ! "
#define CHAIN "cudadeinterlace ! cudadegrain sigma=8 ! cudablur sigma=2"

/* Device of a device buffer, from its memory and from the driver */
static gint memory_device, pointer_device;

static GstPadProbeReturn
where_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  struct cudaPointerAttributes attr;

  if (memory_device >= 0 || !gst_is_cuda_fx_memory (mem))
    return GST_PAD_PROBE_OK;
  memory_device = gst_cuda_fx_context_get_device_id
      (gst_cuda_fx_memory_get_context (mem));
  if (cudaPointerGetAttributes (&attr,
          gst_cuda_fx_memory_get_device_pointer (mem)) == cudaSuccess)
    pointer_device = attr.device;
  return GST_PAD_PROBE_OK;
}

/* Every cudafx element of @pipeline runs on @device */
static void
check_elements_on (GstElement * pipeline, gint device, const gchar * what)
{
  GstIterator *it = gst_bin_iterate_elements (GST_BIN (pipeline));
  GValue v = G_VALUE_INIT;
  guint n = 0;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&v);

    if (GST_IS_CUDA_FX_FILTER (e)) {
      GstCudaFxContext *ctx = gst_cuda_fx_filter_get_context
          (GST_CUDA_FX_FILTER (e));

      fail_unless (ctx != NULL, "%s: %s has no context", what,
          GST_OBJECT_NAME (e));
      fail_unless_equals_int (gst_cuda_fx_context_get_device_id (ctx), device);
      n++;
    }
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  fail_unless (n >= 3, "%s: %u cudafx elements", what, n);
}

/* Runs @launch to EOS with a probe after "cudablur", checking the device
 * of the frames there and of every element, before it goes to NULL */
static GPtrArray *
run_on (const gchar * launch, gint device)
{
  GstElement *pipeline = cfx_test_start_pipeline (launch, NULL), *blur;
  GstPad *pad;
  GPtrArray *samples;

  memory_device = pointer_device = -1;
  blur = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  pad = gst_element_get_static_pad (blur, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, where_probe, NULL, NULL);
  samples = cfx_test_collect_samples (pipeline, "out", 30, launch);
  check_elements_on (pipeline, device, launch);
  fail_unless_equals_int (memory_device, device);
  fail_unless_equals_int (pointer_device, device);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (blur);
  gst_object_unref (pipeline);
  return samples;
}

GST_START_TEST (test_device_1_everywhere)
{
  /* where device-id=1 is set: every element, then one element at a time
   * (the others, at -1, follow it) */
  const gchar *lines[] = {
    SRC "cudafxupload device-id=1 ! cudadeinterlace device-id=1 ! "
        "cudadegrain sigma=8 device-id=1 ! cudablur name=b sigma=2 "
        "device-id=1 ! cudaluma device-id=1 ! cudafxdownload device-id=1 ! "
        "appsink name=out sync=false",
    SRC "cudafxupload device-id=1 ! " CHAIN " name=b ! cudaluma ! "
        "cudafxdownload ! appsink name=out sync=false",
    SRC "cudafxupload ! cudadeinterlace ! cudadegrain sigma=8 device-id=1 ! "
        "cudablur name=b sigma=2 ! cudaluma ! cudafxdownload ! appsink "
        "name=out sync=false",
    SRC "cudafxupload ! " CHAIN " name=b ! cudaluma ! cudafxdownload "
        "device-id=1 ! appsink name=out sync=false",
  };
  GPtrArray *want = run_on (SRC "cudafxupload ! " CHAIN " name=b ! cudaluma "
      "! cudafxdownload ! appsink name=out sync=false", 0);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (lines); i++) {
    GPtrArray *got = run_on (lines[i], 1);

    cfx_test_check_samples_equal (got, want, FALSE, lines[i]);
    g_ptr_array_unref (got);
  }
  g_ptr_array_unref (want);
}

GST_END_TEST;

GST_START_TEST (test_two_pipelines_at_once)
{
  const gchar *line = SRC "cudafxupload device-id=%d ! " CHAIN " ! "
      "cudafxdownload ! appsink name=out sync=false";
  gchar *l0 = g_strdup_printf (line, 0), *l1 = g_strdup_printf (line, 1);
  GPtrArray *want = cfx_test_run_samples (l0, "out", 30), *got[2];
  GstElement *p[2];
  guint k;

  /* both running before either is read */
  p[0] = cfx_test_start_pipeline (l0, NULL);
  p[1] = cfx_test_start_pipeline (l1, NULL);
  for (k = 0; k < 2; k++)
    got[k] = cfx_test_collect_samples (p[k], "out", 30, k ? l1 : l0);
  for (k = 0; k < 2; k++) {
    check_elements_on (p[k], k, k ? l1 : l0);
    cfx_test_check_samples_equal (got[k], want, FALSE, k ? l1 : l0);
    gst_element_set_state (p[k], GST_STATE_NULL);
    gst_object_unref (p[k]);
    g_ptr_array_unref (got[k]);
  }
  g_ptr_array_unref (want);
  g_free (l0);
  g_free (l1);
}

GST_END_TEST;

/* Two explicit devices in one chain: one negotiation error naming both */
GST_START_TEST (test_two_devices_refused)
{
  GstElement *pipeline = cfx_test_start_pipeline (SRC "cudafxupload "
      "device-id=0 ! cudablur device-id=1 ! cudafxdownload ! appsink name=out "
      "sync=false", NULL);
  GstMessage *msg;
  GError *error = NULL;
  guint errors = 0;

  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      10 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (g_error_matches (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", error->message);
  fail_unless (strstr (error->message, "device 1") != NULL
      && strstr (error->message, "device 0") != NULL, "%s", error->message);
  g_clear_error (&error);
  gst_message_unref (msg);
  /* and no second error of ours about it */
  gst_element_set_state (pipeline, GST_STATE_NULL);
  while ((msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
              GST_MESSAGE_ERROR))) {
    if (GST_IS_CUDA_FX_FILTER (GST_MESSAGE_SRC (msg)))
      errors++;
    gst_message_unref (msg);
  }
  fail_unless_equals_int (errors, 0);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The rules of contexts and device-id (gst/README.md): a context set on a
 * started element is ignored (its frames, pools and stream stay where they
 * are); an explicit device-id wins over a context set before it; device-id
 * does not change while started */
GST_START_TEST (test_context_rules)
{
  const gchar *line = SRC "cudafxupload ! " CHAIN " name=b ! cudaluma ! "
      "cudafxdownload ! appsink name=out sync=false";
  GPtrArray *want = cfx_test_run_samples (line, "out", 30), *got;
  GstCudaFxContext *dev1 = gst_cuda_fx_context_get (1, NULL);
  GstContext *context = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  GstElement *pipeline, *b;
  GstStateChangeReturn ret;
  gint device;

  fail_unless (dev1 != NULL);
  gst_context_set_cuda_fx_context (context, dev1);

  /* started on device 0, then handed device 1's context and device-id=1 */
  pipeline = cfx_test_start_pipeline (line, &ret);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL, 10 * GST_SECOND)
      != GST_STATE_CHANGE_FAILURE);
  b = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  gst_element_set_context (b, context);
  g_object_set (b, "device-id", 1, NULL);
  g_object_get (b, "device-id", &device, NULL);
  fail_unless_equals_int (device, -1);
  got = cfx_test_collect_samples (pipeline, "out", 30, "context while playing");
  check_elements_on (pipeline, 0, "context while playing");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  cfx_test_check_samples_equal (got, want, FALSE, "context while playing");
  g_ptr_array_unref (got);
  gst_object_unref (b);
  gst_object_unref (pipeline);

  /* device 1's context taken at -1, then device-id=0: device 0 */
  pipeline = cfx_test_track_pipeline (gst_parse_launch (line, NULL));
  b = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  gst_element_set_context (b, context);
  fail_unless_equals_int (gst_cuda_fx_context_get_device_id
      (gst_cuda_fx_filter_get_context (GST_CUDA_FX_FILTER (b))), 1);
  g_object_set (b, "device-id", 0, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  got = cfx_test_collect_samples (pipeline, "out", 30, "device-id after");
  check_elements_on (pipeline, 0, "device-id after a context");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  cfx_test_check_samples_equal (got, want, FALSE, "device-id after");
  g_ptr_array_unref (got);
  gst_object_unref (b);
  gst_object_unref (pipeline);

  gst_context_unref (context);
  gst_object_unref (dev1);
  g_ptr_array_unref (want);
}

GST_END_TEST;

/* nvcodec's upload and download on device 1 around ours: one CUDA
 * context, the bytes of device 0 */
GST_START_TEST (test_nvcodec_on_device_1)
{
  const gchar *line = SRC "cudaupload cuda-device-id=%d ! "
      "video/x-raw(memory:CUDAMemory) ! cudablur name=b sigma=2 ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload cuda-device-id=%d ! "
      "appsink name=out sync=false";
  gchar *l0 = g_strdup_printf (line, 0, 0), *l1 = g_strdup_printf (line, 1,
      1);
  GPtrArray *want = cfx_test_run_samples (l0, "out", 30), *got;
  GstElement *pipeline = cfx_test_start_pipeline (l1, NULL), *b;
  gint device;

  got = cfx_test_collect_samples (pipeline, "out", 30, l1);
  b = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  device = gst_cuda_fx_context_get_device_id (gst_cuda_fx_filter_get_context
      (GST_CUDA_FX_FILTER (b)));
  /* (stopped before checking: a failed check leaves no pipeline running) */
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (device, 1);
  cfx_test_check_samples_equal (got, want, FALSE, l1);
  gst_object_unref (b);
  gst_object_unref (pipeline);
  g_ptr_array_unref (got);
  g_ptr_array_unref (want);
  g_free (l0);
  g_free (l1);
}

GST_END_TEST;

static Suite *
multi_suite (gboolean nvcodec)
{
  Suite *s = suite_create ("cudafx-multi-gpu");
  TCase *tc = cfx_test_tcase ("multi-gpu");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 180);
  tcase_add_test (tc, test_device_1_everywhere);
  tcase_add_test (tc, test_two_pipelines_at_once);
  tcase_add_test (tc, test_two_devices_refused);
  tcase_add_test (tc, test_context_rules);
  if (nvcodec)
    tcase_add_test (tc, test_nvcodec_on_device_1);
  return s;
}

int
main (int argc, char **argv)
{
  gint count = 0;
  gboolean nvcodec;

  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return cfx_test_no_gpu_exit ("multi-gpu");
  if (cudaGetDeviceCount (&count) != cudaSuccess || count < 2) {
    if (g_strcmp0 (g_getenv ("CUDAFX_REQUIRE_GPUS"), "2") == 0) {
      g_printerr ("multi-gpu: FAIL: %d GPU, and CUDAFX_REQUIRE_GPUS=2\n",
          count);
      return 1;
    }
    g_print ("multi-gpu: SKIP: %d GPU\n", count);
    return CFX_TEST_SKIP;
  }
  nvcodec = cfx_test_load_system_plugin ("nvcodec")
      && gst_cuda_fx_interop_available ()
      && gst_registry_check_feature_version (gst_registry_get (),
      "cudaupload", 1, 0, 0);
  if (!nvcodec)
    g_printerr ("multi-gpu: no nvcodec: its test does not run\n");
  return cfx_test_run_suite (multi_suite (nvcodec));
}
