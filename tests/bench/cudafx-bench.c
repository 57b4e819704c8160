/* gst-cudafx benchmark: prints tables of
 *   - the machine's limits: device copy bandwidth, pinned copy rates;
 *   - cudaupload / cudadownload throughput next to the pinned limit;
 *   - kernel times against their floors (bytes moved / copy bandwidth);
 *   - whole pipelines in frames per second, ours next to peers;
 *   - the speed targets those rows are held to, in one table at the end.
 *
 * A benchmark, never a test: it asserts nothing and always exits 0 unless
 * it cannot run at all.
 *
 *   cudafx-bench [--quick] [SECTION...]     sections: limits transfer luma
 *                                           pipelines sharing blur chains
 *                                           deinterlace degrain nvdec multigpu
 *                                           v210; none named:
 *                                           all of these. soak (minutes) runs
 *                                           only when named.
 *   cudafx-bench --pipeline "LAUNCH" N     frames/s of one launch line (used for peers)
 */
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/cudafx.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "cudafx-kernels.h"
#include "cudafx-bench.h"

static gboolean quick;
double bench_copy_bandwidth;    /* bytes/s, read + write */

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

double
bench_median (double *v, int n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* CUDAFX_BENCH_ONLY=TEXT runs only the cases whose name contains TEXT
 * (e.g. to profile one kernel with ncu) and no pipelines */
gboolean
bench_case_wanted (const char *name)
{
  const char *only = g_getenv ("CUDAFX_BENCH_ONLY");

  return !only || !*only || (name && strstr (name, only) != NULL);
}

int
bench_reps (int full)
{
  return quick ? MAX (full / 5, 3) : full;
}

/* ---- limits -------------------------------------------------------------- */

static double
measure_copy_bandwidth (void)
{
  const size_t bytes = 512u << 20;
  void *a, *b;
  cudaEvent_t e0, e1;
  double t[10];
  int i;

  CHECK (cudaMalloc (&a, bytes));
  CHECK (cudaMalloc (&b, bytes));
  CHECK (cudaMemset (a, 1, bytes));
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  CHECK (cudaMemcpy (b, a, bytes, cudaMemcpyDeviceToDevice));
  for (i = 0; i < 10; i++) {
    float ms;
    CHECK (cudaEventRecord (e0, 0));
    CHECK (cudaMemcpyAsync (b, a, bytes, cudaMemcpyDeviceToDevice, 0));
    CHECK (cudaEventRecord (e1, 0));
    CHECK (cudaEventSynchronize (e1));
    CHECK (cudaEventElapsedTime (&ms, e0, e1));
    t[i] = 2.0 * bytes / (ms * 1e-3);
  }
  cudaFree (a);
  cudaFree (b);
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return bench_median (t, 10);
}

typedef struct
{
  const char *name;
  GstVideoFormat format;
  int w, h;
} FrameKind;

static const FrameKind frame_kinds[] = {
  {"1080p UYVY", GST_VIDEO_FORMAT_UYVY, 1920, 1080},
  {"1080p I420", GST_VIDEO_FORMAT_I420, 1920, 1080},
  {"4K UYVY", GST_VIDEO_FORMAT_UYVY, 3840, 2160},
  {"4K I420", GST_VIDEO_FORMAT_I420, 3840, 2160},
};

/* The pinned-copy limit for one frame size: plain cudaMemcpyAsync calls
 * from (or to) pinned memory, back to back on one stream, as fast as the
 * copy engine streams them; and one synchronous cudaMemcpy per frame, the
 * best a copy that waits for itself can do. */
static void
pinned_copy_rates (size_t bytes, gboolean up, double *streamed,
    double *one_by_one)
{
  void *host, *dev;
  double t[40];
  int i, n = bench_reps (40), batch = 20;
  cudaStream_t s;
  enum cudaMemcpyKind kind = up ? cudaMemcpyHostToDevice :
      cudaMemcpyDeviceToHost;

  CHECK (cudaHostAlloc (&host, bytes, cudaHostAllocPortable));
  CHECK (cudaMalloc (&dev, bytes));
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  memset (host, 3, bytes);
  for (i = -3; i < n; i++) {
    gint64 t0 = g_get_monotonic_time ();
    CHECK (cudaMemcpy (up ? dev : host, up ? host : dev, bytes, kind));
    if (i >= 0)
      t[i] = bytes / ((g_get_monotonic_time () - t0) * 1e-6);
  }
  *one_by_one = bench_median (t, n);
  for (i = 0; i < n; i++) {
    gint64 t0 = g_get_monotonic_time ();
    int k;
    for (k = 0; k < batch; k++)
      CHECK (cudaMemcpyAsync (up ? dev : host, up ? host : dev, bytes, kind,
              s));
    CHECK (cudaStreamSynchronize (s));
    t[i] = batch * bytes / ((g_get_monotonic_time () - t0) * 1e-6);
  }
  *streamed = bench_median (t, n);
  cudaStreamDestroy (s);
  cudaFreeHost (host);
  cudaFree (dev);
}

static double pinned_up[G_N_ELEMENTS (frame_kinds)];
static double pinned_down[G_N_ELEMENTS (frame_kinds)];

static void
section_limits (void)
{
  guint k;
  struct cudaDeviceProp prop;

  CHECK (cudaGetDeviceProperties (&prop, 0));
  bench_copy_bandwidth = measure_copy_bandwidth ();
  printf ("\n## Machine: %s, %d SMs, %.0f MB L2\n\n", prop.name,
      prop.multiProcessorCount, prop.l2CacheSize / 1e6);
  printf ("device-to-device copy: %.2f TB/s (read + write, 512 MB)\n\n",
      bench_copy_bandwidth / 1e12);
  printf ("Pinned copies per frame size, GB/s: streamed (async, back to back: "
      "the limit) and one synchronous cudaMemcpy per frame.\n\n");
  printf ("| frame | bytes | up streamed | up one by one | down streamed | "
      "down one by one |\n|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (frame_kinds); k++) {
    GstVideoInfo info;
    gst_video_info_set_format (&info, frame_kinds[k].format, frame_kinds[k].w,
        frame_kinds[k].h);
    double up1, down1;
    pinned_copy_rates (info.size, TRUE, &pinned_up[k], &up1);
    pinned_copy_rates (info.size, FALSE, &pinned_down[k], &down1);
    printf ("| %s | %zu | %.1f | %.1f | %.1f | %.1f |\n", frame_kinds[k].name,
        info.size, pinned_up[k] / 1e9, up1 / 1e9, pinned_down[k] / 1e9,
        down1 / 1e9);
  }
}

/* ---- transfer: the elements alone ---------------------------------------- */

static GstCaps *
caps_for (const FrameKind * k, gboolean device)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      gst_video_format_to_string (k->format), "width", G_TYPE_INT, k->w,
      "height", G_TYPE_INT, k->h, "framerate", GST_TYPE_FRACTION, 25, 1,
      NULL);
  if (device)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_FX, NULL));
  return caps;
}

#define POOLED 8

/* cudaupload fed from the pinned pool it proposes, as a producer that
 * writes into it would: frames per second from first push to the last
 * copy's completion. */
static double
upload_rate (const FrameKind * k, GstBuffer ** device_frames)
{
  GstHarness *h = gst_harness_new ("cudafxupload");
  GstCaps *caps = caps_for (k, FALSE);
  GstQuery *query;
  GstBufferPool *pool = NULL;
  GstBuffer *in[POOLED];
  int i, n = bench_reps (300);
  gint64 t0;

  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  query = gst_query_new_allocation (caps, TRUE);
  gst_pad_peer_query (h->srcpad, query);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  gst_query_unref (query);
  gst_buffer_pool_set_active (pool, TRUE);
  for (i = 0; i < POOLED; i++) {
    gst_buffer_pool_acquire_buffer (pool, &in[i], NULL);
    gst_buffer_memset (in[i], 0, (guint8) (i * 37 + 1), -1);
  }
  /* warm up: pools fill, contexts exist */
  for (i = 0; i < POOLED; i++) {
    gst_harness_push (h, gst_buffer_ref (in[i]));
    device_frames[i] = gst_harness_pull (h);
  }
  CHECK (cudaDeviceSynchronize ());

  t0 = g_get_monotonic_time ();
  for (i = 0; i < n; i++) {
    gst_harness_push (h, gst_buffer_ref (in[i % POOLED]));
    gst_buffer_unref (gst_harness_pull (h));
  }
  CHECK (cudaDeviceSynchronize ());
  t0 = g_get_monotonic_time () - t0;

  for (i = 0; i < POOLED; i++)
    gst_buffer_unref (in[i]);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  return n / (t0 * 1e-6);
}

static double
download_rate (const FrameKind * k, GstBuffer ** device_frames)
{
  GstHarness *h = gst_harness_new ("cudafxdownload");
  GstCaps *dcaps = caps_for (k, TRUE), *caps = caps_for (k, FALSE);
  int i, n = bench_reps (300);
  gint64 t0;

  gst_harness_set_caps (h, dcaps, caps);
  for (i = 0; i < POOLED; i++) {
    gst_harness_push (h, gst_buffer_ref (device_frames[i]));
    gst_buffer_unref (gst_harness_pull (h));
  }
  t0 = g_get_monotonic_time ();
  for (i = 0; i < n; i++) {
    gst_harness_push (h, gst_buffer_ref (device_frames[i % POOLED]));
    gst_buffer_unref (gst_harness_pull (h));
  }
  t0 = g_get_monotonic_time () - t0;
  gst_harness_teardown (h);
  return n / (t0 * 1e-6);
}

static void
section_transfer (void)
{
  guint k;
  int i;

  printf ("\n## cudaupload / cudadownload alone (upload fed from its own "
      "pinned pool)\n\n");
  printf ("%% of limit: of the streamed pinned copy rate above.\n\n");
  printf ("| frame | upload fps | upload GB/s | %% of limit | download fps "
      "| download GB/s | %% of limit |\n|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (frame_kinds); k++) {
    GstBuffer *dev[POOLED];
    GstVideoInfo info;
    double up, down;

    gst_video_info_set_format (&info, frame_kinds[k].format, frame_kinds[k].w,
        frame_kinds[k].h);
    up = upload_rate (&frame_kinds[k], dev);
    down = download_rate (&frame_kinds[k], dev);
    for (i = 0; i < POOLED; i++)
      gst_buffer_unref (dev[i]);
    printf ("| %s | %.0f | %.1f | %.0f%% | %.0f | %.1f | %.0f%% |\n",
        frame_kinds[k].name, up, up * info.size / 1e9,
        100.0 * up * info.size / pinned_up[k], down, down * info.size / 1e9,
        100.0 * down * info.size / pinned_down[k]);
  }
}

/* ---- kernels ------------------------------------------------------------- */

void
bench_print_kernel_header (const char *title)
{
  printf ("\n## %s\n\n| case | us per frame | bytes moved | GB/s | %% of copy "
      "bandwidth | floor us |\n|---|---|---|---|---|---|\n", title);
}

void
bench_print_kernel_row (const char *name, double seconds, double bytes)
{
  printf ("| %s | %.1f | %.1f MB | %.0f | %.0f%% | %.1f |\n", name,
      seconds * 1e6, bytes / 1e6, bytes / seconds / 1e9,
      100.0 * bytes / seconds / bench_copy_bandwidth,
      bytes / bench_copy_bandwidth * 1e6);
}

/* Times launch(i) over rotating buffer sets (so the 50 MB L2 does not hold
 * the data), median over batches of the mean per launch. */
double
bench_time_kernel (void (*launch) (int set, void *data), void *data, int sets)
{
  cudaEvent_t e0, e1;
  double t[15];
  int b, i, nb = bench_reps (15), per = 20;

  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  for (i = 0; i < sets; i++)
    launch (i, data);
  CHECK (cudaDeviceSynchronize ());
  for (b = 0; b < nb; b++) {
    float ms;
    CHECK (cudaEventRecord (e0, 0));
    for (i = 0; i < per; i++)
      launch ((b * per + i) % sets, data);
    CHECK (cudaEventRecord (e1, 0));
    CHECK (cudaEventSynchronize (e1));
    CHECK (cudaEventElapsedTime (&ms, e0, e1));
    t[b] = ms * 1e-3 / per;
  }
  CHECK (cudaGetLastError ());
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return bench_median (t, nb);
}

/* Enough distinct buffers of @bytes each to exceed 4x the L2 */
int
bench_sets_for (size_t bytes)
{
  size_t l2 = 50u << 20;
  int n = (int) ((4 * l2 + bytes - 1) / bytes);
  return CLAMP (n, 2, BENCH_MAX_SETS);
}

typedef struct
{
  void *src[BENCH_MAX_SETS], *dst[BENCH_MAX_SETS];
  size_t bytes;
} CopyData;

static void
launch_copy (int set, void *data)
{
  CopyData *d = data;
  cudaMemcpyAsync (d->dst[set], d->src[set], d->bytes,
      cudaMemcpyDeviceToDevice, 0);
}

/* A device-to-device cudaMemcpy moving @bytes_moved in all (half read, half
 * written), timed like the kernels: what a plain copy of that size reaches,
 * launch and ramp included. */
void
bench_copy_row (const char *name, double bytes_moved)
{
  CopyData *d = g_new0 (CopyData, 1);
  int i, sets;
  double t;

  d->bytes = (size_t) (bytes_moved / 2);
  sets = bench_sets_for (2 * d->bytes);
  for (i = 0; i < sets; i++) {
    CHECK (cudaMalloc (&d->src[i], d->bytes));
    CHECK (cudaMalloc (&d->dst[i], d->bytes));
    CHECK (cudaMemset (d->src[i], i, d->bytes));
  }
  t = bench_time_kernel (launch_copy, d, sets);
  bench_print_kernel_row (name, t, bytes_moved);
  for (i = 0; i < sets; i++) {
    cudaFree (d->src[i]);
    cudaFree (d->dst[i]);
  }
  g_free (d);
}

/* ---- pipelines ----------------------------------------------------------- */

static gint64 first_buffer_time;
static guint buffers_seen;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  if (buffers_seen++ == 0)
    first_buffer_time = g_get_monotonic_time ();
}

/* Frames per second of a launch line ending in "fakesink name=sink", from
 * the first buffer at the sink to EOS (start-up left out). */
double
bench_pipeline_fps (const char *launch)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error), *sink;
  GstBus *bus;
  GstMessage *msg;
  double fps = 0;

  if (!pipeline) {
    g_printerr ("%s: %s\n", launch, error->message);
    g_clear_error (&error);
    return 0;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (sink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), NULL);
  buffers_seen = 0;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS && buffers_seen > 1)
    fps = (buffers_seen - 1) / ((g_get_monotonic_time () -
            first_buffer_time) * 1e-6);
  else if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    g_printerr ("%s: %s\n", launch, error->message);
    g_clear_error (&error);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return fps;
}

static gint branch_outputs;
static gint64 first_branch_output;
static double first_branch_cpu;

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static void
on_branch_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer data)
{
  if (g_atomic_int_add (&branch_outputs, 1) == 0) {
    first_branch_output = g_get_monotonic_time ();
    first_branch_cpu = cpu_seconds ();
  }
}

static double branches_fps (const char *launch, guint n, double *cpu,
    double *cpu_steady);

/* Frames per second over all the sinks "s0" .. "s<n-1>" of @launch (first
 * output to EOS), and the process's CPU seconds per output frame in @cpu
 * (getrusage over the run, start-up included); 0 if it did not run */
double
bench_branches_fps (const char *launch, guint n, double *cpu)
{
  return branches_fps (launch, n, cpu, NULL);
}

/* The same, with the CPU seconds per output frame from the first output
 * to EOS (start-up left out) */
double
bench_branches_fps_steady (const char *launch, guint n, double *cpu_steady)
{
  return branches_fps (launch, n, NULL, cpu_steady);
}

static double
branches_fps (const char *launch, guint n, double *cpu, double *cpu_steady)
{
  GstElement *pipeline;
  GError *error = NULL;
  GstMessage *msg;
  double c0, fps = 0;
  guint i;

  pipeline = gst_parse_launch (launch, &error);
  if (!pipeline) {
    g_printerr ("%s: %s\n", launch, error->message);
    g_clear_error (&error);
    return 0;
  }
  for (i = 0; i < n; i++) {
    gchar *name = g_strdup_printf ("s%u", i);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);

    g_object_set (sink, "sync", FALSE, "signal-handoffs", TRUE, NULL);
    g_signal_connect (sink, "handoff", G_CALLBACK (on_branch_handoff), NULL);
    gst_object_unref (sink);
    g_free (name);
  }
  g_atomic_int_set (&branch_outputs, 0);
  c0 = cpu_seconds ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      300 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS
      && g_atomic_int_get (&branch_outputs) > 1) {
    gint got = g_atomic_int_get (&branch_outputs);

    fps = (got - 1) / ((g_get_monotonic_time () - first_branch_output) *
        1e-6);
    if (cpu)
      *cpu = (cpu_seconds () - c0) / got;
    if (cpu_steady)
      *cpu_steady = (cpu_seconds () - first_branch_cpu) / (got - 1);
  } else if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    g_printerr ("%s: %s\n", launch, error->message);
    g_clear_error (&error);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return fps;
}

/* A peer's pipeline in a child process whose registry lacks our plugin, so
 * "cudaupload" there is gst-plugins-bad's. Returns 0 if it did not run. */
double
bench_peer_pipeline_fps (const char *launch)
{
  gchar *argv[] = { (gchar *) "/proc/self/exe", (gchar *) "--pipeline",
    (gchar *) launch, NULL
  };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *reg;
  gint status;
  double fps = 0;

  reg = g_strdup_printf ("%s/cudafx-bench-peer-%d.bin", g_get_tmp_dir (),
      (int) getpid ());
  envp = g_environ_setenv (envp, "GST_PLUGIN_PATH_1_0", "", TRUE);
  envp = g_environ_unsetenv (envp, "GST_PLUGIN_PATH");
  envp = g_environ_setenv (envp, "GST_REGISTRY_1_0", reg, TRUE);
  envp = g_environ_setenv (envp, "CUDAFX_BENCH_NO_PLUGIN", "1", TRUE);
  if (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out,
          NULL, &status, NULL) && status == 0 && out)
    fps = g_ascii_strtod (out, NULL);
  g_free (out);
  g_strfreev (envp);
  g_unlink (reg);
  g_free (reg);
  return fps;
}

/* Wall seconds of one FFmpeg run (ffmpeg from PATH, start-up included)
 * over @frames frames of the lavfi @source through @vf into the null
 * muxer; < 0 if ffmpeg is missing or fails */
double
bench_ffmpeg_seconds (const char *source, const char *vf, int frames)
{
  gchar *nframes = g_strdup_printf ("%d", frames);
  gchar *argv[] = { (gchar *) "ffmpeg", (gchar *) "-nostdin",
    (gchar *) "-hide_banner", (gchar *) "-loglevel", (gchar *) "error",
    (gchar *) "-f", (gchar *) "lavfi", (gchar *) "-i", (gchar *) source,
    (gchar *) "-frames:v", nframes, (gchar *) "-vf", (gchar *) vf,
    (gchar *) "-f", (gchar *) "null", (gchar *) "-", NULL
  };
  gint status = -1;
  gint64 t0 = g_get_monotonic_time ();
  gboolean ran = g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
      G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
      NULL, NULL, &status, NULL);
  double secs = (g_get_monotonic_time () - t0) * 1e-6;

  g_free (nframes);
  return ran && status == 0 ? secs : -1.0;
}

static gboolean
have_peer_element (const char *factory, const char *plugin)
{
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=3 ! %s ! "
      "fakesink name=sink", factory);
  double fps = bench_peer_pipeline_fps (launch);
  g_free (launch);
  return fps > 0;
}

static void
section_pipelines (void)
{
  const char *kinds[][2] = {
    {"1080p I420", "format=I420,width=1920,height=1080"},
    {"1080p UYVY", "format=UYVY,width=1920,height=1080"},
    {"4K I420", "format=I420,width=3840,height=2160"},
  };
  gboolean nvcodec = have_peer_element ("cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload", "nvcodec");
  int n = bench_reps (600);
  guint k;

  printf ("\n## Pipelines, frames per second (videotestsrc pattern=black, "
      "%d frames, first buffer to EOS)\n\n", n);
  printf ("Round trips forced through device memory (`video/x-raw(memory:...)`"
      " between the two elements): without it nvcodec's pair negotiates "
      "system memory and copies nothing. \"+ queue\": a queue between "
      "upload and download, so the two run in separate threads.\n\n");
  printf ("Two sources: videotestsrc renders every frame (its cost is in "
      "every column); imagefreeze pushes one rendered frame again and again, "
      "so the round trip's own cost shows.\n\n");
  printf ("| frames | source | source alone | ours | nvcodec | ratio | "
      "ours + queue | nvcodec + queue | ratio |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    int freeze;

    for (freeze = 0; freeze < 2; freeze++) {
      gchar *src = freeze ?
          g_strdup_printf ("videotestsrc num-buffers=1 pattern=black ! "
          "video/x-raw,%s,framerate=1000/1 ! imagefreeze num-buffers=%d",
          kinds[k][1], n) :
          g_strdup_printf ("videotestsrc num-buffers=%d pattern=black "
          "! video/x-raw,%s,framerate=1000/1", n, kinds[k][1]);
      gchar *l0 = g_strdup_printf ("%s ! fakesink name=sink", src);
      double f0 = bench_pipeline_fps (l0), f[4];
      int q;

      for (q = 0; q < 2; q++) {
        const char *mid = q ? " ! queue max-size-buffers=4 ! " : " ! ";
        gchar *ours = g_strdup_printf ("%s ! cudafxupload ! "
            "video/x-raw(memory:CUDAFxMemory)%scudafxdownload ! "
            "fakesink name=sink", src, mid);
        gchar *peer = g_strdup_printf ("%s ! cudaupload ! "
            "video/x-raw(memory:CUDAMemory)%scudadownload ! "
            "fakesink name=sink", src, mid);
        f[2 * q] = bench_pipeline_fps (ours);
        f[2 * q + 1] = nvcodec ? bench_peer_pipeline_fps (peer) : 0;
        g_free (ours);
        g_free (peer);
      }
      printf ("| %s | %s | %.0f ", kinds[k][0],
          freeze ? "imagefreeze" : "videotestsrc", f0);
      for (q = 0; q < 2; q++) {
        if (f[2 * q + 1] > 0)
          printf ("| %.0f | %.0f | %.2fx ", f[2 * q], f[2 * q + 1],
              f[2 * q] / f[2 * q + 1]);
        else
          printf ("| %.0f | (not installed) | - ", f[2 * q]);
      }
      printf ("|\n");
      fflush (stdout);
      g_free (src);
      g_free (l0);
    }
  }
}

/* ---- sharing device buffers ---------------------------------------------- */

/* imagefreeze copies its buffer for every output (gst_buffer_copy): what a
 * copy of a device buffer costs next to one of system memory */
static void
section_sharing (void)
{
  const char *kinds[][2] = {
    {"640x360 GRAY8", "format=GRAY8,width=640,height=360"},
    {"1080p I420", "format=I420,width=1920,height=1080"},
    {"4K UYVY", "format=UYVY,width=3840,height=2160"},
  };
  int n = bench_reps (20000);
  guint k;

  printf ("\n## Copies of device buffers: imagefreeze num-buffers=%d ! "
      "fakesink, us per buffer\n\n", n);
  printf ("| frames | system memory | device memory | difference |\n"
      "|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    gchar *sys = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "video/x-raw,%s,framerate=30/1 ! imagefreeze num-buffers=%d ! "
        "fakesink name=sink", kinds[k][1], n);
    gchar *dev = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "video/x-raw,%s,framerate=30/1 ! cudafxupload ! imagefreeze "
        "num-buffers=%d ! fakesink name=sink", kinds[k][1], n);
    double f_sys = bench_pipeline_fps (sys), f_dev = bench_pipeline_fps (dev);

    if (f_sys > 0 && f_dev > 0)
      printf ("| %s | %.2f | %.2f | %+.2f |\n", kinds[k][0], 1e6 / f_sys,
          1e6 / f_dev, 1e6 / f_dev - 1e6 / f_sys);
    else
      printf ("| %s | (did not run: imagefreeze missing?) | | |\n",
          kinds[k][0]);
    fflush (stdout);
    g_free (sys);
    g_free (dev);
  }
}

/* ---- targets --------------------------------------------------------------- */

static GPtrArray *target_rows;

void
bench_target (const char *what, const char *target, gboolean met,
    const char *now_format, ...)
{
  va_list args;
  gchar *now;

  va_start (args, now_format);
  now = g_strdup_vprintf (now_format, args);
  va_end (args);
  if (!target_rows)
    target_rows = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (target_rows, g_strdup_printf ("| %s | %s | %s | %s |",
          what, now, target, met ? "met" : "**missed**"));
  g_free (now);
}

/* A target row whose measurement this run left out (CUDAFX_BENCH_ONLY) */
void
bench_target_not_run (const char *what, const char *target)
{
  if (!target_rows)
    target_rows = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (target_rows, g_strdup_printf ("| %s | not run | %s | |",
          what, target));
}

void
bench_target_depth (const char *what, double share16, double share8)
{
  gchar *w = g_strdup_printf ("%s, 16-bit samples, share of the floor", what);
  gchar *target = share8 > 0 ? g_strdup_printf (">= the 8-bit kernel's "
      "(%.0f%%)", 100 * share8) : g_strdup (">= the 8-bit kernel's");

  if (share16 > 0 && share8 > 0)
    bench_target (w, target, share16 >= share8, "%.0f%%", 100 * share16);
  else
    bench_target_not_run (w, target);
  g_free (target);
  g_free (w);
}

static void
print_targets (void)
{
  guint i;

  if (!target_rows)
    return;
  printf ("\n## Speed targets (the rows of the sections above)\n\n"
      "| what | now | target | |\n|---|---|---|---|\n");
  for (i = 0; i < target_rows->len; i++)
    printf ("%s\n", (const char *) g_ptr_array_index (target_rows, i));
  g_ptr_array_free (target_rows, TRUE);
  target_rows = NULL;
}

/* ---- main ---------------------------------------------------------------- */

static const struct
{
  const char *name;
  void (*run) (void);
  gboolean only_named;          /* not in the default run: too long */
} sections[] = {
  {"limits", section_limits},
  {"transfer", section_transfer},
  {"luma", bench_section_luma},
  {"v210", bench_section_v210},
  {"pipelines", section_pipelines},
  {"sharing", section_sharing},
  {"blur", bench_section_blur},
  {"chains", bench_section_chains},
  {"deinterlace", bench_section_deinterlace},
  {"degrain", bench_section_degrain},
  {"nvdec", bench_section_nvdec},
  {"multigpu", bench_section_multi_gpu},
  {"soak", bench_section_soak, TRUE},
};

int
main (int argc, char **argv)
{
  const char *ours = g_getenv ("CUDAFX_PLUGIN");
  gboolean want[G_N_ELEMENTS (sections)] = { FALSE };
  gboolean any = FALSE;
  GstCudaFxContext *ctx;
  GError *error = NULL;
  guint s;
  int i;

  gst_init (&argc, &argv);

  if (argc >= 3 && strcmp (argv[1], "--pipeline") == 0) {
    printf ("%.2f\n", bench_pipeline_fps (argv[2]));
    return 0;
  }

  if (ours) {
    GstPlugin *plugin = gst_plugin_load_file (ours, &error);
    if (!plugin) {
      g_printerr ("cannot load %s: %s\n", ours, error->message);
      return 1;
    }
    gst_object_unref (plugin);
  }
  ctx = gst_cuda_fx_context_get (0, &error);
  if (!ctx) {
    g_printerr ("cudafx-bench: %s\n", error->message);
    return 1;
  }

  for (i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0) {
      quick = TRUE;
      continue;
    }
    for (s = 0; s < G_N_ELEMENTS (sections); s++)
      if (strcmp (argv[i], sections[s].name) == 0)
        want[s] = any = TRUE;
  }
  printf ("# gst-cudafx benchmark\n");
  /* limits first: the other sections compare with them */
  for (s = 0; s < G_N_ELEMENTS (sections); s++)
    if (s == 0 || want[s] || (!any && !sections[s].only_named)) {
      sections[s].run ();
      fflush (stdout);
    }
  print_targets ();
  gst_object_unref (ctx);
  return 0;
}
