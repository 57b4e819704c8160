/* GPU suite: cudadegrain temporal-radius through real pipelines,
 * cudafxupload ! cudadegrain temporal-radius=R ! cudafxdownload ! appsink:
 * - every frame comes out (one output per input, the input's PTS and
 *   duration, in order, no error) for radius 1 to 3, streams of 1, 2 and 7
 *   frames shorter and longer than the window, odd and even sizes of
 *   I420, NV12, UYVY, GRAY8 and P010_10LE;
 * - the latency grows by R frames (the element's answer and the
 *   pipeline's);
 * - a still clip with noise: radius 2 beats the spatial filter (radius 0)
 *   by 2 dB on luma and is not worse on chroma;
 * - a GRAY8 pan through the element within 1 of the CPU reference on every
 *   sample (the search images kept across frames from a recycling pool);
 * - a scene cut: the frames next to it come out as when each shot is its
 *   own stream (nothing of the other shot is blended in);
 * - a DISCONT drains: every frame out, in order, timestamps unchanged;
 * - temporal-radius set while playing is refused with a warning, set in
 *   NULL it takes effect at the next start; its range is the GParamSpec's.
 * Quality is compared with the element's own radius 0, not with the CPU
 * reference (tests/reference/temporal.c: there a still clip gains 4.6 dB).
 * Skips (77) without a GPU; CUDAFX_REQUIRE_GPU=1 makes that a failure. */
#include "cfx-test.h"
#include "cfx-reference.h"

#include <gst/app/app.h>
#include <dirent.h>
#include <execinfo.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FRAME ((GstClockTime) (GST_SECOND / 25))
#define LIVE_FRAMES 8
#define LIVE_LAUNCH "videotestsrc is-live=true num-buffers=%u " \
  "pattern=ball ! video/x-raw,format=I420,width=64,height=48," \
  "framerate=25/1 ! cudafxupload ! cudadegrain name=d temporal-radius=%d " \
  "! cudafxdownload ! appsink name=out sync=true"

/* ---- running frames through the element ------------------------------ */

/* Every sample of @pipeline's appsink "out" up to EOS, after @first (one
 * pulled already, taken; or NULL): @n frames in all, 40 ms apart (a
 * live source starts at its running time, not 0), each lasting 40 ms */
static GPtrArray *
collect_frames (GstElement * pipeline, GstSample * first, guint n,
    const gchar * what)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstSample *sample;
  GstClockTime pts0;
  guint k;

  if (first)
    g_ptr_array_add (samples, first);
  while ((sample = cfx_test_next_sample (pipeline, sink, 20, what)))
    g_ptr_array_add (samples, sample);
  cfx_test_fail_on_error (pipeline, what);
  fail_unless (samples->len == n, "%s: %u frames out of %u", what,
      samples->len, n);
  pts0 = GST_BUFFER_PTS (gst_sample_get_buffer (g_ptr_array_index (samples,
              0)));
  for (k = 0; k < samples->len; k++) {
    GstBuffer *b = gst_sample_get_buffer (g_ptr_array_index (samples, k));

    fail_unless (GST_BUFFER_PTS (b) == pts0 + k * FRAME, "%s: frame %u at %"
        GST_TIME_FORMAT ", the first at %" GST_TIME_FORMAT, what, k,
        GST_TIME_ARGS (GST_BUFFER_PTS (b)), GST_TIME_ARGS (pts0));
    fail_unless (GST_BUFFER_DURATION (b) == FRAME, "%s: frame %u lasts %"
        GST_TIME_FORMAT, what, k, GST_TIME_ARGS (GST_BUFFER_DURATION (b)));
  }
  gst_object_unref (sink);
  return samples;
}

/* The first sample of a pipeline just started */
static GstSample *
first_frame (GstElement * pipeline, const gchar * what)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstSample *first = cfx_test_next_sample (pipeline, sink, 20, what);

  fail_unless (first != NULL, "%s: EOS before a frame", what);
  gst_object_unref (sink);
  return first;
}

/* @n frames pushed by an appsrc as one stream through temporal-radius
 * @radius, sigma 10 (and @more properties): the outputs, checked to be one
 * per input with its PTS and duration */
static GPtrArray *
run_appsrc_with (const GstVideoInfo * info, GstBuffer ** frames, guint n,
    gint radius, const gchar * more)
{
  gchar *launch = g_strdup_printf ("appsrc name=src format=time ! "
      "cudafxupload ! cudadegrain temporal-radius=%d sigma=10 %s ! "
      "cudafxdownload ! appsink name=out sync=false", radius, more);
  GstElement *pipeline = cfx_test_track_pipeline (gst_parse_launch (launch, NULL));
  GstElement *src;
  GstCaps *caps = gst_video_info_to_caps (info);
  GPtrArray *samples;
  guint k;

  fail_unless (pipeline != NULL, "%s", launch);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  gst_app_src_set_caps (GST_APP_SRC (src), caps);
  gst_caps_unref (caps);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "%s", launch);
  for (k = 0; k < n; k++)
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            gst_buffer_ref (frames[k])), GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  samples = cfx_test_collect_samples (pipeline, "out", 20, launch);
  fail_unless (samples->len == n, "%s: %u frames out of %u", launch,
      samples->len, n);
  for (k = 0; k < samples->len; k++) {
    GstBuffer *b = gst_sample_get_buffer (g_ptr_array_index (samples, k));

    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), GST_BUFFER_PTS (frames[k]));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b),
        GST_BUFFER_DURATION (frames[k]));
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (launch);
  return samples;
}

static GPtrArray *
run_appsrc (const GstVideoInfo * info, GstBuffer ** frames, guint n,
    gint radius)
{
  return run_appsrc_with (info, frames, n, radius, "");
}

/* ---- clips of known content ------------------------------------------- */

#define CLIP_W 96
#define CLIP_H 80
#define CLIP_MAX 9
#define CLIP_SIGMA 10.0

/* Component @c of shot @shot: smooth, in 8-bit units. Luma is the
 * reference's texture (test-temporal-ref.c); the two shots differ
 * everywhere (mean square 3400 against the cut test's 600) */
static double
pattern (gint shot, guint c, double x, double y, gint w, gint h)
{
  if (c == 0 && shot == 0)
    return 128 + 45 * sin (0.21 * x + 0.07 * y) + 30 * sin (0.05 * x -
        0.17 * y) + 20 * cos (0.31 * y + 0.02 * x * x / w);
  if (c == 0)
    return 110 + 60 * sin (0.09 * x * y / h) + 25 * cos (0.4 * x - 0.3 * y);
  if (shot == 0)
    return 128 + 30 * sin (0.23 * x + 0.11 * y + c) + 15 * cos (0.13 * y -
        0.07 * x);
  return 128 - 40 * cos (0.19 * x * y / h + 2 * c) + 20 * sin (0.5 * x +
      0.2 * y);
}

typedef struct
{
  GstVideoInfo info;
  guint n;
  GstBuffer *noisy[CLIP_MAX];
  guint8 *clean[CLIP_MAX][GST_VIDEO_MAX_COMPONENTS];
} Clip;

/* @n frames of 8-bit planar @format at 25/1: frames from @cut on are the
 * second shot; every frame and component has its own noise */
static void
clip_init (Clip * clip, const gchar * format, guint n, guint cut,
    guint64 seed)
{
  guint t, c;

  g_assert (n <= CLIP_MAX);
  memset (clip, 0, sizeof (*clip));
  gst_video_info_set_format (&clip->info, gst_video_format_from_string
      (format), CLIP_W, CLIP_H);
  clip->info.fps_n = 25;
  clip->info.fps_d = 1;
  clip->n = n;
  for (t = 0; t < n; t++) {
    GstBuffer *buf = cfx_test_random_frame (&clip->info, seed + t);
    GstVideoFrame f;

    fail_unless (gst_video_frame_map (&f, &clip->info, buf, GST_MAP_WRITE));
    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++) {
      gint w = GST_VIDEO_FRAME_COMP_WIDTH (&f, c);
      gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&f, c), x, y;
      guint8 *data = GST_VIDEO_FRAME_COMP_DATA (&f, c);
      gint stride = GST_VIDEO_FRAME_COMP_STRIDE (&f, c);
      guint64 state = seed * 1000 + t * 10 + c;

      clip->clean[t][c] = g_malloc ((gsize) w * h);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          double v = pattern (t >= cut, c, x, y, w, h);

          clip->clean[t][c][y * w + x] = cfx_test_clip_u8 (v);
          data[(gsize) y * stride + x] = cfx_test_clip_u8 (v + CLIP_SIGMA *
              cfx_test_gauss (&state));
        }
    }
    gst_video_frame_unmap (&f);
    GST_BUFFER_PTS (buf) = t * FRAME;
    GST_BUFFER_DURATION (buf) = FRAME;
    clip->noisy[t] = buf;
  }
}

static void
clip_clear (Clip * clip)
{
  guint t, c;

  for (t = 0; t < clip->n; t++) {
    gst_buffer_unref (clip->noisy[t]);
    for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++)
      g_free (clip->clean[t][c]);
  }
}

/* PSNR (dB) of component @c of @sample against clip frame @t's clean one */
static double
psnr (const Clip * clip, GstSample * sample, guint t, guint c)
{
  GstVideoInfo info;
  GstVideoFrame f;
  double se = 0.0;
  gint w, h, x, y;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
          (sample)));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_INFO_FORMAT (&clip->info));
  fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ));
  w = GST_VIDEO_FRAME_COMP_WIDTH (&f, c);
  h = GST_VIDEO_FRAME_COMP_HEIGHT (&f, c);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      double d = ((guint8 *) GST_VIDEO_FRAME_COMP_DATA (&f, c))[(gsize) y *
          GST_VIDEO_FRAME_COMP_STRIDE (&f, c) + x] -
          (double) clip->clean[t][c][y * w + x];

      se += d * d;
    }
  gst_video_frame_unmap (&f);
  return se == 0.0 ? 99.0 : 10.0 * log10 (255.0 * 255.0 * w * h / se);
}

/* ---- every frame out -------------------------------------------------- */

/* Streams shorter than the window (1, 2 frames) and longer (7): each
 * frame comes out, with its timestamps, before EOS */
GST_START_TEST (test_every_frame_out)
{
  static const gchar *formats[] = { "I420", "NV12", "UYVY", "GRAY8",
    "P010_10LE"
  };
  static const gint sizes[][2] = { {67, 45}, {64, 48} };
  /* (radius, frames): shorter than the window, the automatic estimate's
   * first-frame wait, longer than the window */
  static const gint runs[][2] = { {1, 7}, {2, 2}, {3, 1}, {3, 7} };
  guint f, s, l;

  for (l = 0; l < G_N_ELEMENTS (runs); l++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++)
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
          gint r = runs[l][0];
          guint frames = runs[l][1];
          /* the 2-frame streams with the automatic estimate (the first
           * frame waits for its own) */
          gchar *launch = g_strdup_printf ("videotestsrc num-buffers=%u "
              "pattern=ball ! video/x-raw,format=%s,width=%d,height=%d,"
              "framerate=25/1 ! cudafxupload ! cudadegrain "
              "temporal-radius=%d sigma=%d ! cudafxdownload ! "
              "appsink name=out sync=false", frames, formats[f],
              sizes[s][0], sizes[s][1], r, frames == 2 ? 0 : 8);
          GstStateChangeReturn ret;
          GstElement *pipeline =
              cfx_test_start_pipeline (launch, &ret);
          GPtrArray *samples;
          GstVideoInfo info;

          fail_if (ret == GST_STATE_CHANGE_FAILURE, "%s", launch);
          samples = collect_frames (pipeline, NULL, frames, launch);
          fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
                  (g_ptr_array_index (samples, 0))));
          fail_unless_equals_string (GST_VIDEO_INFO_NAME (&info),
              formats[f]);
          fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), sizes[s][0]);
          fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info),
              sizes[s][1]);
          g_ptr_array_unref (samples);
          gst_element_set_state (pipeline, GST_STATE_NULL);
          gst_object_unref (pipeline);
          g_free (launch);
        }
}

GST_END_TEST;

/* ---- latency ---------------------------------------------------------- */

/* What @d adds to upstream's minimum latency: its src pad's answer less
 * its sink pad's peer's (both live) */
static GstClockTime
element_latency (GstElement * d)
{
  GstPad *sinkpad = gst_element_get_static_pad (d, "sink");
  GstPad *srcpad = gst_element_get_static_pad (d, "src");
  GstQuery *up = gst_query_new_latency (), *q = gst_query_new_latency ();
  GstClockTime up_min, up_max, min, max;
  gboolean up_live, live;

  fail_unless (gst_pad_peer_query (sinkpad, up));
  fail_unless (gst_pad_query (srcpad, q));
  gst_query_parse_latency (up, &up_live, &up_min, &up_max);
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (up_live && live);
  fail_unless (min >= up_min);
  /* the maximum grows with the minimum (the element holds the frames) */
  if (GST_CLOCK_TIME_IS_VALID (up_max))
    fail_unless_equals_uint64 (max - up_max, min - up_min);
  gst_query_unref (up);
  gst_query_unref (q);
  gst_object_unref (sinkpad);
  gst_object_unref (srcpad);
  return min - up_min;
}

/* A live stream: once a frame is out, the element adds R frames (40 ms
 * each) and so does the pipeline, against radius 0 */
GST_START_TEST (test_latency)
{
  GstClockTime total[4];
  gint r;

  for (r = 0; r <= 3; r++) {
    gchar *launch = g_strdup_printf (LIVE_LAUNCH, LIVE_FRAMES, r);
    GstStateChangeReturn ret;
    GstElement *pipeline =
        cfx_test_start_pipeline (launch, &ret);
    GstElement *d = gst_bin_get_by_name (GST_BIN (pipeline), "d");
    GstQuery *q = gst_query_new_latency ();
    GstSample *first;
    gboolean live;

    fail_if (ret == GST_STATE_CHANGE_FAILURE, "%s", launch);
    first = first_frame (pipeline, launch);
    fail_unless_equals_uint64 (element_latency (d), r * FRAME);
    /* (a sink counts upstream's latency only when it syncs) */
    fail_unless (gst_element_query (pipeline, q));
    gst_query_parse_latency (q, &live, &total[r], NULL);
    fail_unless (live);
    g_ptr_array_unref (collect_frames (pipeline, first, LIVE_FRAMES,
            launch));
    gst_query_unref (q);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (d);
    gst_object_unref (pipeline);
    g_free (launch);
  }
  for (r = 1; r <= 3; r++)
    fail_unless (total[r] - total[0] == r * FRAME, "radius %d: pipeline "
        "latency %" GST_TIME_FORMAT ", radius 0: %" GST_TIME_FORMAT, r,
        GST_TIME_ARGS (total[r]), GST_TIME_ARGS (total[0]));
}

GST_END_TEST;

/* ---- quality ---------------------------------------------------------- */

/* A still picture, new noise in every frame: radius 2 against radius 0,
 * per frame. Frames 2 to 6 have their full window: 2 dB more on luma
 * (4.5 on the CPU reference) and chroma not worse (it follows luma's
 * weights); the ends, with fewer neighbours, still gain */
GST_START_TEST (test_still_clip_gain)
{
  static const gchar *formats[] = { "GRAY8", "I420" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    Clip clip;
    GPtrArray *r0, *r2;
    guint t, c, nc;

    clip_init (&clip, formats[f], 9, G_MAXUINT, 11 + f);
    nc = GST_VIDEO_INFO_N_COMPONENTS (&clip.info);
    r0 = run_appsrc (&clip.info, clip.noisy, clip.n, 0);
    r2 = run_appsrc (&clip.info, clip.noisy, clip.n, 2);
    g_print ("%s still clip, PSNR (dB) radius 0 / radius 2:\n", formats[f]);
    for (t = 0; t < clip.n; t++) {
      for (c = 0; c < nc; c++) {
        double p0 = psnr (&clip, g_ptr_array_index (r0, t), t, c);
        double p2 = psnr (&clip, g_ptr_array_index (r2, t), t, c);
        gboolean full = t >= 2 && t + 2 < clip.n;

        g_print ("  frame %u component %u: %6.2f / %6.2f\n", t, c, p0, p2);
        if (c == 0)
          fail_unless (p2 >= p0 + (full ? 2.0 : 1.0), "%s frame %u: radius "
              "2 gains %.2f dB on luma over radius 0", formats[f], t,
              p2 - p0);
        else if (full)
          fail_unless (p2 >= p0, "%s frame %u component %u: radius 2 "
              "%.2f dB, radius 0 %.2f", formats[f], t, c, p2, p0);
      }
    }
    g_ptr_array_unref (r0);
    g_ptr_array_unref (r2);
    clip_clear (&clip);
  }
}

GST_END_TEST;

/* A cut between frames 3 and 4 of two very different shots: frames 3 and
 * 4 come out as when each shot is a stream of its own (within 0.3 dB in
 * every component; the same bytes are expected, the cut test being
 * frame-wide), so nothing of the other shot is blended in */
GST_START_TEST (test_scene_cut)
{
  static const gchar *formats[] = { "GRAY8", "I420" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    Clip clip;
    GPtrArray *all, *a, *b;
    guint c, nc;

    clip_init (&clip, formats[f], 8, 4, 31 + f);
    nc = GST_VIDEO_INFO_N_COMPONENTS (&clip.info);
    all = run_appsrc (&clip.info, clip.noisy, 8, 2);
    a = run_appsrc (&clip.info, clip.noisy, 4, 2);
    b = run_appsrc (&clip.info, clip.noisy + 4, 4, 2);
    for (c = 0; c < nc; c++) {
      double p3 = psnr (&clip, g_ptr_array_index (all, 3), 3, c);
      double a3 = psnr (&clip, g_ptr_array_index (a, 3), 3, c);
      double p4 = psnr (&clip, g_ptr_array_index (all, 4), 4, c);
      double b4 = psnr (&clip, g_ptr_array_index (b, 0), 4, c);

      g_print ("%s cut, component %u: frame 3 %.2f dB (shot alone %.2f), "
          "frame 4 %.2f dB (shot alone %.2f)\n", formats[f], c, p3, a3, p4,
          b4);
      fail_unless (fabs (p3 - a3) <= 0.3, "%s component %u: frame 3 before "
          "the cut %.2f dB, in its shot alone %.2f", formats[f], c, p3, a3);
      fail_unless (fabs (p4 - b4) <= 0.3, "%s component %u: frame 4 after "
          "the cut %.2f dB, in its shot alone %.2f", formats[f], c, p4, b4);
    }
    g_ptr_array_unref (all);
    g_ptr_array_unref (a);
    g_ptr_array_unref (b);
    clip_clear (&clip);
  }
}

GST_END_TEST;

/* ---- against the reference ------------------------------------------- */

/* A GRAY8 pan of (0.7, 1.3) px a frame with noise, through the element at
 * radius 2 with the reference's settings (sigma 10, 5 levels): every
 * output within 1 of cfx_ref_temporal_degrain, as the kernels alone are
 * (test-degrain-temporal). Here the frames come through cudafxupload's
 * pool, which hands its buffers out again: a search image kept for a
 * buffer that came back with another frame would give other vectors. */
GST_START_TEST (test_gray8_against_reference)
{
  const gint w = 96, h = 80, n = 9;
  GstVideoInfo info;
  GstBuffer *frames[9];
  const guint8 *planes[9];
  guint8 *data[9], *ref = g_malloc ((gsize) w * h);
  GPtrArray *out;
  guint64 state = 2024;
  guint max_err = 0, diffs = 0;
  gint t, x, y;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
  info.fps_n = 25;
  info.fps_d = 1;
  for (t = 0; t < n; t++) {
    data[t] = g_malloc ((gsize) w * h);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        double v = 128 + 45 * sin (0.21 * (x - 0.7 * t) + 0.07 * (y -
                1.3 * t)) + 30 * sin (0.05 * (x - 0.7 * t) - 0.17 * (y -
                1.3 * t));

        data[t][y * w + x] = cfx_test_clip_u8 (v + 10.0 *
            cfx_test_gauss (&state));
      }
    planes[t] = data[t];
    frames[t] = cfx_test_random_frame (&info, 500 + t);
    {
      GstVideoFrame f;

      fail_unless (gst_video_frame_map (&f, &info, frames[t],
              GST_MAP_WRITE));
      for (y = 0; y < h; y++)
        memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
            (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
            data[t] + (gsize) y * w, w);
      gst_video_frame_unmap (&f);
    }
    GST_BUFFER_PTS (frames[t]) = t * FRAME;
    GST_BUFFER_DURATION (frames[t]) = FRAME;
  }

  out = run_appsrc_with (&info, frames, n, 2, "levels=5");
  for (t = 0; t < n; t++) {
    GstVideoFrame f;

    cfx_ref_temporal_degrain (ref, planes, n, t, w, h, 2, 10.0f);
    fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer
            (g_ptr_array_index (out, t)), GST_MAP_READ));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gint e = abs ((gint) ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f,
                    0))[(gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) +
                x] - ref[y * w + x]);

        max_err = MAX (max_err, (guint) e);
        diffs += e != 0;
      }
    gst_video_frame_unmap (&f);
  }
  g_print ("GRAY8 pan through the element, radius 2: %u samples of %d "
      "differ from the reference, by at most %u\n", diffs, n * w * h,
      max_err);
  fail_unless (max_err <= 1, "off by %u", max_err);
  g_ptr_array_unref (out);
  for (t = 0; t < n; t++) {
    gst_buffer_unref (frames[t]);
    g_free (data[t]);
  }
  g_free (ref);
}

GST_END_TEST;

/* ---- stream handling -------------------------------------------------- */

/* 6 frames, the 4th DISCONT, the clock jumping a second there: the
 * frames before it come out when it arrives (the window ends there), all 6
 * come out at EOS with their timestamps, and only the 4th output says
 * DISCONT (among those after the first) */
GST_START_TEST (test_discont_drain)
{
  GstVideoInfo info;
  GstBuffer *frames[6];
  gint r;
  guint k;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  info.fps_n = 25;
  info.fps_d = 1;
  for (k = 0; k < 6; k++) {
    frames[k] = cfx_test_random_frame (&info, 70 + k);
    GST_BUFFER_PTS (frames[k]) = (k >= 3 ? GST_SECOND : 0) + k * FRAME;
    GST_BUFFER_DURATION (frames[k]) = FRAME;
  }
  GST_BUFFER_FLAG_SET (frames[3], GST_BUFFER_FLAG_DISCONT);

  for (r = 1; r <= 3; r++) {
    gchar *launch = g_strdup_printf ("cudafxupload ! cudadegrain "
        "temporal-radius=%d sigma=10 ! cudafxdownload", r);
    GstHarness *h = gst_harness_new_parse (launch);
    guint ready = 3 > (guint) r ? 3 - r : 0;
    GPtrArray *samples;

    /* the outputs as the frames come: R frames wait for their next ones,
     * and the DISCONT releases them */
    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
    for (k = 0; k < 3; k++)
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref
              (frames[k])), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_received (h), ready);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (frames[3])),
        GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_received (h), 3);
    for (k = 4; k < 6; k++)
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref
              (frames[k])), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_received (h), 3 + ready);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    fail_unless_equals_int (gst_harness_buffers_received (h), 6);
    for (k = 0; k < 6; k++) {
      GstBuffer *b = gst_harness_pull (h);

      fail_unless_equals_uint64 (GST_BUFFER_PTS (b),
          GST_BUFFER_PTS (frames[k]));
      gst_buffer_unref (b);
    }
    gst_harness_teardown (h);
    g_free (launch);

    /* the same through an appsrc pipeline */
    samples = run_appsrc (&info, frames, 6, r);
    for (k = 1; k < 6; k++) {
      GstBuffer *b = gst_sample_get_buffer (g_ptr_array_index (samples, k));

      fail_unless (!!GST_BUFFER_IS_DISCONT (b) == (k == 3), "radius %d: "
          "output %u %s DISCONT", r, k, k == 3 ? "not" : "marked");
    }
    g_ptr_array_unref (samples);
  }
  for (k = 0; k < 6; k++)
    gst_buffer_unref (frames[k]);
}

GST_END_TEST;

/* temporal-radius changes only in NULL or READY: set while playing it is
 * refused with a warning and the stream goes on with its window (latency,
 * every frame out); set in NULL, the next start takes it */
GST_START_TEST (test_radius_while_playing)
{
  gchar *launch = g_strdup_printf (LIVE_LAUNCH, LIVE_FRAMES, 1);
  GstStateChangeReturn ret;
  GstElement *pipeline = cfx_test_start_pipeline (launch, &ret);
  GstElement *d = gst_bin_get_by_name (GST_BIN (pipeline), "d");
  GstSample *first;
  gint radius = 0;

  fail_if (ret == GST_STATE_CHANGE_FAILURE, "%s", launch);
  first = first_frame (pipeline, launch);
  fail_unless_equals_uint64 (element_latency (d), FRAME);

  /* refused while started (a warning on the bus): the value read back is
   * the one in effect */
  g_object_set (d, "temporal-radius", 3, NULL);
  g_object_get (d, "temporal-radius", &radius, NULL);
  fail_unless_equals_int (radius, 1);
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);

    fail_unless (msg != NULL, "no warning for a radius set while PLAYING");
    gst_message_unref (msg);
    gst_object_unref (bus);
  }
  fail_unless_equals_uint64 (element_latency (d), FRAME);
  g_ptr_array_unref (collect_frames (pipeline, first, LIVE_FRAMES, launch));

  /* set in NULL, the next start takes it */
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (d, "temporal-radius", 3, NULL);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  first = first_frame (pipeline, launch);
  fail_unless_equals_uint64 (element_latency (d), 3 * FRAME);
  g_ptr_array_unref (collect_frames (pipeline, first, LIVE_FRAMES, launch));

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (d);
  gst_object_unref (pipeline);
  g_free (launch);
}

GST_END_TEST;

/* 0 to 3, 0 by default, mutable in READY only; GLib refuses 4 */
GST_START_TEST (test_radius_range)
{
  GstElement *e = gst_element_factory_make ("cudadegrain", NULL);
  GParamSpec *ps;
  GParamSpecInt *ips;
  gint radius = -1;

  fail_unless (e != NULL);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "temporal-radius");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_INT (ps));
  ips = G_PARAM_SPEC_INT (ps);
  fail_unless_equals_int (ips->minimum, 0);
  fail_unless_equals_int (ips->maximum, 3);
  fail_unless_equals_int (ips->default_value, 0);
  fail_unless (ps->flags & GST_PARAM_MUTABLE_READY);
  /* not PLAYING-mutable, and no controller may change it mid-stream */
  fail_if (ps->flags & (GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  g_object_get (e, "temporal-radius", &radius, NULL);
  fail_unless_equals_int (radius, 0);
  g_object_set (e, "temporal-radius", 3, NULL);
  /* g_object_set refuses a value out of the property's range with a
   * g_warning up to GLib 2.74 and a g_critical from 2.76 on (GLib's
   * "Replace most GObject warnings with criticals"): the GLib the test
   * runs with decides which */
  if (glib_check_version (2, 76, 0) == NULL)
    ASSERT_CRITICAL (g_object_set (e, "temporal-radius", 4, NULL));
  else
    ASSERT_WARNING (g_object_set (e, "temporal-radius", 4, NULL));
  g_object_get (e, "temporal-radius", &radius, NULL);
  fail_unless_equals_int (radius, 3);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- a watchdog ------------------------------------------------------ */

/* Without a fork (CK_FORK=no) check has no time limit: a test that hangs
 * would hold the GPU host until the runner's limit. Each test gets
 * WATCH_S seconds; past that the process says which test hung, where the
 * test's thread waits (its stack), and exits. */
#define WATCH_S 150

/* the tests' names in the order they are added (degrain_temporal_suite) */
static const gchar *test_names[16];
static guint n_tests;
static guint test_index;
static pthread_t test_thread;

/* SIGUSR1 on every thread: each writes its own stack */
static void
on_dump (int sig)
{
  char head[64];
  void *frames[64];
  int n = g_snprintf (head, sizeof head, "\n-- thread %ld:\n",
      (long) syscall (SYS_gettid));

  if (write (2, head, n) < 0)
    return;
  n = backtrace (frames, G_N_ELEMENTS (frames));
  backtrace_symbols_fd (frames, n, 2);
}

static void
on_alarm (int sig)
{
  static const char msg[] = " still running after the watchdog's limit: "
      "hung; every thread's stack:\n";
  const char *name = test_index > 0 && test_index <= n_tests ?
      test_names[test_index - 1] : "a test";
  DIR *tasks;
  struct dirent *d;

  /* the alarm may land on a streaming thread: pass it to the test's */
  if (!pthread_equal (pthread_self (), test_thread)) {
    pthread_kill (test_thread, sig);
    return;
  }
  if (write (2, name, strlen (name)) < 0 || write (2, msg, sizeof msg - 1) < 0)
    _exit (3);
  signal (SIGUSR1, on_dump);
  /* opendir is not async-signal-safe; the process ends here anyway */
  if ((tasks = opendir ("/proc/self/task"))) {
    while ((d = readdir (tasks))) {
      long tid = atol (d->d_name);

      if (tid > 0) {
        syscall (SYS_tgkill, (long) getpid (), tid, SIGUSR1);
        usleep (100000);
      }
    }
    closedir (tasks);
  }
  _exit (3);
}

static void
watch_start (void)
{
  test_index++;
  test_thread = pthread_self ();
  signal (SIGALRM, on_alarm);
  alarm (WATCH_S);
}

/* Teardowns run in reverse order of registration: this one before
 * cfx_test_tcase's. What a failed check left playing is stopped here,
 * while the alarm still runs (a stop that blocks is then reported);
 * the fixture's own call finds nothing left */
static void
watch_stop (void)
{
  cfx_test_stop_pipelines ();
  alarm (0);
}

static Suite *
degrain_temporal_suite (void)
{
  Suite *s = suite_create ("cudadegrain temporal-radius (GPU)");
  TCase *tc = cfx_test_tcase ("temporal");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, watch_start, watch_stop);
  /* each test by name, for the watchdog */
#define ADD(t) G_STMT_START { \
    g_assert (n_tests < G_N_ELEMENTS (test_names)); \
    test_names[n_tests++] = #t; \
    tcase_add_test (tc, t); \
  } G_STMT_END
  ADD (test_radius_range);
  ADD (test_every_frame_out);
  ADD (test_latency);
  ADD (test_still_clip_gain);
  ADD (test_gray8_against_reference);
  ADD (test_scene_cut);
  ADD (test_discont_drain);
  ADD (test_radius_while_playing);
#undef ADD
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "degrain-temporal-element", degrain_temporal_suite);
}
