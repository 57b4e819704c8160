/* Benchmark section "chains": the speed rows that are whole pipelines, each
 * next to its target (collected in the run's target table).
 *
 * Sources, all one 'snow' frame rendered once and pushed again and again
 * by imagefreeze (whose copies share the frame's memory):
 *   pinned    the frame after cudafxupload ! cudafxdownload, whose pool is
 *             our pinned memory: a source that costs nothing, as an
 *             application's appsrc reusing pinned buffers would be;
 *   device    the frame after cudafxupload: a device frame, for the GPU
 *             side of a chain alone;
 *   pageable  the frame straight from videotestsrc (imagefreeze answers no
 *             allocation query, so it is plain malloc'd memory), as from
 *             filesrc, decoders or capture.
 *
 * Rows:
 *   - chains end to end, upload ! deinterlace ! degrain ! blur ! download,
 *     4K UYVY and 1080i I420 interlaced, field rate, in input frames/s;
 *   - N independent 1080i chains (upload ! deinterlace ! degrain !
 *     download) in one process, next to what the pieces allow;
 *   - host CPU time per buffer of each element at 1080p;
 *   - cudafxupload from pageable memory;
 *   - the plugin's size.
 * Frames per second count from the first output buffer to EOS; CPU time
 * is the process's (getrusage), over the same span. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "cudafx-bench.h"
#include "gstcudafxstaging.h"

#define FIELD_CAPS ",interlace-mode=interleaved,field-order=top-field-first"

void
bench_append_branch (GString * launch, BenchSource source, gint device,
    const char *caps, int frames, const char *tail, guint i)
{
  gchar *upload = device >= 0 ?
      g_strdup_printf ("cudafxupload device-id=%d ! ", device) :
      g_strdup ("cudafxupload ! ");

  g_string_append_printf (launch, "videotestsrc num-buffers=1 pattern=snow "
      "! video/x-raw,%s,framerate=1000/1 ! %s%simagefreeze num-buffers=%d ! "
      "%s%sfakesink name=s%u ", caps, source == BENCH_SOURCE_PAGEABLE ? "" :
      upload, source == BENCH_SOURCE_PINNED ? "cudafxdownload ! " : "",
      frames, tail ? tail : "", tail ? " ! " : "", i);
  g_free (upload);
}

/* Output frames per second of @n branches in one process, and the CPU
 * seconds per output frame in @cpu (may be NULL) */
static double
branches (BenchSource source, const char *caps, int frames, const char *tail,
    guint n, double *cpu)
{
  GString *launch = g_string_new (NULL);
  double fps, c = 0;
  guint i;

  for (i = 0; i < n; i++)
    bench_append_branch (launch, source, -1, caps, frames, tail, i);
  fps = bench_branches_fps_steady (launch->str, n, &c);
  g_string_free (launch, TRUE);
  if (cpu)
    *cpu = c;
  return fps;
}

/* ---- chains end to end --------------------------------------------------- */

#define CHAIN "cudadeinterlace ! cudadegrain ! cudablur sigma=1.5"

static void
chain_rows (void)
{
  const struct
  {
    const char *name, *caps;
    int frames;
    double target;
  } kinds[] = {
    {"4K UYVY interlaced", "format=UYVY,width=3840,height=2160" FIELD_CAPS,
        600, 1000},
    {"1080i I420", "format=I420,width=1920,height=1080" FIELD_CAPS, 2000,
        4000},
  };
  guint k;

  printf ("\n## Chains from a source that costs nothing, input frames per "
      "second\n\n");
  printf ("`upload ! " CHAIN " ! download`, interlaced input at field rate "
      "(two output frames per input frame). Source: one pinned frame pushed "
      "again and again (see the section's comment); \"GPU side alone\": a "
      "device frame pushed again and again into the chain without upload "
      "and download; \"+ queue\": a queue before cudafxdownload, whose "
      "thread waits for each frame's copy.\n\n");
  printf ("| frames | source alone | GPU side alone | end to end | + queue | "
      "target |\n|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    int n = bench_reps (kinds[k].frames);
    double src, gpu, e2e, e2eq, best;

    src = branches (BENCH_SOURCE_PINNED, kinds[k].caps, n, NULL, 1, NULL);
    gpu = branches (BENCH_SOURCE_DEVICE, kinds[k].caps, n, CHAIN, 1, NULL) / 2;
    e2e = branches (BENCH_SOURCE_PINNED, kinds[k].caps, n,
        "cudafxupload ! " CHAIN " ! cudafxdownload", 1, NULL) / 2;
    e2eq = branches (BENCH_SOURCE_PINNED, kinds[k].caps, n,
        "cudafxupload ! " CHAIN " ! queue max-size-buffers=4 ! cudafxdownload",
        1, NULL) / 2;
    printf ("| %s | %.0f | %.0f | %.0f | %.0f | %.0f |\n", kinds[k].name, src,
        gpu, e2e, e2eq, kinds[k].target);
    fflush (stdout);
    best = MAX (e2e, e2eq);
    {
      gchar *what = g_strdup_printf ("%s: upload ! deinterlace ! degrain ! "
          "blur ! download, input frames/s end to end", kinds[k].name);
      gchar *target = g_strdup_printf (">= %.0f", kinds[k].target);

      bench_target (what, target, best >= kinds[k].target, "%.0f%s (GPU "
          "side alone %.0f)", best, e2eq > e2e ? " with a queue" : "", gpu);
      g_free (what);
      g_free (target);
    }
  }
}

/* ---- many streams -------------------------------------------------------- */

#define STREAM_CAPS "format=I420,width=1920,height=1080"

static void
stream_rows (void)
{
  const guint counts[] = { 1, 4, 16 };
  int n = bench_reps (400);
  double up, gpu, down, sum_bound, overlap_bound;
  guint i;

  /* the pieces of one input frame, each alone: its upload, the two
   * kernels, and the download of its two output frames */
  up = 1.0 / branches (BENCH_SOURCE_PINNED, STREAM_CAPS FIELD_CAPS, 4 * n,
      "cudafxupload", 1, NULL);
  gpu = 2.0 / branches (BENCH_SOURCE_DEVICE, STREAM_CAPS FIELD_CAPS, 4 * n,
      "cudadeinterlace ! cudadegrain", 1, NULL);
  down = 2.0 / branches (BENCH_SOURCE_DEVICE, STREAM_CAPS, 4 * n,
      "cudafxdownload", 1, NULL);
  sum_bound = 1.0 / (up + gpu + down);
  overlap_bound = 1.0 / MAX (up, MAX (gpu, down));

  printf ("\n## Many streams on one GPU: N independent 1080i I420 chains "
      "in one process, input frames per second over all\n\n");
  printf ("Each: pinned source ! cudafxupload ! cudadeinterlace ! "
      "cudadegrain ! cudafxdownload ! fakesink, %d frames. What the pieces "
      "allow, from each alone: upload %.1f us, deinterlace + degrain "
      "%.1f us, download of the two output frames %.1f us per input frame; "
      "one after the other %.0f frames/s (the target's bound), overlapped "
      "(copy engines beside the kernels) %.0f frames/s.\n\n", n, up * 1e6,
      gpu * 1e6, down * 1e6, sum_bound, overlap_bound);
  printf ("| N | input frames/s | %% of one-after-the-other | %% of overlapped "
      "| CPU us per frame |\n|---|---|---|---|---|\n");
  for (i = 0; i < G_N_ELEMENTS (counts); i++) {
    double cpu, fps = branches (BENCH_SOURCE_PINNED, STREAM_CAPS FIELD_CAPS, n,
        "cudafxupload ! cudadeinterlace ! cudadegrain ! cudafxdownload",
        counts[i], &cpu) / 2;

    printf ("| %u | %.0f | %.0f%% | %.0f%% | %.1f |\n", counts[i], fps,
        100 * fps / sum_bound, 100 * fps / overlap_bound, 2 * cpu * 1e6);
    fflush (stdout);
    if (counts[i] == 16)
      bench_target ("16 streams of 1080i upload ! deinterlace ! degrain ! "
          "download: share of what the pieces allow one after the other",
          ">= 90%", fps >= 0.9 * sum_bound, "%.0f%% (%.0f of %.0f frames/s)",
          100 * fps / sum_bound, fps, sum_bound);
  }
}

/* ---- host cost per element ------------------------------------------------ */

static void
host_cost_rows (void)
{
  const struct
  {
    const char *element;
    BenchSource source;
    gboolean fields;            /* interlaced input, two outputs per input */
  } rows[] = {
    {"cudafxupload", BENCH_SOURCE_PINNED, FALSE},
    {"cudaluma", BENCH_SOURCE_DEVICE, FALSE},
    {"cudablur sigma=2", BENCH_SOURCE_DEVICE, FALSE},
    {"cudadegrain", BENCH_SOURCE_DEVICE, FALSE},
    {"cudadeinterlace", BENCH_SOURCE_DEVICE, TRUE},
    {"cudafxdownload", BENCH_SOURCE_DEVICE, FALSE},
  };
  const char *caps[2] = { STREAM_CAPS, STREAM_CAPS FIELD_CAPS };
  int n = bench_reps (3000);
  double worst = 0;
  const char *worst_name = "";
  guint r;

  printf ("\n## Host cost per element, 1080p I420: CPU us per input "
      "buffer\n\n");
  printf ("`source ! X ! fakesink` minus `source ! fakesink` (the same "
      "source: pinned for cudafxupload, a device frame for the others), "
      "process CPU time from the first output to EOS, %d buffers flat out. "
      "Where the GPU or the link is slower than the host (frames/s below "
      "what the host alone manages), the host time includes the driver's "
      "waits for room in its queues and ours for the copies.\n\n", n);
  printf ("| element | CPU us per buffer | source alone | frames/s |\n"
      "|---|---|---|---|\n");
  for (r = 0; r < G_N_ELEMENTS (rows); r++) {
    double base_cpu, cpu, fps, cost;
    int outs = rows[r].fields ? 2 : 1;

    branches (rows[r].source, caps[rows[r].fields], n, NULL, 1, &base_cpu);
    fps = branches (rows[r].source, caps[rows[r].fields], n,
        rows[r].element, 1, &cpu);
    cost = outs * cpu - base_cpu;
    printf ("| %s | %.1f | %.1f | %.0f |\n", rows[r].element, cost * 1e6,
        base_cpu * 1e6, fps / outs);
    fflush (stdout);
    if (cost > worst) {
      worst = cost;
      worst_name = rows[r].element;
    }
  }
  bench_target ("host CPU time per buffer per element, 1080p (the most "
      "costly)", "<= 10 us", worst <= 10e-6, "%.1f us (%s)", worst * 1e6,
      worst_name);
}

/* ---- pageable upload ---------------------------------------------------- */

/* Bytes per second of the driver's own path from pageable memory: plain
 * cudaMemcpyAsync calls of one frame from a malloc'd buffer, back to back */
static double
driver_pageable_rate (size_t bytes, int n)
{
  guint8 *host = g_malloc (bytes), *dev;
  cudaStream_t s;
  gint64 t0;
  int i;

  memset (host, 1, bytes);
  CHECK (cudaMalloc ((void **) &dev, bytes));
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaMemcpyAsync (dev, host, bytes, cudaMemcpyHostToDevice, s));
  CHECK (cudaStreamSynchronize (s));
  t0 = g_get_monotonic_time ();
  for (i = 0; i < n; i++)
    CHECK (cudaMemcpyAsync (dev, host, bytes, cudaMemcpyHostToDevice, s));
  CHECK (cudaStreamSynchronize (s));
  t0 = g_get_monotonic_time () - t0;
  CHECK (cudaStreamDestroy (s));
  CHECK (cudaFree (dev));
  g_free (host);
  return (double) bytes * n / (t0 * 1e-6);
}

static void
pageable_rows (void)
{
  const struct
  {
    const char *name, *caps;
    GstVideoFormat format;
    int w, h;
  } kinds[] = {
    {"1080p I420", STREAM_CAPS, GST_VIDEO_FORMAT_I420, 1920, 1080},
    {"4K UYVY", "format=UYVY,width=3840,height=2160", GST_VIDEO_FORMAT_UYVY,
        3840, 2160},
  };
  const guint threads[] = { 1, 2, 4, 6, 8 };
  int n = bench_reps (2000);
  guint k, t;

  printf ("\n## cudafxupload from pageable memory (a source that does not "
      "use our pinned pool), GB/s and host CPU per frame\n\n");
  printf ("Pageable frames go through pinned staging frames, copied into by "
      "copy-threads threads (default: %u here; pin-recurring=false); "
      "\"driver\": the CUDA driver's own path, cudaMemcpyAsync from a "
      "malloc'd frame, back to back; \"registered\": the element's default, "
      "which page-locks the source's one frame when it comes back "
      "(pin-recurring); \"pinned\": a source whose frames are our pinned "
      "memory. CPU: the process's, per frame, source included.\n\n",
      gst_cuda_fx_staging_threads (0));
  printf ("| frames | driver | copy-threads 1 | 2 | 4 | 6 | 8 | default, "
      "staged | registered | pinned | CPU staged | CPU registered | "
      "CPU pinned |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    GstVideoInfo info;
    double page, reg, pin, size, page_cpu, reg_cpu, pin_cpu;

    gst_video_info_set_format (&info, kinds[k].format, kinds[k].w,
        kinds[k].h);
    size = GST_VIDEO_INFO_SIZE (&info);
    printf ("| %s | %.1f ", kinds[k].name,
        driver_pageable_rate (size, n / 4) / 1e9);
    for (t = 0; t < G_N_ELEMENTS (threads); t++) {
      gchar *tail = g_strdup_printf ("cudafxupload pin-recurring=false "
          "copy-threads=%u", threads[t]);

      printf ("| %.1f ", branches (BENCH_SOURCE_PAGEABLE, kinds[k].caps, n,
              tail, 1, NULL) * size / 1e9);
      g_free (tail);
    }
    page = branches (BENCH_SOURCE_PAGEABLE, kinds[k].caps, n,
        "cudafxupload pin-recurring=false", 1, &page_cpu);
    reg = branches (BENCH_SOURCE_PAGEABLE, kinds[k].caps, n, "cudafxupload",
        1, &reg_cpu);
    pin = branches (BENCH_SOURCE_PINNED, kinds[k].caps, n, "cudafxupload", 1,
        &pin_cpu);
    printf ("| %.1f | %.1f | %.1f | %.0f us | %.0f us | %.0f us |\n",
        page * size / 1e9, reg * size / 1e9, pin * size / 1e9,
        page_cpu * 1e6, reg_cpu * 1e6, pin_cpu * 1e6);
    fflush (stdout);
    if (k == 0)
      bench_target ("upload from pageable memory, 1080p I420", ">= 25 GB/s",
          page * size >= 25e9, "%.0f us a frame, %.1f GB/s", 1e6 / page,
          page * size / 1e9);
  }
}

/* ---- size ---------------------------------------------------------------- */

static void
size_row (void)
{
  const char *path = g_getenv ("CUDAFX_PLUGIN");
  GStatBuf st;

  if (!path || g_stat (path, &st) != 0)
    return;
  printf ("\n## Size: %s is %.1f MB (the architectures this build was made "
      "for)\n", path, st.st_size / 1e6);
  bench_target ("libgstcudafx.so size (this build's architectures)",
      "< 20 MB (default build)", st.st_size < 20e6, "%.1f MB",
      st.st_size / 1e6);
}

void
bench_section_chains (void)
{
  chain_rows ();
  stream_rows ();
  host_cost_rows ();
  pageable_rows ();
  size_row ();
}
