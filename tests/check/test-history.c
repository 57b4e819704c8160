/* CPU suite: the input history of temporal filters (gstcudafxhistory.h),
 * on plain buffers: which input is ready and with which neighbours, the
 * drain at the end of a stream, pass-through inputs, and the timestamps,
 * flags and metas of the outputs. Expectations are written from the
 * stream rules of kernels/deinterlace.md, not from the code. */
#include "cfx-test.h"

#include <gst/cudafx.h>

static GstVideoInfo info_25i, info_25p;

static void
setup_infos (void)
{
  gst_video_info_set_interlaced_format (&info_25i, GST_VIDEO_FORMAT_I420,
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 64, 48);
  GST_VIDEO_INFO_FPS_N (&info_25i) = 25;
  GST_VIDEO_INFO_FPS_D (&info_25i) = 1;
  gst_video_info_set_format (&info_25p, GST_VIDEO_FORMAT_I420, 64, 48);
  GST_VIDEO_INFO_FPS_N (&info_25p) = 50;
  GST_VIDEO_INFO_FPS_D (&info_25p) = 1;
}

static GstBuffer *
frame (GstClockTime pts, GstClockTime duration, guint flags)
{
  GstBuffer *b = gst_buffer_new ();

  GST_BUFFER_PTS (b) = pts;
  GST_BUFFER_DTS (b) = pts;
  GST_BUFFER_DURATION (b) = duration;
  GST_BUFFER_OFFSET (b) = 7;
  GST_BUFFER_FLAG_SET (b, flags);
  return b;
}

#define MS GST_MSECOND

/* Window of 1 before, 1 after: nothing is ready until the next frame
 * arrives; the first frame is its own previous one */
GST_START_TEST (test_window_past_future)
{
  GstCudaFxHistory *h;
  GstCudaFxBufferWindow w;
  GstBuffer *f[3];
  guint i;

  setup_infos ();
  h = gst_cuda_fx_history_new (1, 1);
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25p);
  for (i = 0; i < 3; i++)
    f[i] = frame (i * 40 * MS, 40 * MS, 0);

  gst_cuda_fx_history_push (h, gst_buffer_ref (f[0]), 2);
  fail_if (gst_cuda_fx_history_next (h, FALSE, &w));

  gst_cuda_fx_history_push (h, gst_buffer_ref (f[1]), 2);
  fail_unless (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (w.frames[0] == f[0] && w.frames[1] == f[0]
      && w.frames[2] == f[1]);
  fail_unless_equals_int (w.n_before, 0);
  fail_unless_equals_int (w.n_after, 1);
  fail_unless_equals_int (w.n_outputs, 2);
  fail_unless_equals_uint64 (w.duration, 40 * MS);
  gst_cuda_fx_history_advance (h);
  fail_if (gst_cuda_fx_history_next (h, FALSE, &w));

  gst_cuda_fx_history_push (h, gst_buffer_ref (f[2]), 2);
  fail_unless (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (w.frames[0] == f[0] && w.frames[1] == f[1]
      && w.frames[2] == f[2]);
  fail_unless_equals_int (w.n_before, 1);
  fail_unless_equals_int (w.n_after, 1);
  gst_cuda_fx_history_advance (h);

  /* the end of the stream: the last frame is its own next one */
  fail_if (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  fail_unless (w.frames[0] == f[1] && w.frames[1] == f[2]
      && w.frames[2] == f[2]);
  fail_unless_equals_int (w.n_before, 1);
  fail_unless_equals_int (w.n_after, 0);
  gst_cuda_fx_history_advance (h);
  fail_if (gst_cuda_fx_history_next (h, TRUE, &w));
  fail_unless (gst_cuda_fx_history_is_empty (h));

  gst_cuda_fx_history_free (h);
  for (i = 0; i < 3; i++) {
    /* the history let go of every buffer */
    ASSERT_MINI_OBJECT_REFCOUNT (f[i], "frame", 1);
    gst_buffer_unref (f[i]);
  }
}

GST_END_TEST;

/* A radius-2 window: missing neighbours repeat the nearest present frame
 * at both ends, and a drain outputs every input left in order */
GST_START_TEST (test_window_radius_two)
{
  GstCudaFxHistory *h;
  GstCudaFxBufferWindow w;
  GstBuffer *f[4];
  guint i;

  setup_infos ();
  h = gst_cuda_fx_history_new (2, 2);
  gst_cuda_fx_history_set_info (h, &info_25p, &info_25p);
  for (i = 0; i < 4; i++) {
    f[i] = frame (i * 20 * MS, 20 * MS, 0);
    gst_cuda_fx_history_push (h, f[i], 1);
  }
  /* frame 0 has frames 1 and 2 after it */
  fail_unless (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (w.frames[0] == f[0] && w.frames[1] == f[0]
      && w.frames[2] == f[0] && w.frames[3] == f[1] && w.frames[4] == f[2]);
  fail_unless_equals_int (w.n_before, 0);
  fail_unless_equals_int (w.n_after, 2);
  gst_cuda_fx_history_advance (h);
  /* frame 1: one before, two after */
  fail_unless (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (w.frames[0] == f[0] && w.frames[1] == f[0]
      && w.frames[2] == f[1] && w.frames[3] == f[2] && w.frames[4] == f[3]);
  fail_unless_equals_int (w.n_before, 1);
  gst_cuda_fx_history_advance (h);
  /* frame 2 lacks its second next frame until the drain */
  fail_if (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  fail_unless (w.frames[0] == f[0] && w.frames[1] == f[1]
      && w.frames[2] == f[2] && w.frames[3] == f[3] && w.frames[4] == f[3]);
  fail_unless_equals_int (w.n_before, 2);
  fail_unless_equals_int (w.n_after, 1);
  gst_cuda_fx_history_advance (h);
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  fail_unless (w.frames[0] == f[1] && w.frames[1] == f[2]
      && w.frames[2] == f[3] && w.frames[3] == f[3] && w.frames[4] == f[3]);
  fail_unless_equals_int (w.n_after, 0);
  gst_cuda_fx_history_advance (h);
  fail_if (gst_cuda_fx_history_next (h, TRUE, &w));
  gst_cuda_fx_history_free (h);
}

GST_END_TEST;

/* Inputs that go out as they are (progressive frames of mixed content)
 * keep their place in the order and serve as neighbours */
GST_START_TEST (test_pass_through_inputs)
{
  GstCudaFxHistory *h;
  GstCudaFxBufferWindow w;
  GstBuffer *a, *p, *b;

  setup_infos ();
  h = gst_cuda_fx_history_new (1, 1);
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25p);
  a = frame (0, 40 * MS, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  p = frame (40 * MS, 40 * MS, 0);
  b = frame (80 * MS, 40 * MS, GST_VIDEO_BUFFER_FLAG_INTERLACED);

  gst_cuda_fx_history_push (h, a, 2);
  gst_cuda_fx_history_push (h, p, 0);
  /* a first, with p as its next frame */
  fail_unless (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (w.frames[1] == a && w.frames[2] == p);
  gst_cuda_fx_history_advance (h);
  /* then p, at once: it needs no next frame */
  fail_unless (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (w.frames[1] == p);
  fail_unless_equals_int (w.n_outputs, 0);
  gst_cuda_fx_history_advance (h);
  gst_cuda_fx_history_push (h, b, 2);
  fail_if (gst_cuda_fx_history_next (h, FALSE, &w));
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  /* b's previous frame is the passed-through p */
  fail_unless (w.frames[0] == p && w.frames[1] == b && w.frames[2] == b);
  fail_unless_equals_int (w.n_before, 1);
  gst_cuda_fx_history_advance (h);

  /* a flush forgets everything: the next frame starts a stream */
  gst_cuda_fx_history_push (h, frame (0, 40 * MS, 0), 2);
  gst_cuda_fx_history_clear (h);
  fail_unless (gst_cuda_fx_history_is_empty (h));
  gst_cuda_fx_history_push (h, frame (0, 40 * MS, 0), 2);
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  fail_unless_equals_int (w.n_before, 0);
  fail_unless_equals_int (w.n_after, 0);
  gst_cuda_fx_history_free (h);
}

GST_END_TEST;

/* Output k of n spans the k-th n-th of the input's duration: the buffer's
 * own, else up to the next PTS, else the frame rate's period (half for a
 * buffer holding one field), else the last one seen */
static void
outputs_of (GstCudaFxHistory * h, gboolean draining, GstClockTime * pts,
    GstClockTime * dur, guint * n)
{
  GstCudaFxBufferWindow w;
  guint k;

  fail_unless (gst_cuda_fx_history_next (h, draining, &w));
  *n = w.n_outputs;
  for (k = 0; k < w.n_outputs; k++) {
    GstBuffer *out = gst_buffer_new ();

    gst_cuda_fx_history_set_output_metadata (h, &w, out, k);
    pts[k] = GST_BUFFER_PTS (out);
    dur[k] = GST_BUFFER_DURATION (out);
    fail_unless (!GST_BUFFER_DTS_IS_VALID (out));
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out),
        GST_BUFFER_OFFSET_NONE);
    gst_buffer_unref (out);
  }
  gst_cuda_fx_history_advance (h);
}

GST_START_TEST (test_output_timestamps)
{
  GstCudaFxHistory *h;
  GstClockTime pts[2], dur[2];
  guint n;

  setup_infos ();
  h = gst_cuda_fx_history_new (1, 1);
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25p);

  /* the buffer's duration */
  gst_cuda_fx_history_push (h, frame (1000 * MS, 40 * MS, 0), 2);
  /* no duration: up to the next PTS (60 ms later) */
  gst_cuda_fx_history_push (h, frame (1040 * MS, GST_CLOCK_TIME_NONE, 0), 2);
  gst_cuda_fx_history_push (h, frame (1100 * MS, GST_CLOCK_TIME_NONE, 0), 2);
  outputs_of (h, FALSE, pts, dur, &n);
  fail_unless_equals_int (n, 2);
  fail_unless_equals_uint64 (pts[0], 1000 * MS);
  fail_unless_equals_uint64 (pts[1], 1020 * MS);
  fail_unless_equals_uint64 (dur[0], 20 * MS);
  fail_unless_equals_uint64 (dur[1], 20 * MS);
  outputs_of (h, FALSE, pts, dur, &n);
  fail_unless_equals_uint64 (pts[0], 1040 * MS);
  fail_unless_equals_uint64 (pts[1], 1070 * MS);
  fail_unless_equals_uint64 (dur[1], 30 * MS);
  /* the last one: the caps' frame rate (25/1: 40 ms) */
  outputs_of (h, TRUE, pts, dur, &n);
  fail_unless_equals_uint64 (pts[0], 1100 * MS);
  fail_unless_equals_uint64 (pts[1], 1120 * MS);
  fail_unless_equals_uint64 (dur[1], 20 * MS);

  /* one field in the buffer: half the frame period; one output */
  gst_cuda_fx_history_clear (h);
  gst_cuda_fx_history_push (h, frame (0, GST_CLOCK_TIME_NONE,
          GST_VIDEO_BUFFER_FLAG_ONEFIELD), 1);
  outputs_of (h, TRUE, pts, dur, &n);
  fail_unless_equals_int (n, 1);
  fail_unless_equals_uint64 (pts[0], 0);
  fail_unless_equals_uint64 (dur[0], 20 * MS);

  /* no frame rate, no durations: the last one seen; without any, only the
   * first output has a timestamp */
  gst_video_info_set_format (&info_25i, GST_VIDEO_FORMAT_I420, 64, 48);
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25p);
  gst_cuda_fx_history_clear (h);
  gst_cuda_fx_history_push (h, frame (0, GST_CLOCK_TIME_NONE, 0), 2);
  outputs_of (h, TRUE, pts, dur, &n);
  fail_unless_equals_uint64 (pts[0], 0);
  fail_unless (!GST_CLOCK_TIME_IS_VALID (pts[1]));
  fail_unless (!GST_CLOCK_TIME_IS_VALID (dur[0]));
  gst_cuda_fx_history_push (h, frame (0, 50 * MS, 0), 2);
  gst_cuda_fx_history_push (h, frame (50 * MS, GST_CLOCK_TIME_NONE, 0), 2);
  outputs_of (h, FALSE, pts, dur, &n);
  /* the last one has neither: the last duration seen, 50 ms */
  outputs_of (h, TRUE, pts, dur, &n);
  fail_unless_equals_uint64 (pts[1], 75 * MS);
  fail_unless_equals_uint64 (dur[1], 25 * MS);

  gst_cuda_fx_history_free (h);
}

GST_END_TEST;

/* Flags: interlacing flags go when the output is progressive; DISCONT and
 * RESYNC only on the first output. Metas: content metas on the first
 * output only, never the video meta (it describes the memory). */
GST_START_TEST (test_output_flags_and_metas)
{
  GstCudaFxHistory *h;
  GstCudaFxBufferWindow w;
  GstBuffer *in, *out[2];
  guint k;

  setup_infos ();
  h = gst_cuda_fx_history_new (1, 1);
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25p);
  in = frame (0, 40 * MS, GST_BUFFER_FLAG_DISCONT | GST_BUFFER_FLAG_RESYNC |
      GST_VIDEO_BUFFER_FLAG_INTERLACED | GST_VIDEO_BUFFER_FLAG_TFF |
      GST_VIDEO_BUFFER_FLAG_RFF | GST_BUFFER_FLAG_DELTA_UNIT);
  gst_buffer_add_video_time_code_meta_full (in, 25, 1, NULL,
      GST_VIDEO_TIME_CODE_FLAGS_NONE, 10, 20, 30, 4, 0);
  gst_buffer_add_video_meta (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 64, 48);
  gst_cuda_fx_history_push (h, in, 2);
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  for (k = 0; k < 2; k++) {
    out[k] = gst_buffer_new ();
    gst_cuda_fx_history_set_output_metadata (h, &w, out[k], k);
    fail_if (GST_BUFFER_FLAG_IS_SET (out[k],
            GST_VIDEO_BUFFER_FLAG_INTERLACED));
    fail_if (GST_BUFFER_FLAG_IS_SET (out[k], GST_VIDEO_BUFFER_FLAG_TFF));
    fail_if (GST_BUFFER_FLAG_IS_SET (out[k], GST_VIDEO_BUFFER_FLAG_RFF));
    fail_unless (GST_BUFFER_FLAG_IS_SET (out[k], GST_BUFFER_FLAG_DELTA_UNIT));
    fail_unless (gst_buffer_get_video_meta (out[k]) == NULL);
  }
  fail_unless (GST_BUFFER_FLAG_IS_SET (out[0], GST_BUFFER_FLAG_DISCONT));
  fail_unless (GST_BUFFER_FLAG_IS_SET (out[0], GST_BUFFER_FLAG_RESYNC));
  fail_if (GST_BUFFER_FLAG_IS_SET (out[1], GST_BUFFER_FLAG_DISCONT));
  fail_if (GST_BUFFER_FLAG_IS_SET (out[1], GST_BUFFER_FLAG_RESYNC));
  fail_unless (gst_buffer_get_video_time_code_meta (out[0]) != NULL);
  fail_unless_equals_int (gst_buffer_get_video_time_code_meta (out[0])->
      tc.seconds, 30);
  fail_unless (gst_buffer_get_video_time_code_meta (out[1]) == NULL);
  gst_cuda_fx_history_advance (h);
  gst_buffer_unref (out[0]);
  gst_buffer_unref (out[1]);

  /* interlaced output (a temporal filter that keeps fields): flags stay */
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25i);
  gst_cuda_fx_history_push (h, frame (0, 40 * MS,
          GST_VIDEO_BUFFER_FLAG_INTERLACED | GST_VIDEO_BUFFER_FLAG_TFF), 1);
  fail_unless (gst_cuda_fx_history_next (h, TRUE, &w));
  out[0] = gst_buffer_new ();
  gst_cuda_fx_history_set_output_metadata (h, &w, out[0], 0);
  fail_unless (GST_BUFFER_FLAG_IS_SET (out[0],
          GST_VIDEO_BUFFER_FLAG_INTERLACED));
  fail_unless (GST_BUFFER_FLAG_IS_SET (out[0], GST_VIDEO_BUFFER_FLAG_TFF));
  gst_buffer_unref (out[0]);
  gst_cuda_fx_history_free (h);
}

GST_END_TEST;

/* The look-ahead is latency: @future input frames, rounded up */
GST_START_TEST (test_latency)
{
  GstCudaFxHistory *h;
  GstVideoInfo ntsc;

  setup_infos ();
  h = gst_cuda_fx_history_new (1, 1);
  fail_unless_equals_uint64 (gst_cuda_fx_history_get_latency (h), 0);
  gst_cuda_fx_history_set_info (h, &info_25i, &info_25p);
  fail_unless_equals_uint64 (gst_cuda_fx_history_get_latency (h), 40 * MS);
  gst_cuda_fx_history_free (h);

  h = gst_cuda_fx_history_new (2, 2);
  gst_video_info_set_format (&ntsc, GST_VIDEO_FORMAT_I420, 64, 48);
  GST_VIDEO_INFO_FPS_N (&ntsc) = 30000;
  GST_VIDEO_INFO_FPS_D (&ntsc) = 1001;
  gst_cuda_fx_history_set_info (h, &ntsc, &ntsc);
  /* 2 * 1001/30000 s = 66733333.33 ns, rounded up */
  fail_unless_equals_uint64 (gst_cuda_fx_history_get_latency (h), 66733334);
  gst_cuda_fx_history_free (h);
}

GST_END_TEST;

static Suite *
history_suite (void)
{
  Suite *s = suite_create ("cudafx-history");
  TCase *tc = cfx_test_tcase ("history");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_window_past_future);
  tcase_add_test (tc, test_window_radius_two);
  tcase_add_test (tc, test_pass_through_inputs);
  tcase_add_test (tc, test_output_timestamps);
  tcase_add_test (tc, test_output_flags_and_metas);
  tcase_add_test (tc, test_latency);
  return s;
}

int
main (int argc, char **argv)
{
  if (!cfx_test_init (&argc, &argv))
    return 1;
  return cfx_test_run_suite (history_suite ());
}
