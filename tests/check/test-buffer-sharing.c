/* GPU suite: sharing and copying device buffers. gst_buffer_copy shares
 * the device allocation (no new memory, no copy); a write to a shared
 * buffer goes through a device copy, leaving the other holders' bytes
 * alone; imagefreeze and a tee whose branch writes give the right bytes.
 * Skips (77) without a GPU; CUDAFX_REQUIRE_GPU=1 makes that a failure. */
#include "cfx-test.h"

#include <gst/cudafx.h>

#define MARK 0x5A

static cudaStream_t test_stream;

/* A device buffer of @info holding @frame's bytes */
static GstBuffer *
upload (GstCudaFxContext * ctx, GstBufferPool * pool,
    const GstVideoInfo * info, GstBuffer * frame)
{
  GstBuffer *buf = NULL;
  GstCudaFxFrame dev;
  GstVideoFrame host;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  fail_unless (gst_cuda_fx_frame_map (&dev, info, buf, GST_MAP_WRITE, ctx,
          test_stream, NULL));
  fail_unless (gst_video_frame_map (&host, info, frame, GST_MAP_READ));
  fail_unless_equals_int (gst_cuda_fx_frame_upload (&dev, &host),
      cudaSuccess);
  fail_unless_equals_int (gst_cuda_fx_frame_unmap (&dev), cudaSuccess);
  fail_unless_equals_int (cudaStreamSynchronize (test_stream), cudaSuccess);
  gst_video_frame_unmap (&host);
  return buf;
}

static gpointer
device_address (GstBuffer * buf, const GstVideoInfo * info)
{
  GstVideoFrame f;
  gpointer p;

  fail_unless (gst_video_frame_map (&f, info, buf,
          GST_MAP_READ | GST_MAP_CUDA_FX));
  p = GST_VIDEO_FRAME_PLANE_DATA (&f, 0);
  gst_video_frame_unmap (&f);
  return p;
}

static void CUDART_CB
delay_2ms (void *unused)
{
  g_usleep (2000);
}

/* Writes MARK over plane 0 of @buf through the frame layer: a buffer whose
 * memory is shared gets a device copy first (returned in its place) */
static GstBuffer *
mark_plane0 (GstBuffer * buf, const GstVideoInfo * info)
{
  GstCudaFxFrame dev;

  buf = gst_buffer_make_writable (buf);
  fail_unless (gst_cuda_fx_frame_map (&dev, info, buf, GST_MAP_WRITE, NULL,
          test_stream, NULL));
  /* the write starts late: a reader that does not wait for the unmap's
   * event on the GPU sees the frame unmarked or half marked */
  fail_unless_equals_int (cudaLaunchHostFunc (test_stream, delay_2ms, NULL),
      cudaSuccess);
  fail_unless_equals_int (cudaMemset2DAsync (dev.video.data[0],
          GST_VIDEO_FRAME_PLANE_STRIDE (&dev.video, 0), MARK,
          gst_cuda_fx_video_format_row_bytes (info->finfo, 0,
              GST_VIDEO_INFO_WIDTH (info)),
          gst_cuda_fx_video_info_plane_height (info, 0), test_stream),
      cudaSuccess);
  fail_unless_equals_int (gst_cuda_fx_frame_unmap (&dev), cudaSuccess);
  return buf;
}

/* @got (any memory) against @want: plane 0 all MARK if @marked, else
 * equal; the other planes equal */
static gboolean
check_bytes (GstBuffer * got, GstBuffer * want, const GstVideoInfo * info,
    gboolean marked, const gchar * what)
{
  GstVideoFrame g, w;
  gboolean ok = TRUE;
  guint p;
  gint y;

  fail_unless (gst_video_frame_map (&g, info, got, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&w, info, want, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info) && ok; p++) {
    gsize row = gst_cuda_fx_video_format_row_bytes (info->finfo, p,
        GST_VIDEO_INFO_WIDTH (info));

    for (y = 0; y < gst_cuda_fx_video_info_plane_height (info, p) && ok; y++) {
      const guint8 *rg = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&g, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&g, p);
      const guint8 *rw = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&w, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&w, p);
      gsize x;

      for (x = 0; x < row && ok; x++) {
        guint want_byte = marked && p == 0 ? MARK : rw[x];

        if (rg[x] != want_byte) {
          g_print ("%s: plane %u row %d byte %" G_GSIZE_FORMAT ": %u, want "
              "%u\n", what, p, y, x, rg[x], want_byte);
          ok = FALSE;
        }
      }
    }
  }
  gst_video_frame_unmap (&w);
  gst_video_frame_unmap (&g);
  return ok;
}

GST_START_TEST (test_copy_shares_write_copies)
{
  const gchar *formats[] = { "I420", "UYVY", "NV12" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstCudaFxContext *ctx = gst_cuda_fx_context_get (0, NULL);
    GstBufferPool *pool = gst_cuda_fx_buffer_pool_new (ctx);
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gchar *caps_str = g_strdup_printf ("video/x-raw,format=%s,width=33,"
        "height=17", formats[i]);
    GstCaps *caps = gst_caps_from_string (caps_str);
    GstVideoInfo info;
    GstBuffer *frame, *orig, *copy, *written;
    gpointer orig_addr;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_buffer_pool_config_set_params (config, caps, 0, 1, 0);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    fail_unless (gst_buffer_pool_set_config (pool, config));
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));

    frame = cfx_test_random_frame (&info, 11 + i);
    orig = upload (ctx, pool, &info, frame);
    orig_addr = device_address (orig, &info);

    /* a copy is the same allocation */
    copy = gst_buffer_copy (orig);
    fail_unless (device_address (copy, &info) == orig_addr);
    fail_unless (check_bytes (copy, frame, &info, FALSE, "shared copy"));

    /* writing to it copies on the device first: the original keeps its
     * bytes, the written one has the mark and the rest of the frame */
    written = mark_plane0 (gst_buffer_ref (copy), &info);
    fail_unless (device_address (written, &info) != orig_addr);
    fail_unless (check_bytes (written, frame, &info, TRUE, "written copy"));
    fail_unless (check_bytes (orig, frame, &info, FALSE, "original"));

    gst_buffer_unref (written);
    gst_buffer_unref (copy);
    gst_buffer_unref (orig);
    gst_buffer_unref (frame);
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
    gst_caps_unref (caps);
    g_free (caps_str);
    gst_object_unref (ctx);
  }
}

GST_END_TEST;

/* One uploaded frame repeated by imagefreeze (which copies its buffer for
 * every output): every output holds the frame */
GST_START_TEST (test_imagefreeze)
{
  const gchar *formats[] = { "UYVY", "I420" };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=319,"
        "height=239,framerate=30/1", formats[i]);
    gchar *ref_launch = g_strdup_printf ("videotestsrc num-buffers=1 "
        "pattern=smpte ! %s ! appsink name=out sync=false", caps);
    gchar *launch = g_strdup_printf ("videotestsrc num-buffers=1 "
        "pattern=smpte ! %s ! cudafxupload ! imagefreeze num-buffers=40 ! "
        "cudafxdownload ! appsink name=out sync=false", caps);
    GPtrArray *ref = cfx_test_run_samples (ref_launch, "out", 20);
    GPtrArray *got = cfx_test_run_samples (launch, "out", 20);
    GstCaps *c = gst_caps_from_string (caps);
    GstVideoInfo info;

    fail_unless (gst_video_info_from_caps (&info, c));
    fail_unless_equals_int (ref->len, 1);
    fail_unless_equals_int (got->len, 40);
    for (k = 0; k < got->len; k++)
      fail_unless (check_bytes (gst_sample_get_buffer (g_ptr_array_index (got,
                      k)), gst_sample_get_buffer (g_ptr_array_index (ref, 0)),
              &info, FALSE, formats[i]));
    gst_caps_unref (c);
    g_ptr_array_unref (ref);
    g_ptr_array_unref (got);
    g_free (launch);
    g_free (ref_launch);
    g_free (caps);
  }
}

GST_END_TEST;

static GstVideoInfo tee_info;

static GstPadProbeReturn
mark_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  /* the tee hands the same buffer to both branches: not writable here */
  fail_if (gst_buffer_is_writable (buf));
  GST_PAD_PROBE_INFO_DATA (info) = mark_plane0 (buf, &tee_info);
  return GST_PAD_PROBE_OK;
}

/* A tee whose branch makes the buffer writable and writes to it on the
 * application's own stream (the map API), behind a queue: the other branch
 * sees the uploaded bytes, the writing branch its own, whole */
GST_START_TEST (test_tee_writing_branch)
{
  const gchar *caps = "video/x-raw,format=I420,width=319,height=239,"
      "framerate=30/1";
  gchar *ref_launch = g_strdup_printf ("videotestsrc num-buffers=8 "
      "pattern=ball ! %s ! appsink name=out sync=false", caps);
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=8 pattern=ball "
      "! %s ! cudafxupload ! tee name=t "
      "t. ! queue ! cudafxdownload ! appsink name=a sync=false "
      "t. ! queue name=q ! cudafxdownload ! appsink name=b sync=false", caps);
  GPtrArray *ref = cfx_test_run_samples (ref_launch, "out", 20);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstElement *q, *sink[2];
  GstPad *pad, *peer;
  GstCaps *c = gst_caps_from_string (caps);
  GstMessage *msg;
  guint k, b;

  fail_unless (gst_video_info_from_caps (&tee_info, c));
  fail_unless (pipeline != NULL);
  cfx_test_track_pipeline (pipeline);
  q = gst_bin_get_by_name (GST_BIN (pipeline), "q");
  /* on the tee's pad: the tee still holds the buffer for the other branch,
   * so the write must go through a copy */
  pad = gst_element_get_static_pad (q, "sink");
  peer = gst_pad_get_peer (pad);
  gst_pad_add_probe (peer, GST_PAD_PROBE_TYPE_BUFFER, mark_probe, NULL, NULL);
  gst_object_unref (peer);
  gst_object_unref (pad);
  sink[0] = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  sink[1] = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  /* both sinks keep every sample (an appsink holds EOS back until its
   * samples are pulled) */
  for (b = 0; b < 2; b++)
    g_object_set (sink[b], "max-buffers", 0, "drop", FALSE, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  fail_unless_equals_int (ref->len, 8);
  for (b = 0; b < 2; b++) {
    for (k = 0; k < ref->len; k++) {
      GstSample *s = cfx_test_next_sample (pipeline, sink[b], 20, "tee");

      fail_unless (s != NULL, "branch %u: output %u missing", b, k);
      fail_unless (check_bytes (gst_sample_get_buffer (s),
              gst_sample_get_buffer (g_ptr_array_index (ref, k)), &tee_info,
              b == 1,
              b == 0 ? "reading branch" : "writing branch"));
      gst_sample_unref (s);
    }
  }
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS in 30 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error = NULL;

    gst_message_parse_error (msg, &error, NULL);
    fail ("tee: %s", error->message);
  }
  gst_message_unref (msg);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink[0]);
  gst_object_unref (sink[1]);
  gst_object_unref (q);
  gst_object_unref (pipeline);
  gst_caps_unref (c);
  g_ptr_array_unref (ref);
  g_free (launch);
  g_free (ref_launch);
}

GST_END_TEST;

static Suite *
sharing_suite (void)
{
  Suite *s = suite_create ("cudafx-buffer-sharing");
  TCase *tc = cfx_test_tcase ("sharing");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_copy_shares_write_copies);
  tcase_add_test (tc, test_imagefreeze);
  /* ten runs in a row: a missing wait shows as a torn frame in one */
  tcase_add_loop_test (tc, test_tee_writing_branch, 0, 10);
  return s;
}

int
main (int argc, char **argv)
{
  int ret;

  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return cfx_test_no_gpu_exit ("buffer-sharing");
  if (!cfx_test_load_system_plugin ("imagefreeze")) {
    g_printerr ("buffer-sharing: FAIL: the imagefreeze plugin "
        "(gstreamer1.0-plugins-good) is missing\n");
    return 1;
  }
  if (cudaStreamCreateWithFlags (&test_stream, cudaStreamNonBlocking) !=
      cudaSuccess) {
    g_printerr ("buffer-sharing: FAIL: cannot create a CUDA stream\n");
    return 1;
  }
  ret = cfx_test_run_suite (sharing_suite ());
  cudaStreamDestroy (test_stream);
  return ret;
}
