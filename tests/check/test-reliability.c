/* GPU suite: reliability. Bad input, renegotiation, tee branches at
 * different speeds, flushing seeks, live property changes, processes in
 * parallel, device memory taken by another process, a deep queue, large
 * frames, pinned input of several memories and the bytes of row padding.
 * Each case is one pass/fail line (the suite runs verbose). Outputs are
 * compared with other runs of the same elements: the property tested is
 * that the bytes depend on the input alone; the suites of each element
 * check the bytes against the CPU references.
 *
 * The same binary is its own child process: CFX_RELIABILITY_CHILD=chain
 * prints the checksum of one run of the chain, CFX_RELIABILITY_CHILD=hog
 * takes all but CFX_RELIABILITY_LEAVE_MIB of device memory until its stdin
 * closes. Skips (77) without a GPU; CUDAFX_REQUIRE_GPU=1 makes that a
 * failure. */
#include "cfx-test.h"

#include <gst/app/app.h>
#include <gst/cudafx.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FRAME_NS (GST_SECOND / 25)
#define NOISY_W 320
#define NOISY_H 240
#define NOISY_FRAMES 24
#define NOISY_CAPS "video/x-raw,format=I420,width=320,height=240," \
  "framerate=25/1,interlace-mode=interleaved,field-order=top-field-first"
#define CHAIN "cudafxupload ! cudadeinterlace ! cudadegrain ! " \
  "cudablur sigma=1.5 ! cudafxdownload"

/* ---- a seekable source of noisy frames -------------------------------- */

/* Smooth picture plus noise whose level changes from frame to frame (2 to
 * 26 in 8-bit units), so that the noise estimate of every frame matters */
static GstBuffer *
noisy_frame (const GstVideoInfo * info, guint k)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  guint64 x = 0x9E3779B97F4A7C15ull * (k + 1);
  gdouble sigma = 2.0 + 3.0 * (k % 9);
  GstVideoFrame frame;
  guint p;

  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&frame, p);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p), i, j;

    for (j = 0; j < h; j++) {
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
          (gsize) j *GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);

      for (i = 0; i < w; i++) {
        gdouble v, n;

        /* a sum of 4 uniforms: close enough to Gaussian, variance 1 */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        n = ((x & 0xffff) + ((x >> 16) & 0xffff) + ((x >> 32) & 0xffff) +
            (x >> 48)) / 65536.0 - 2.0;
        v = 128.0 + 70.0 * ((i * 7 + j * 3 + k * 5 + p * 40) % 256) / 256.0
            + sigma * n * 1.73;
        row[i] = (guint8) CLAMP (v + 0.5, 0.0, 255.0);
      }
    }
  }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buf) = k * FRAME_NS;
  GST_BUFFER_DURATION (buf) = FRAME_NS;
  return buf;
}

typedef struct
{
  GMutex lock;
  GPtrArray *frames;
  guint next;
} NoisySource;

static GPtrArray *noisy_frames;

static GPtrArray *
get_noisy_frames (void)
{
  if (!noisy_frames) {
    GstCaps *caps = gst_caps_from_string (NOISY_CAPS);
    GstVideoInfo info;
    guint k;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    noisy_frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_buffer_unref);
    for (k = 0; k < NOISY_FRAMES; k++)
      g_ptr_array_add (noisy_frames, noisy_frame (&info, k));
  }
  return noisy_frames;
}

static void
noisy_need_data (GstAppSrc * src, guint length, gpointer user_data)
{
  NoisySource *ns = user_data;
  GstBuffer *buf = NULL;

  g_mutex_lock (&ns->lock);
  if (ns->next < ns->frames->len)
    buf = gst_buffer_copy (g_ptr_array_index (ns->frames, ns->next++));
  g_mutex_unlock (&ns->lock);
  if (buf)
    gst_app_src_push_buffer (src, buf);
  else
    gst_app_src_end_of_stream (src);
}

static gboolean
noisy_seek_data (GstAppSrc * src, guint64 offset, gpointer user_data)
{
  NoisySource *ns = user_data;

  g_mutex_lock (&ns->lock);
  ns->next = (guint) (offset / FRAME_NS);
  g_mutex_unlock (&ns->lock);
  return TRUE;
}

static void
noisy_free (gpointer user_data)
{
  NoisySource *ns = user_data;

  g_mutex_clear (&ns->lock);
  g_ptr_array_unref (ns->frames);
  g_free (ns);
}

/* appsrc "src" of @pipeline becomes a seekable source of the noisy frames */
static void
attach_noisy_source (GstElement * pipeline)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstAppSrcCallbacks callbacks = { noisy_need_data, NULL, noisy_seek_data };
  NoisySource *ns = g_new0 (NoisySource, 1);
  GstCaps *caps = gst_caps_from_string (NOISY_CAPS);

  fail_unless (src != NULL);
  g_mutex_init (&ns->lock);
  ns->frames = g_ptr_array_ref (get_noisy_frames ());
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME,
      "stream-type", GST_APP_STREAM_TYPE_SEEKABLE,
      "duration", (guint64) NOISY_FRAMES * FRAME_NS, NULL);
  gst_app_src_set_callbacks (GST_APP_SRC (src), &callbacks, ns, noisy_free);
  gst_caps_unref (caps);
  gst_object_unref (src);
}

/* A pipeline "appsrc name=src ! @middle ! appsink name=@sink..." fed by
 * the noisy source, in @state */
static GstElement *
noisy_pipeline (const gchar * middle, GstState state)
{
  gchar *launch = g_strdup_printf ("appsrc name=src ! %s", middle);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);

  fail_unless (pipeline != NULL, "%s: %s", launch, error ? error->message :
      "?");
  cfx_test_track_pipeline (pipeline);
  attach_noisy_source (pipeline);
  fail_if (gst_element_set_state (pipeline, state) ==
      GST_STATE_CHANGE_FAILURE, "%s", launch);
  g_free (launch);
  return pipeline;
}

static GPtrArray *
run_noisy (const gchar * middle, const gchar * sink)
{
  GstElement *pipeline = noisy_pipeline (middle, GST_STATE_PLAYING);
  GPtrArray *samples = cfx_test_collect_samples (pipeline, sink, 60, middle);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return samples;
}

/* Every byte of every buffer, padding included */
static gchar *
samples_checksum (GPtrArray * samples)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gchar *hex;
  guint i;

  for (i = 0; i < samples->len; i++) {
    GstBuffer *buf = gst_sample_get_buffer (g_ptr_array_index (samples, i));
    GstMapInfo map;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    g_checksum_update (sum, map.data, map.size);
    gst_buffer_unmap (buf, &map);
  }
  hex = g_strdup_printf ("%u:%s", samples->len, g_checksum_get_string (sum));
  g_checksum_free (sum);
  return hex;
}

static void
check_same_samples (GPtrArray * got, GPtrArray * want, const gchar * what)
{
  gchar *a = samples_checksum (got), *b = samples_checksum (want);

  cfx_test_check_samples_equal (got, want, TRUE, what);
  fail_unless (g_str_equal (a, b), "%s: all bytes: %s != %s", what, a, b);
  g_free (a);
  g_free (b);
}

#define CHAIN_TO_SINK CHAIN " ! appsink name=out sync=false"

/* ---- determinism ------------------------------------------------------ */

/* A tee whose branches run at different speeds: the same bytes, the same
 * as the chain alone (a degrain that applied whichever noise estimates had
 * come back gave different bytes in a slow branch) */
GST_START_TEST (test_tee_branches_at_different_speeds)
{
  GPtrArray *alone = run_noisy (CHAIN_TO_SINK, "out");
  const gchar *middle = "cudafxupload ! tee name=t "
      "t. ! queue ! cudadeinterlace ! cudadegrain ! cudablur sigma=1.5 ! "
      "cudafxdownload ! appsink name=fast sync=false "
      "t. ! queue ! identity sleep-time=15000 ! cudadeinterlace ! "
      "cudadegrain ! cudablur sigma=1.5 ! cudafxdownload ! "
      "appsink name=slow sync=false";
  GstElement *pipeline = noisy_pipeline (middle, GST_STATE_PLAYING);
  GPtrArray *fast, *slow;

  /* appsinks queue without bound: one after the other is fine */
  fast = cfx_test_collect_samples (pipeline, "fast", 60, "fast branch");
  slow = cfx_test_collect_samples (pipeline, "slow", 60, "slow branch");
  fail_unless_equals_int (alone->len, 2 * NOISY_FRAMES);
  check_same_samples (fast, alone, "fast branch");
  check_same_samples (slow, alone, "slow branch");

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_ptr_array_unref (alone);
  g_ptr_array_unref (fast);
  g_ptr_array_unref (slow);
}

GST_END_TEST;

static gpointer
load_thread (gpointer data)
{
  volatile gint *stop = data;
  const gchar *launch = "videotestsrc pattern=snow num-buffers=100000 ! "
      "video/x-raw,format=I420,width=3840,height=2160 ! cudafxupload ! "
      "cudadegrain ! cudablur sigma=20 ! fakesink sync=false";
  GstElement *pipeline = gst_parse_launch (launch, NULL);

  cfx_test_track_pipeline (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!g_atomic_int_get (stop))
    g_usleep (10000);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return NULL;
}

/* The same clip again while another pipeline keeps the GPU and the host
 * busy: the same bytes */
GST_START_TEST (test_same_bytes_under_load)
{
  GPtrArray *idle = run_noisy (CHAIN_TO_SINK, "out"), *loaded;
  gint stop = 0;
  GThread *load[2];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (load); i++)
    load[i] = g_thread_new ("load", load_thread, &stop);
  g_usleep (G_USEC_PER_SEC / 2);
  loaded = run_noisy (CHAIN_TO_SINK, "out");
  g_atomic_int_set (&stop, 1);
  for (i = 0; i < G_N_ELEMENTS (load); i++)
    g_thread_join (load[i]);

  check_same_samples (loaded, idle, "under load");
  g_ptr_array_unref (idle);
  g_ptr_array_unref (loaded);
}

GST_END_TEST;

static void
seek_to_frame (GstElement * pipeline, guint k)
{
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, k * FRAME_NS));
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND) != GST_STATE_CHANGE_FAILURE);
}

/* A flushing seek after different histories (none, and 8 frames played):
 * the same bytes from the seek on */
GST_START_TEST (test_flushing_seek_same_bytes)
{
  GstElement *fresh, *played, *sink;
  GPtrArray *a, *b;
  guint i;

  fresh = noisy_pipeline (CHAIN_TO_SINK, GST_STATE_PAUSED);
  fail_unless (gst_element_get_state (fresh, NULL, NULL, 10 * GST_SECOND) !=
      GST_STATE_CHANGE_FAILURE);
  seek_to_frame (fresh, 10);
  gst_element_set_state (fresh, GST_STATE_PLAYING);
  a = cfx_test_collect_samples (fresh, "out", 60, "seek first");

  played = noisy_pipeline (CHAIN_TO_SINK, GST_STATE_PLAYING);
  sink = gst_bin_get_by_name (GST_BIN (played), "out");
  for (i = 0; i < 16; i++)
    gst_sample_unref (cfx_test_next_sample (played, sink, 20, "play first"));
  seek_to_frame (played, 10);
  b = cfx_test_collect_samples (played, "out", 60, "seek after playing");

  fail_unless_equals_int (a->len, 2 * (NOISY_FRAMES - 10));
  fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer
          (g_ptr_array_index (b, 0))), 10 * FRAME_NS);
  check_same_samples (b, a, "after the seek");

  gst_element_set_state (fresh, GST_STATE_NULL);
  gst_element_set_state (played, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (fresh);
  gst_object_unref (played);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
}

GST_END_TEST;

/* ---- processes in parallel -------------------------------------------- */

static gchar *
chain_checksum (void)
{
  GPtrArray *samples = run_noisy (CHAIN_TO_SINK, "out");
  gchar *sum = samples_checksum (samples);

  g_ptr_array_unref (samples);
  return sum;
}

/* 8 processes run the chain at once: all print the bytes of this one */
GST_START_TEST (test_parallel_processes)
{
  gchar *want = chain_checksum ();
  gchar *argv[] = { (gchar *) "/proc/self/exe", NULL };
  gchar **envp = g_environ_setenv (g_get_environ (), "CFX_RELIABILITY_CHILD",
      "chain", TRUE);
  GPid pid[8];
  gint out[8], i;

  argv[0] = g_file_read_link ("/proc/self/exe", NULL);
  for (i = 0; i < 8; i++) {
    GError *error = NULL;

    fail_unless (g_spawn_async_with_pipes (NULL, argv, envp,
            G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid[i], NULL, &out[i],
            NULL, &error), "spawn: %s", error ? error->message : "?");
  }
  for (i = 0; i < 8; i++) {
    GIOChannel *ch = g_io_channel_unix_new (out[i]);
    gchar *text = NULL, *line, *end;
    gint status = 0;

    g_io_channel_set_close_on_unref (ch, TRUE);
    g_io_channel_read_to_end (ch, &text, NULL, NULL);
    g_io_channel_unref (ch);
    waitpid (pid[i], &status, 0);
    g_spawn_close_pid (pid[i]);
    line = text ? strstr (text, "checksum ") : NULL;
    fail_unless (line != NULL, "process %d printed %s (status %d)", i,
        text ? text : "nothing", status);
    line += strlen ("checksum ");
    if ((end = strchr (line, '\n')))
      *end = '\0';
    fail_unless (g_str_equal (line, want), "process %d: %s, this one %s", i,
        line, want);
    g_free (text);
  }
  g_strfreev (envp);
  g_free (argv[0]);
  g_free (want);
}

GST_END_TEST;

/* ---- device memory ---------------------------------------------------- */

static GstCudaFxContext *
device0 (void)
{
  GstCudaFxContext *ctx = gst_cuda_fx_context_get (0, NULL);

  fail_unless (ctx != NULL);
  return ctx;
}

/* Frames of the context's pool still alive, once the work queued is done
 * (frees are stream-ordered) */
static guint64
frames_in_use (GstCudaFxContext * ctx)
{
  guint64 in_use = 0;
  guint i;

  for (i = 0; i < 200; i++) {
    gst_cuda_fx_context_make_current (ctx);
    cudaDeviceSynchronize ();
    fail_unless (gst_cuda_fx_context_get_memory_stats (ctx, &in_use, NULL));
    if (in_use == 0)
      break;
    g_usleep (10000);
  }
  return in_use;
}

/* The error message a pipeline ends with */
static gchar *
run_to_error (const gchar * launch)
{
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL, *text;

  cfx_test_track_pipeline (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      60 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL, "%s: neither error nor EOS", launch);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    text = NULL;
  } else {
    gst_message_parse_error (msg, &error, &debug);
    text = g_strdup_printf ("%s [%s]", error->message, debug ? debug : "");
    g_clear_error (&error);
    g_free (debug);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return text;
}

#define BIG_CAPS "video/x-raw,format=I420,width=7680,height=4320"

/* Another process takes all but 40 MiB of device memory: an 8K chain
 * fails with an error that says what it was allocating, how much, on which
 * device and the CUDA error; no frame is left behind; once the memory is
 * back the same chain runs */
GST_START_TEST (test_device_memory_exhaustion)
{
  GstCudaFxContext *ctx = device0 ();
  const gchar *pool_line = "videotestsrc num-buffers=4 ! " BIG_CAPS
      " ! cudafxupload ! cudafxdownload ! fakesink";
  const gchar *degrain_line = "videotestsrc num-buffers=4 ! " BIG_CAPS
      " ! cudafxupload ! cudadegrain ! cudafxdownload ! fakesink";
  gchar *argv[] = { NULL, NULL };
  gchar **envp = g_environ_setenv (g_get_environ (), "CFX_RELIABILITY_CHILD",
      "hog", TRUE);
  gchar *line = NULL, *error;
  GIOChannel *ch;
  GPid pid;
  gint in, out, status = 0;
  guint waited;
  GError *gerror = NULL;

  fail_unless_equals_uint64 (frames_in_use (ctx), 0);
  /* what the pool keeps of earlier cases' frames is this process's, not
   * free for the hog to leave: give it back first */
  {
    guint64 reserved = 0;

    fail_unless (gst_cuda_fx_context_release_unused_memory (ctx));
    fail_unless (gst_cuda_fx_context_get_memory_stats (ctx, NULL, &reserved));
    g_print ("pool: %" G_GUINT64_FORMAT " bytes kept after the trim\n",
        reserved);
  }
  envp = g_environ_setenv (envp, "CFX_RELIABILITY_LEAVE_MIB", "40", TRUE);
  argv[0] = g_file_read_link ("/proc/self/exe", NULL);
  fail_unless (g_spawn_async_with_pipes (NULL, argv, envp,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &in, &out, NULL,
          &gerror), "spawn: %s", gerror ? gerror->message : "?");
  ch = g_io_channel_unix_new (out);
  g_io_channel_read_line (ch, &line, NULL, NULL, NULL);
  fail_unless (line && g_str_has_prefix (line, "ready"), "hog: %s",
      line ? line : "nothing");
  g_print ("hog: %s", line);
  g_free (line);

  error = run_to_error (pool_line);
  fail_unless (error != NULL, "the 8K frames fit after all");
  g_print ("pool: %s\n", error);
  fail_unless (strstr (error, "7680x4320 I420") && strstr (error,
          "CUDA device 0") && strstr (error, "bytes")
      && strstr (error, "cudaErrorMemoryAllocation"), "%s", error);
  g_free (error);
  fail_unless_equals_uint64 (frames_in_use (ctx), 0);

  error = run_to_error (degrain_line);
  fail_unless (error != NULL, "the 8K degrain fit after all");
  g_print ("degrain: %s\n", error);
  fail_unless (strstr (error, "CUDA device 0")
      && strstr (error, "cudaErrorMemoryAllocation"), "%s", error);
  g_free (error);
  fail_unless_equals_uint64 (frames_in_use (ctx), 0);

  /* the memory back: the same chains run */
  close (in);
  g_io_channel_unref (ch);
  close (out);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  /* (the driver takes back an exited process's memory a moment later) */
  for (waited = 0; waited < 200; waited++) {
    size_t free_bytes = 0, total = 0;

    gst_cuda_fx_context_make_current (ctx);
    cudaMemGetInfo (&free_bytes, &total);
    if (free_bytes > ((size_t) 4 << 30) || waited == 199) {
      g_print ("after %u ms: %zu MiB free\n", waited * 100, free_bytes >> 20);
      break;
    }
    g_usleep (100000);
  }
  error = run_to_error (degrain_line);
  fail_unless (error == NULL, "%s", error);
  fail_unless_equals_uint64 (frames_in_use (ctx), 0);

  g_strfreev (envp);
  g_free (argv[0]);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* A queue without limits after the upload, nothing pulling behind it: the
 * device pool stops the producer (at its minimum plus 24 frames) instead
 * of filling device memory */
GST_START_TEST (test_deep_queue_bounded)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=200 ! "
      "video/x-raw,format=I420,width=640,height=480 ! cudafxupload ! "
      "queue name=q max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! "
      "appsink name=out sync=false max-buffers=1", NULL);
  GstElement *q = gst_bin_get_by_name (GST_BIN (pipeline), "q");
  guint level = 0, last = G_MAXUINT, i;

  cfx_test_track_pipeline (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* until the level stops moving, once it has started (a slow start, as
   * under compute-sanitizer, is not a stop) */
  for (i = 0; i < 120 && (level == 0 || level != last); i++) {
    last = level;
    g_usleep (G_USEC_PER_SEC / 4);
    g_object_get (q, "current-level-buffers", &level, NULL);
  }
  cfx_test_fail_on_error (pipeline, "deep queue");
  g_print ("queue holds %u device frames\n", level);
  fail_unless (level > 4, "the producer did not run (%u)", level);
  fail_unless (level <= 2 + 24, "%u frames queued: no bound", level);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (q);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ---- bad input -------------------------------------------------------- */

static GstBuffer *
pull_output (GstHarness * h)
{
  GstBuffer *out = gst_harness_pull (h);   /* waits up to 60 s */

  fail_unless (out != NULL, "no output");
  return out;
}

static gboolean
same_visible_bytes (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info,
    const gchar * what)
{
  GstVideoFrame fa, fb;
  gboolean same;

  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  same = cfx_test_frames_equal (&fa, &fb, what);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return same;
}

/* Short, long and odd-stride buffers, unsupported and broken caps: a short
 * buffer is an error naming sizes, the stream goes on after it; longer
 * buffers and other strides give the bytes of the plain frame */
GST_START_TEST (test_bad_input)
{
  const gchar *caps_str = "video/x-raw,format=I420,width=67,height=41,"
      "framerate=25/1";
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudablur sigma=1 "
      "! cudafxdownload");
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info, wide;
  GstBuffer *plain, *out_plain, *buf, *out;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *error = NULL;
  GstMapInfo src, dst;
  guint p;
  gint y;

  gst_element_set_bus (h->element, bus);
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  plain = cfx_test_random_frame (&info, 17);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (plain)),
      GST_FLOW_OK);
  out_plain = pull_output (h);

  /* short: an error that says the sizes */
  buf = gst_buffer_new_allocate (NULL, info.size / 2, NULL);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &error, NULL);
  g_print ("short buffer: %s\n", error->message);
  g_clear_error (&error);
  gst_message_unref (msg);

  /* long: the frame, the tail ignored */
  buf = gst_buffer_new_allocate (NULL, info.size + 4099, NULL);
  fail_unless (gst_buffer_map (plain, &src, GST_MAP_READ));
  gst_buffer_fill (buf, 0, src.data, src.size);
  gst_buffer_unmap (plain, &src);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  out = pull_output (h);
  fail_unless (same_visible_bytes (out, out_plain, &info, "long buffer"));
  gst_buffer_unref (out);

  /* odd strides (video meta): the same picture */
  wide = info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
    wide.stride[p] = info.stride[p] + 13 + 2 * p;
  wide.offset[1] = (gsize) wide.stride[0] * 41 + 5;
  wide.offset[2] = wide.offset[1] + (gsize) wide.stride[1] * 21 + 3;
  wide.size = wide.offset[2] + (gsize) wide.stride[2] * 21;
  buf = gst_buffer_new_allocate (NULL, wide.size, NULL);
  fail_unless (gst_buffer_map (plain, &src, GST_MAP_READ));
  fail_unless (gst_buffer_map (buf, &dst, GST_MAP_WRITE));
  for (p = 0; p < 3; p++)
    for (y = 0; y < (p ? 21 : 41); y++)
      memcpy (dst.data + wide.offset[p] + (gsize) y * wide.stride[p],
          src.data + info.offset[p] + (gsize) y * info.stride[p],
          cfx_test_plane_row_bytes (&info, p));
  gst_buffer_unmap (buf, &dst);
  gst_buffer_unmap (plain, &src);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 67, 41, 3, wide.offset, wide.stride);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  out = pull_output (h);
  fail_unless (same_visible_bytes (out, out_plain, &info, "odd strides"));
  gst_buffer_unref (out);

  /* the stream goes on */
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (plain)),
      GST_FLOW_OK);
  out = pull_output (h);
  fail_unless (same_visible_bytes (out, out_plain, &info, "after errors"));
  gst_buffer_unref (out);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_buffer_unref (out_plain);
  gst_buffer_unref (plain);
  gst_caps_unref (caps);
  gst_harness_teardown (h);

  /* unsupported and incomplete caps: refused, nothing crashes */
  {
    const gchar *refused[] = {
      "video/x-raw,format=RGB,width=64,height=48,framerate=25/1",
      "video/x-raw,format=I420,width=0,height=48,framerate=25/1",
      "video/x-raw,format=I420,height=48,framerate=25/1",
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS (refused); i++) {
      h = gst_harness_new_parse ("cudafxupload ! cudadegrain ! "
          "cudafxdownload");
      gst_harness_set_src_caps_str (h, refused[i]);
      fail_if (gst_harness_push (h, gst_buffer_new_allocate (NULL, 4608,
                  NULL)) == GST_FLOW_OK, "%s accepted", refused[i]);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Frames whose device layout cannot exist (4 GiB and more once rows are
 * pitched, in a pool whose sizes are 32-bit): refused at negotiation with
 * an error that says so */
GST_START_TEST (test_large_frames_refused)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudafxdownload");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *error = NULL;

  gst_element_set_bus (h->element, bus);
  /* 80 MB in system memory; 256-byte pitches make it 5 GB on the device */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=1,"
      "height=20000000,framerate=25/1");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              80000000, NULL)), GST_FLOW_NOT_NEGOTIATED);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &error, NULL);
  g_print ("large frame: %s\n", error->message);
  fail_unless (strstr (error->message, "too large") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A device-id set after a context of another device was given to the
 * element wins: here a device that does not exist, so the pipeline fails
 * naming it instead of running on the context's device 0 */
GST_START_TEST (test_device_id_wins_over_earlier_context)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=64,height=48 ! cudafxupload ! "
      "cudablur name=b ! cudafxdownload ! fakesink", NULL);
  GstElement *b = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  GstCudaFxContext *ctx = device0 ();
  GstContext *context = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  cfx_test_track_pipeline (pipeline);
  gst_context_set_cuda_fx_context (context, ctx);
  gst_element_set_context (b, context);
  g_object_set (b, "device-id", 57, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      20 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "ran without device 57");
  gst_message_parse_error (msg, &error, &debug);
  g_print ("device-id=57: %s (%s)\n", error->message, debug);
  fail_unless (strstr (error->message, "57") || (debug && strstr (debug,
              "57")), "%s", error->message);
  g_clear_error (&error);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_context_unref (context);
  gst_object_unref (ctx);
  gst_object_unref (b);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ---- pinned input of several memories --------------------------------- */

/* A 4K I420 frame in three pinned memories (one a plane, video meta):
 * once upload has let the buffer go the producer may write it again, and
 * the frame uploaded is the one pushed. Upload used to map the buffer
 * whole to ask whether it was pinned, got a merged pageable copy, and let
 * the buffer go while the copy engine still read it. */
GST_START_TEST (test_pinned_memories_kept_until_copied)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! queue ! "
      "cudafxdownload");
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=I420,"
      "width=3840,height=2160,framerate=25/1");
  GstAllocator *pinned = gst_cuda_fx_host_allocator_get ();
  GstVideoInfo info;
  guint k, p;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  for (k = 0; k < 6; k++) {
    GstBuffer *buf = gst_buffer_new (), *want, *out;
    gsize sizes[3];
    guint waited;

    for (p = 0; p < 3; p++) {
      GstMemory *mem;
      GstMapInfo map;

      sizes[p] = (p + 1 < 3 ? info.offset[p + 1] : info.size) -
          info.offset[p];
      mem = gst_allocator_alloc (pinned, sizes[p], NULL);
      fail_unless (mem != NULL);
      fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
      cfx_test_fill_random (map.data, map.size, k * 3 + p + 1);
      gst_memory_unmap (mem, &map);
      gst_buffer_append_memory (buf, mem);
    }
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_I420, 3840, 2160, 3, info.offset, info.stride);
    want = gst_buffer_copy_deep (buf);

    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buf)),
        GST_FLOW_OK);
    g_print ("pinned frame %u pushed\n", k);
    /* the producer gets it back when upload drops it: then it writes */
    for (waited = 0; GST_MINI_OBJECT_REFCOUNT_VALUE (buf) > 1
        && waited < 5000; waited++)
      g_usleep (1000);
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (buf), 1);
    for (p = 3; p-- > 0;) {
      GstMapInfo map;

      fail_unless (gst_memory_map (gst_buffer_peek_memory (buf, p), &map,
              GST_MAP_WRITE));
      memset (map.data, 0x5a, map.size);
      gst_memory_unmap (gst_buffer_peek_memory (buf, p), &map);
    }
    out = pull_output (h);
    fail_unless (same_visible_bytes (out, want, &info, "pinned memories"),
        "frame %u: the producer's later bytes were uploaded", k);
    gst_buffer_unref (out);
    gst_buffer_unref (want);
    gst_buffer_unref (buf);
  }
  gst_object_unref (pinned);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- row padding ------------------------------------------------------ */

/* Leaves random bytes in device memory that the pool will hand out again */
static void
dirty_device_memory (guint64 seed)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudafxdownload");
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=I420,"
      "width=1920,height=1080,framerate=25/1");
  GstVideoInfo info;
  guint k;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  for (k = 0; k < 4; k++) {
    fail_unless_equals_int (gst_harness_push (h, cfx_test_random_frame (&info,
                seed + k)), GST_FLOW_OK);
    gst_buffer_unref (pull_output (h));
  }
  gst_harness_teardown (h);
  gst_caps_unref (caps);
}

/* Every byte of @n outputs of @middle at width 17 */
static GPtrArray *
padded_outputs (const gchar * middle, const gchar * caps_str, guint n)
{
  gchar *launch = g_strdup_printf ("cudafxupload ! %s ! cudafxdownload",
      middle);
  GstHarness *h = gst_harness_new_parse (launch);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstVideoInfo info;
  GstBuffer *buf;
  guint k;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  for (k = 0; k < n; k++) {
    GstBuffer *in = cfx_test_random_frame (&info, 1000 + k);

    GST_BUFFER_PTS (in) = k * FRAME_NS;
    GST_BUFFER_DURATION (in) = FRAME_NS;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  while ((buf = gst_harness_try_pull (h)))
    g_ptr_array_add (out, buf);
  gst_harness_teardown (h);
  gst_caps_unref (caps);
  g_free (launch);
  return out;
}

/* Padding bytes inside each row's stride are zero */
static void
check_padding_zero (GstBuffer * buf, const gchar * what)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  GstVideoInfo info;
  GstVideoFrame frame;
  guint p;
  gint y;

  fail_unless (meta != NULL, "%s: no video meta", what);
  gst_video_info_set_format (&info, meta->format, meta->width, meta->height);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    gsize row = cfx_test_plane_row_bytes (&info, p), x;
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);

    for (y = 0; y < gst_cuda_fx_video_info_plane_height (&info, p); y++) {
      const guint8 *r = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
          (gsize) y * stride;

      for (x = row; x < (gsize) stride; x++)
        fail_unless (r[x] == 0, "%s: plane %u row %d byte %" G_GSIZE_FORMAT
            " is %u", what, p, y, x, r[x]);
    }
  }
  gst_video_frame_unmap (&frame);
}

/* Width 17 through every element, device memory left dirty by other
 * frames before each run: the outputs are the same bytes every time,
 * padding included, and the padding is zero (but where cudaluma takes the
 * luma of an odd-width packed row: its last pair's second luma, from the
 * input, lands in the first padding byte) */
GST_START_TEST (test_row_padding_byte_stable)
{
  const struct
  {
    const gchar *middle, *caps;
    gboolean zero;
  } cases[] = {
    {"identity", "video/x-raw,format=I420,width=17,height=9,framerate=25/1",
        TRUE},
    {"cudaluma", "video/x-raw,format=I420,width=17,height=9,framerate=25/1",
        TRUE},
    {"cudaluma", "video/x-raw,format=UYVY,width=17,height=9,framerate=25/1",
        FALSE},
    {"cudablur sigma=2", "video/x-raw,format=I420,width=17,height=9,"
          "framerate=25/1", TRUE},
    {"cudablur sigma=2", "video/x-raw,format=UYVY,width=17,height=9,"
          "framerate=25/1", TRUE},
    {"cudadegrain", "video/x-raw,format=I420,width=17,height=9,"
          "framerate=25/1", TRUE},
    {"cudadegrain", "video/x-raw,format=YUY2,width=17,height=9,"
          "framerate=25/1", TRUE},
    {"cudadeinterlace", "video/x-raw,format=I420,width=17,height=10,"
          "framerate=25/1,interlace-mode=interleaved,"
          "field-order=top-field-first", TRUE},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GPtrArray *a, *b;
    gchar *what = g_strdup_printf ("%s %s", cases[i].middle, cases[i].caps);

    g_print ("padding: %s\n", what);
    dirty_device_memory (1);
    a = padded_outputs (cases[i].middle, cases[i].caps, 5);
    dirty_device_memory (2);
    b = padded_outputs (cases[i].middle, cases[i].caps, 5);
    fail_unless (a->len >= 5, "%s: %u outputs", what, a->len);
    fail_unless_equals_int (a->len, b->len);
    for (k = 0; k < a->len; k++) {
      GstMapInfo ma, mb;

      if (cases[i].zero)
        check_padding_zero (g_ptr_array_index (a, k), what);
      fail_unless (gst_buffer_map (g_ptr_array_index (a, k), &ma,
              GST_MAP_READ));
      fail_unless (gst_buffer_map (g_ptr_array_index (b, k), &mb,
              GST_MAP_READ));
      fail_unless (ma.size == mb.size && memcmp (ma.data, mb.data,
              ma.size) == 0, "%s: output %u differs between runs", what, k);
      gst_buffer_unmap (g_ptr_array_index (a, k), &ma);
      gst_buffer_unmap (g_ptr_array_index (b, k), &mb);
    }
    g_ptr_array_unref (a);
    g_ptr_array_unref (b);
    g_free (what);
  }
}

GST_END_TEST;

/* ---- live changes ----------------------------------------------------- */

typedef struct
{
  GstElement *pipeline;
  gint stop;
} LiveChanges;

static gpointer
change_properties (gpointer data)
{
  LiveChanges *lc = data;
  GstElement *d = gst_bin_get_by_name (GST_BIN (lc->pipeline), "d");
  GstElement *g = gst_bin_get_by_name (GST_BIN (lc->pipeline), "g");
  GstElement *b = gst_bin_get_by_name (GST_BIN (lc->pipeline), "b");
  guint i;

  for (i = 0; !g_atomic_int_get (&lc->stop); i++) {
    gst_util_set_object_arg (G_OBJECT (d), "fields", i % 2 ? "top" : "all");
    gst_util_set_object_arg (G_OBJECT (d), "mode", i % 2 ? "disabled" :
        "interlaced");
    gst_util_set_object_arg (G_OBJECT (d), "method", i % 2 ? "bwdif" :
        "yadif");
    g_object_set (g, "strength", 0.5 + (i % 5) * 0.25, "sigma",
        (gdouble) (i % 3) * 4.0, "levels", (gint) (i % 6), "output",
        (gint) (i % 2), NULL);
    g_object_set (b, "sigma", 0.5 + (i % 7), NULL);
    g_object_set (i % 2 ? b : g, "device-id", (gint) (i % 3), NULL);
    g_usleep (2000);
  }
  gst_object_unref (d);
  gst_object_unref (g);
  gst_object_unref (b);
  return NULL;
}

/* Every property of the chain changed from another thread, fast, while
 * live frames flow: the ones that cannot change while playing are refused
 * with a warning (and keep their value), the others take effect; no
 * critical, no error, the stream ends normally */
GST_START_TEST (test_live_property_changes)
{
  LiveChanges lc = { NULL, 0 };
  GstElement *d, *g;
  GThread *thread;
  GstMessage *msg;
  gint fields, device;
  guint warnings = 0;

  lc.pipeline = gst_parse_launch ("videotestsrc is-live=true pattern=ball ! "
      "video/x-raw,format=I420,width=640,height=480,framerate=100/1,"
      "interlace-mode=interleaved,field-order=top-field-first ! "
      "cudafxupload ! cudadeinterlace name=d ! cudadegrain name=g ! "
      "cudablur name=b ! cudafxdownload ! fakesink sync=false", NULL);
  cfx_test_track_pipeline (lc.pipeline);
  d = gst_bin_get_by_name (GST_BIN (lc.pipeline), "d");
  g = gst_bin_get_by_name (GST_BIN (lc.pipeline), "g");
  gst_element_set_state (lc.pipeline, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (lc.pipeline, NULL, NULL,
          10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  thread = g_thread_new ("changes", change_properties, &lc);
  g_usleep (2 * G_USEC_PER_SEC);
  g_atomic_int_set (&lc.stop, 1);
  g_thread_join (thread);

  g_object_get (d, "fields", &fields, NULL);
  fail_unless_equals_int (fields, 0);   /* all, as it started */
  g_object_get (g, "device-id", &device, NULL);
  fail_unless_equals_int (device, -1);
  /* (before waiting for EOS, which drops the other messages) */
  while ((msg = gst_bus_pop (GST_ELEMENT_BUS (lc.pipeline)))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      warnings++;
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "error while "
        "properties changed");
    gst_message_unref (msg);
  }
  g_print ("%u warnings for refused changes\n", warnings);
  fail_unless (warnings > 0, "no warning for the refused changes");
  gst_element_send_event (lc.pipeline, gst_event_new_eos ());
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (lc.pipeline),
      20 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "no EOS");
  gst_message_unref (msg);

  gst_element_set_state (lc.pipeline, GST_STATE_NULL);
  gst_object_unref (d);
  gst_object_unref (g);
  gst_object_unref (lc.pipeline);
}

GST_END_TEST;

/* ---- renegotiation ---------------------------------------------------- */

#define PART_A "video/x-raw,format=I420,width=64,height=48,framerate=25/1"
/* (an even width: videotestsrc leaves the luma after an odd width's last
 * pixel undefined; the row padding test covers odd widths) */
#define PART_B "video/x-raw,format=UYVY,width=98,height=34,framerate=25/1," \
  "interlace-mode=interleaved,field-order=top-field-first"
#define PART_C "video/x-raw,format=GRAY8,width=130,height=72,framerate=25/1"

/* concat of three clips that differ in size, format and interlacing: the
 * outputs of each clip run alone, in order, byte for byte */
GST_START_TEST (test_renegotiation_concat)
{
  const gchar *parts[] = { PART_A, PART_B, PART_C };
  const gchar *chain = "cudafxupload ! cudadeinterlace ! cudadegrain ! "
      "cudablur sigma=2 ! cudafxdownload ! appsink name=out sync=false";
  GPtrArray *want = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref), *got;
  gchar *launch;
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (parts); i++) {
    GPtrArray *alone;

    launch = g_strdup_printf ("videotestsrc num-buffers=5 pattern=%s ! %s ! "
        "%s", i == 1 ? "ball" : "smpte", parts[i], chain);
    alone = cfx_test_run_samples (launch, "out", 30);
    for (k = 0; k < alone->len; k++)
      g_ptr_array_add (want, gst_sample_ref (g_ptr_array_index (alone, k)));
    g_ptr_array_unref (alone);
    g_free (launch);
  }
  launch = g_strdup_printf ("concat name=c ! %s "
      "videotestsrc num-buffers=5 pattern=smpte ! %s ! c. "
      "videotestsrc num-buffers=5 pattern=ball ! %s ! c. "
      "videotestsrc num-buffers=5 pattern=smpte ! %s ! c.", chain, PART_A,
      PART_B, PART_C);
  got = cfx_test_run_samples (launch, "out", 30);
  fail_unless_equals_int (want->len, 5 + 10 + 5);
  fail_unless_equals_int (got->len, want->len);
  for (k = 0; k < got->len; k++) {
    GstSample *a = g_ptr_array_index (got, k), *b = g_ptr_array_index (want,
        k);
    GstVideoInfo info;

    fail_unless (gst_caps_is_equal (gst_sample_get_caps (a),
            gst_sample_get_caps (b)), "output %u: caps", k);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (a)));
    fail_unless (same_visible_bytes (gst_sample_get_buffer (a),
            gst_sample_get_buffer (b), &info, "concat"), "output %u", k);
  }
  g_ptr_array_unref (want);
  g_ptr_array_unref (got);
  g_free (launch);
}

GST_END_TEST;

/* ---- children --------------------------------------------------------- */

/* (in a suite of its own: the check macros need one around them) */
GST_START_TEST (child_print_chain_checksum)
{
  gchar *sum = chain_checksum ();

  printf ("checksum %s\n", sum);
  fflush (stdout);
  g_free (sum);
}

GST_END_TEST;

static int
child_main (const gchar * mode)
{
  if (g_str_equal (mode, "chain")) {
    Suite *s = suite_create ("cudafx-reliability-child");
    TCase *tc = cfx_test_tcase ("child");

    suite_add_tcase (s, tc);
    tcase_set_timeout (tc, 300);
    tcase_add_test (tc, child_print_chain_checksum);
    return cfx_test_run_suite (s);
  }
  if (g_str_equal (mode, "hog")) {
    const gchar *leave = g_getenv ("CFX_RELIABILITY_LEAVE_MIB");
    size_t free_bytes = 0, total = 0, keep;
    void *ptr = NULL;
    gchar c;

    keep = (size_t) g_ascii_strtoull (leave ? leave : "256", NULL, 10) << 20;
    if (cudaMemGetInfo (&free_bytes, &total) != cudaSuccess
        || free_bytes <= keep
        || cudaMalloc (&ptr, free_bytes - keep) != cudaSuccess) {
      printf ("failed\n");
      return 1;
    }
    cudaMemGetInfo (&free_bytes, &total);
    printf ("ready: %zu MiB left free\n", free_bytes >> 20);
    fflush (stdout);
    while (read (0, &c, 1) > 0);
    cudaFree (ptr);
    return 0;
  }
  return 2;
}

/* check prints the results at the end: say where a run is as it goes */
static gint64 case_start;
static guint case_index;

static void
case_setup (void)
{
  case_start = g_get_monotonic_time ();
  g_print ("[case %u starts]\n", ++case_index);
}

static void
case_teardown (void)
{
  g_print ("[case %u ends after %.1f s]\n", case_index,
      (g_get_monotonic_time () - case_start) / 1e6);
}

static gboolean
wanted (const gchar * name)
{
  const gchar *only = g_getenv ("CFX_RELIABILITY_ONLY");
  gchar **parts;
  gboolean found = FALSE;
  guint i;

  if (!only || !*only)
    return TRUE;
  parts = g_strsplit (only, ",", -1);
  for (i = 0; parts[i] && !found; i++)
    found = *parts[i] && strstr (name, parts[i]) != NULL;
  g_strfreev (parts);
  return found;
}

static Suite *
reliability_suite (void)
{
  Suite *s = suite_create ("cudafx-reliability");
  TCase *tc = cfx_test_tcase ("reliability");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, case_setup, case_teardown);
  /* CFX_RELIABILITY_ONLY=a,b runs the cases whose names hold a or b */
#define ADD(t) if (wanted (#t)) tcase_add_test (tc, t)
  ADD (test_bad_input);
  ADD (test_large_frames_refused);
  ADD (test_renegotiation_concat);
  ADD (test_tee_branches_at_different_speeds);
  ADD (test_same_bytes_under_load);
  ADD (test_flushing_seek_same_bytes);
  ADD (test_live_property_changes);
  ADD (test_device_id_wins_over_earlier_context);
  ADD (test_parallel_processes);
  ADD (test_pinned_memories_kept_until_copied);
  ADD (test_row_padding_byte_stable);
  ADD (test_deep_queue_bounded);
  ADD (test_device_memory_exhaustion);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *child = g_getenv ("CFX_RELIABILITY_CHILD");
  int ret;

  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return child ? 1 : cfx_test_no_gpu_exit ("reliability");
  if (child)
    return child_main (child);
  /* a pass/fail line for each case, as it ends */
  g_setenv ("CK_VERBOSITY", "verbose", TRUE);
  setvbuf (stdout, NULL, _IOLBF, 0);
  ret = cfx_test_run_suite (reliability_suite ());
  if (noisy_frames)
    g_ptr_array_unref (noisy_frames);
  return ret;
}
