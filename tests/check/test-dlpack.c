/* GPU suite for the DLPack export (gstcudafxdlpack.h): every component of
 * NV12, I420 and P010_10LE device frames from a pipeline, exported, the
 * pipeline dropped, then the tensors read back through their own fields
 * (data, shape, strides, dtype) and compared with the same frame in
 * system memory; after the deleters no device frame stays in use. (The
 * refusals, which need no GPU: test-plugin-cpu.) Skips (77) without a
 * GPU. */
#include "cfx-test.h"

#include <gst/app/app.h>
#include <gst/cudafx.h>

/* The tensor's samples, read through its fields, equal to component @c of
 * @sys (a mapped system-memory frame) */
static gboolean
tensor_matches (GstCudaFxDLManagedTensor * t, GstVideoFrame * sys, guint c,
    cudaStream_t stream, const gchar * what)
{
  const GstVideoFormatInfo *finfo = sys->info.finfo;
  GstCudaFxDLTensor *dl = &t->dl_tensor;
  gint bytes = dl->dtype.bits / 8, w = (gint) dl->shape[1];
  gint h = (gint) dl->shape[0], x, y;
  gsize row = (gsize) ((w - 1) * dl->strides[1] + 1) * bytes;
  guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
  guint8 *host = g_malloc (row * h);
  gboolean ok = TRUE;

  fail_unless_equals_int (dl->device.device_type, GST_CUDA_FX_DL_DEVICE_CUDA);
  fail_unless_equals_int (dl->ndim, 2);
  fail_unless_equals_int (dl->dtype.code, GST_CUDA_FX_DL_UINT);
  fail_unless_equals_int (dl->dtype.lanes, 1);
  fail_unless_equals_int (w, GST_VIDEO_FRAME_COMP_WIDTH (sys, c));
  fail_unless_equals_int (h, GST_VIDEO_FRAME_COMP_HEIGHT (sys, c));
  fail_unless_equals_int (dl->strides[1] * bytes,
      GST_VIDEO_FRAME_COMP_PSTRIDE (sys, c));
  fail_unless_equals_int (cudaMemcpy2DAsync (host, row,
          (guint8 *) dl->data + dl->byte_offset, dl->strides[0] * bytes, row,
          h, cudaMemcpyDeviceToHost, stream), cudaSuccess);
  fail_unless_equals_int (cudaStreamSynchronize (stream), cudaSuccess);

  for (y = 0; y < h && ok; y++)
    for (x = 0; x < w && ok; x++) {
      const guint8 *got = host + (gsize) y * row +
          (gsize) x * dl->strides[1] * bytes;
      const guint8 *want = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (sys, plane)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (sys, plane) +
          cfx_test_comp_byte_offset (finfo, c) + (gsize) x *
          GST_VIDEO_FRAME_COMP_PSTRIDE (sys, c);

      if (memcmp (got, want, bytes) != 0) {
        g_print ("%s: component %u sample %d,%d differs\n", what, c, x, y);
        ok = FALSE;
      }
    }
  g_free (host);
  return ok;
}

static GstSample *
pull (GstElement * pipeline, const gchar * name)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));

  fail_unless (s != NULL, "no sample from %s", name);
  gst_object_unref (sink);
  return s;
}

static gboolean
export_case (const gchar * format, gint w, gint h)
{
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=1 pattern=ball "
      "! video/x-raw,format=%s,width=%d,height=%d ! tee name=t ! queue ! "
      "cudafxupload ! appsink name=dev sync=false t. ! queue ! appsink "
      "name=sys sync=false", format, w, h);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstCudaFxDLManagedTensor *t[3] = { NULL, NULL, NULL };
  GstSample *dev, *sys;
  GstVideoInfo dev_info, sys_info;
  GstVideoFrame frame;
  GstCudaFxContext *ctx = gst_cuda_fx_context_get (0, NULL);
  cudaStream_t stream;
  guint64 in_use = 1;
  gboolean ok = TRUE;
  guint c, n, i;
  gchar *what = g_strdup_printf ("%s %dx%d", format, w, h);

  fail_unless (pipeline != NULL);
  cfx_test_track_pipeline (pipeline);
  fail_unless (ctx != NULL);
  gst_cuda_fx_context_make_current (ctx);
  fail_unless_equals_int (cudaStreamCreateWithFlags (&stream,
          cudaStreamNonBlocking), cudaSuccess);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  dev = pull (pipeline, "dev");
  sys = pull (pipeline, "sys");
  fail_unless (gst_video_info_from_caps (&dev_info,
          gst_sample_get_caps (dev)));
  fail_unless (gst_video_info_from_caps (&sys_info,
          gst_sample_get_caps (sys)));
  n = GST_VIDEO_INFO_N_COMPONENTS (&dev_info);
  for (c = 0; c < n; c++) {
    GError *error = NULL;

    t[c] = gst_cuda_fx_buffer_export_dlpack (gst_sample_get_buffer (dev),
        &dev_info, c, stream, &error);
    fail_unless (t[c] != NULL, "%s: %s", what, error ? error->message : "?");
  }
  /* the pipeline and the sample gone: the tensors hold the frame */
  gst_sample_unref (dev);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  fail_unless (gst_video_frame_map (&frame, &sys_info,
          gst_sample_get_buffer (sys), GST_MAP_READ));
  for (c = 0; c < n; c++)
    ok &= tensor_matches (t[c], &frame, c, stream, what);
  gst_video_frame_unmap (&frame);
  gst_sample_unref (sys);

  for (c = 0; c < n; c++)
    t[c]->deleter (t[c]);
  /* the last reference went with the deleters: no frame of ours in use */
  for (i = 0; i < 200 && in_use; i++) {
    gst_cuda_fx_context_make_current (ctx);
    cudaDeviceSynchronize ();
    fail_unless (gst_cuda_fx_context_get_memory_stats (ctx, &in_use, NULL));
    if (in_use)
      g_usleep (10000);
  }
  if (in_use) {
    g_print ("%s: %" G_GUINT64_FORMAT " bytes of device frames still in use "
        "after the deleters\n", what, in_use);
    ok = FALSE;
  }
  cudaStreamDestroy (stream);
  gst_object_unref (ctx);
  g_free (launch);
  g_free (what);
  return ok;
}

GST_START_TEST (test_export_outlives_pipeline)
{
  gboolean ok = TRUE;

  ok &= export_case ("NV12", 333, 199);
  ok &= export_case ("I420", 1920, 1080);
  ok &= export_case ("P010_10LE", 641, 361);
  ok &= export_case ("UYVY", 77, 33);
  fail_unless (ok);
}

GST_END_TEST;

static Suite *
dlpack_suite (void)
{
  Suite *s = suite_create ("DLPack export (GPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_export_outlives_pipeline);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "dlpack", dlpack_suite);
}
