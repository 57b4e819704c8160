/* GPU suite: the stream handling every window filter (a window of input
 * frames per output) gets from GstCudaFxFilter, seen through
 * cudadeinterlace in real pipelines: the last fields come out at EOS
 * (before it), a new segment and a gap go downstream after the outputs
 * of the frames that came before them, and properties that change the
 * caps are refused while playing. Expected timestamps follow
 * kernels/deinterlace.md. Skips (77) without a GPU;
 * CUDAFX_REQUIRE_GPU=1 makes that a failure. */
#include "cfx-test.h"

#include <gst/app/app.h>
#include <gst/cudafx.h>

#define MS GST_MSECOND
#define CAPS_I "video/x-raw,format=I420,width=64,height=48,framerate=25/1," \
  "interlace-mode=interleaved,field-order=top-field-first"

/* A real pipeline to EOS: every field of the last frames reaches the sink,
 * in order, with field-rate timestamps */
static void
check_pipeline (const gchar * middle, guint frames, guint per_frame)
{
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=%u "
      "pattern=ball ! " CAPS_I " ! cudafxupload ! %s ! cudafxdownload ! "
      "appsink name=out sync=false", frames, middle);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstClockTime step = 40 * MS / per_frame;
  GstSample *sample;
  GstMessage *msg;
  guint n = 0;

  cfx_test_track_pipeline (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* (an error does not wake an appsink: a missing sample fails after 20 s) */
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              20 * GST_SECOND))) {
    GstBuffer *b = gst_sample_get_buffer (sample);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), n * step);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), step);
    fail_if (GST_BUFFER_FLAG_IS_SET (b, GST_VIDEO_BUFFER_FLAG_INTERLACED));
    gst_sample_unref (sample);
    n++;
  }
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS", middle);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error = NULL;

    gst_message_parse_error (msg, &error, NULL);
    fail ("%s: %s", middle, error->message);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  fail_unless_equals_int (n, frames * per_frame);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (launch);
}

GST_START_TEST (test_eos_drain_last_fields)
{
  check_pipeline ("cudadeinterlace", 7, 2);
  check_pipeline ("queue ! cudadeinterlace ! queue", 7, 2);
  check_pipeline ("cudadeinterlace", 1, 2);
  check_pipeline ("cudadeinterlace fields=top", 5, 1);
  check_pipeline ("cudadeinterlace method=yadif ! cudadeinterlace", 3, 2);
}

GST_END_TEST;

/* What reaches the harness's sink pad, in order: 'B' a buffer, 'S' a
 * segment, 'G' a gap, 'E' EOS */
static GString *order;

static GstPadProbeReturn
record (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    g_string_append_c (order, 'B');
  } else {
    switch (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info))) {
      case GST_EVENT_SEGMENT:
        g_string_append_c (order, 'S');
        break;
      case GST_EVENT_GAP:
        g_string_append_c (order, 'G');
        break;
      case GST_EVENT_EOS:
        g_string_append_c (order, 'E');
        break;
      default:
        break;
    }
  }
  return GST_PAD_PROBE_OK;
}

static GstBuffer *
frame (const GstVideoInfo * info, guint i)
{
  GstBuffer *b = cfx_test_random_frame (info, 90 + i);

  GST_BUFFER_PTS (b) = i * 40 * MS;
  GST_BUFFER_DURATION (b) = 40 * MS;
  return b;
}

/* A non-flushing segment and a gap end the stream before them: the frame
 * waiting for its next one goes out first, and the history starts anew */
GST_START_TEST (test_segment_and_gap_after_pending_outputs)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudadeinterlace ! "
      "cudafxdownload");
  GstCaps *caps = gst_caps_from_string (CAPS_I);
  GstVideoInfo info;
  GstSegment seg;
  guint i;

  order = g_string_new (NULL);
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, caps);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, record, NULL, NULL);

  for (i = 0; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (h, frame (&info, i)),
        GST_FLOW_OK);
  /* two frames out (4 fields), the third waits for its next */
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);

  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = 120 * MS;
  seg.time = 120 * MS;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);

  fail_unless_equals_int (gst_harness_push (h, frame (&info, 3)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  fail_unless (gst_harness_push_event (h, gst_event_new_gap (200 * MS,
              40 * MS)));
  fail_unless_equals_int (gst_harness_buffers_received (h), 8);

  fail_unless_equals_int (gst_harness_push (h, frame (&info, 6)),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 10);

  /* (the harness's own segment went by before the probe) */
  fail_unless_equals_string (order->str, "BBBBBBSBBGBBE");
  g_string_free (order, TRUE);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* fields and mode change the caps: refused while playing, with a warning,
 * and the stream goes on unchanged */
GST_START_TEST (test_caps_properties_refused_while_playing)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudadeinterlace "
      "name=d ! cudafxdownload");
  GstElement *d = gst_harness_find_element (h, "cudadeinterlace");
  GstCaps *caps = gst_caps_from_string (CAPS_I);
  GstVideoInfo info;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  gint fields, mode;
  guint i;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_element_set_bus (d, bus);
  gst_harness_set_src_caps (h, caps);
  fail_unless_equals_int (gst_harness_push (h, frame (&info, 0)),
      GST_FLOW_OK);
  gst_util_set_object_arg (G_OBJECT (d), "fields", "top");
  gst_util_set_object_arg (G_OBJECT (d), "mode", "disabled");
  g_object_get (d, "fields", &fields, "mode", &mode, NULL);
  fail_unless_equals_int (fields, 0);   /* all */
  fail_unless_equals_int (mode, 0);     /* auto */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_unref (msg);

  for (i = 1; i < 4; i++)
    fail_unless_equals_int (gst_harness_push (h, frame (&info, i)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 8);

  gst_element_set_bus (d, NULL);
  gst_object_unref (bus);
  gst_object_unref (d);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
temporal_suite (void)
{
  Suite *s = suite_create ("cudafx-temporal");
  TCase *tc = cfx_test_tcase ("temporal");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_eos_drain_last_fields);
  tcase_add_test (tc, test_segment_and_gap_after_pending_outputs);
  tcase_add_test (tc, test_caps_properties_refused_while_playing);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "temporal", temporal_suite);
}
