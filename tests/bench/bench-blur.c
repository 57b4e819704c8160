/* Benchmark section: cudablur.
 *
 *  - the kernels alone, one frame (every plane, in one call, as the
 *    element makes it) per launch, over rotating sets of (input, output)
 *    frames so the L2 does not hold them; bytes:
 *    each input plane read once and each output plane written once, the
 *    floor of any blur; the scratch (coarse grids, box sums) is the
 *    element's (a CfxBlur reserved as the element reserves it), allocated
 *    once; sharpening (the unsharp mask, amount 1) has the same floor: its
 *    second read of the source, in the last kernel, should come from L2;
 *  - whole pipelines in frames per second: videotestsrc ! cudafxupload !
 *    cudablur ! cudafxdownload, and the same with queues between the
 *    elements, next to GStreamer's CPU gaussianblur (in a
 *    child process) and FFmpeg's CPU gblur when ffmpeg is installed. The
 *    peers do different work, printed with the table. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cudafx-testing.h"
#include "blur-testing.h"
#include "cudafx-bench.h"

typedef struct
{
  CfxPlane src[BENCH_MAX_SETS][3], dst[BENCH_MAX_SETS][3];
  guint8 *mem[BENCH_MAX_SETS][2];
  int n_planes, sub[3];
  gboolean box;
  double sigma;
  int radius;
  int amount;                   /* >= 0: sharpen (CFX_BLUR_AMOUNT_ONE: 1) */
  CfxBlur *blur;
} BlurData;

/* every plane in one call, as the element does */
static void
launch_blur (int set, void *data)
{
  BlurData *d = data;
  CfxBlurChannel ch[3];
  cudaError_t err;
  int p;

  for (p = 0; p < d->n_planes; p++) {
    ch[p] = cfx_blur_channel (d->dst[set][p], d->src[set][p], d->sigma,
        d->radius, d->sub[p], d->sub[p]);
    ch[p].sharpen = d->amount >= 0;
    ch[p].amount = d->amount;
  }
  err = d->box ? cfx_blur_box_frame (d->blur, ch, d->n_planes, 1, 0) :
      cfx_blur_gaussian_frame (d->blur, ch, d->n_planes, 1, 0);
  if (err != cudaSuccess) {
    g_printerr ("cudablur kernels: %s\n", cudaGetErrorString (err));
    exit (1);
  }
}

/* the luma plane's path */
static const char *
path_name (int w, int h, double sigma, char *buf, size_t size)
{
  if (cfx_blur_gaussian_path (w, h, sigma, sigma, 1) == CFX_BLUR_PATH_DIRECT)
    return "direct";
  snprintf (buf, size, "decimated by %d", cfx_blur_decimation (sigma));
  return buf;
}

static void
kernel_rows (void)
{
  const struct
  {
    const char *name;
    gboolean i420;
    int w, h;
    int bytes;                  /* 2: 16-bit samples (blur16-*.cu) */
  } kinds[] = {
    {"1080p GRAY8", FALSE, 1920, 1080, 1},
    {"1080p I420", TRUE, 1920, 1080, 1},
    {"4K GRAY8", FALSE, 3840, 2160, 1},
    {"4K I420", TRUE, 3840, 2160, 1},
    {"4K GRAY16", FALSE, 3840, 2160, 2},
  };
  const struct
  {
    gboolean box;
    double sigma;
    int radius;
    int amount;                 /* >= 0: sharpen */
  } cases[] = {
    {FALSE, 1.0, 0, -1}, {FALSE, 3.0, 0, -1}, {FALSE, 10.0, 0, -1},
    {FALSE, 50.0, 0, -1}, {TRUE, 0.0, 100, -1},
    /* either side of the crossover: the largest direct radius (48) and
     * the smallest decimated sigma */
    {FALSE, 16.0, 0, -1}, {FALSE, 16.5, 0, -1},
    /* the border blocks of the decimated path, largest sigmas */
    {FALSE, 100.0, 0, -1}, {FALSE, 200.0, 0, -1},
    /* sharpening, amount 1: each path's epilogue (SHARPEN_FIRST on) */
    {FALSE, 3.0, 0, CFX_BLUR_AMOUNT_ONE}, {FALSE, 50.0, 0,
        CFX_BLUR_AMOUNT_ONE}, {TRUE, 0.0, 100, CFX_BLUR_AMOUNT_ONE},
  };
  /* the blur cases before SHARPEN_FIRST: the targets' */
  const guint SHARPEN_FIRST = 9;
  double t4k[G_N_ELEMENTS (cases)] = { 0 }, bytes4k = 0;
  double t4k_i420[G_N_ELEMENTS (cases)] = { 0 };
  double share16 = 0;           /* 4K GRAY16 sigma 3, of the copy bandwidth */
  guint k, c;

  bench_print_kernel_header ("cudablur kernels, one frame (all planes) per "
      "launch (floor: read each plane once, write it once)");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    int w = kinds[k].w, h = kinds[k].h, n = kinds[k].i420 ? 3 : 1;
    int pw[3], ph[3], pitch[3], p, s, sets;
    size_t offset[3], alloc = 0, frame_bytes = 0;
    CfxBlurComponent comps[3];
    BlurData *d = g_new0 (BlurData, 1);

    for (p = 0; p < n; p++) {
      pw[p] = p ? (w + 1) / 2 : w;
      ph[p] = p ? (h + 1) / 2 : h;
      d->sub[p] = p ? 2 : 1;
      pitch[p] = GST_ROUND_UP_N (pw[p] * kinds[k].bytes, 256);
      offset[p] = alloc;
      alloc += (size_t) pitch[p] * ph[p];
      frame_bytes += (size_t) pw[p] * ph[p] * kinds[k].bytes;
      comps[p].width = pw[p];
      comps[p].height = ph[p];
      comps[p].depth = 8 * kinds[k].bytes;
      comps[p].sub_x = comps[p].sub_y = d->sub[p];
    }
    d->n_planes = n;
    d->blur = cfx_blur_new ();
    CHECK (cfx_blur_reserve (d->blur, cfx_blur_scratch_bytes (comps, n, 1,
                200.0)));
    sets = bench_sets_for (2 * alloc);
    for (s = 0; s < sets; s++) {
      CHECK (cudaMalloc ((void **) &d->mem[s][0], alloc));
      CHECK (cudaMalloc ((void **) &d->mem[s][1], alloc));
      /* the kernels' time does not depend on the content */
      CHECK (cudaMemset (d->mem[s][0], 40 + s, alloc));
      for (p = 0; p < n; p++) {
        CfxPlane in = cfx_plane_8bit (d->mem[s][0] + offset[p], pitch[p],
            pw[p], ph[p], 1, 0);
        CfxPlane out;

        if (kinds[k].bytes == 2) {
          in.bytes = in.step = 2;
          in.depth = 16;
        }
        out = in;
        out.data = d->mem[s][1] + offset[p];
        d->src[s][p] = in;
        d->dst[s][p] = out;
      }
    }

    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      char buf[32], *name;
      double t;

      /* 16-bit: direct sums, whose time grows with the blur */
      if (kinds[k].bytes == 2 && (cases[c].sigma > 10.0
              || cases[c].radius > 100))
        continue;
      d->box = cases[c].box;
      d->sigma = cases[c].sigma;
      d->radius = cases[c].radius;
      d->amount = cases[c].amount;
      if (d->box)
        name = g_strdup_printf ("%s %s radius %d", kinds[k].name,
            d->amount >= 0 ? "sharpen box" : "box", d->radius);
      else
        name = g_strdup_printf ("%s %s sigma %g (%s)", kinds[k].name,
            d->amount >= 0 ? "sharpen gaussian" : "gaussian", d->sigma,
            kinds[k].bytes == 2 ? (d->sigma <= 16.0 / 3.0 ?
                "direct sums, one kernel" : "direct sums, two passes") :
            path_name (w, h, d->sigma, buf, sizeof (buf)));
      if (!bench_case_wanted (name)) {
        g_free (name);
        continue;
      }
      t = bench_time_kernel (launch_blur, d, sets);
      bench_print_kernel_row (name, t, 2.0 * frame_bytes);
      if (k == 2) {
        t4k[c] = t;
        bytes4k = 2.0 * frame_bytes;
      }
      if (k == 3)
        t4k_i420[c] = t;
      if (kinds[k].bytes == 2 && w == 3840 && c == 1)
        share16 = 2.0 * frame_bytes / t / bench_copy_bandwidth;
      if (kinds[k].bytes == 2 && !d->box && d->sigma <= 16.0 / 3.0
          && d->amount < 0) {
        /* the two tiled passes, for comparison (the elements take the
         * fused kernel) */
        cfx_blur16_use_fused (0);
        t = bench_time_kernel (launch_blur, d, sets);
        cfx_blur16_use_fused (1);
        bench_print_kernel_row ("  the same in two passes", t,
            2.0 * frame_bytes);
      }
      g_free (name);
    }
    for (s = 0; s < sets; s++) {
      cudaFree (d->mem[s][0]);
      cudaFree (d->mem[s][1]);
    }
    cfx_blur_free (d->blur);
    g_free (d);
  }

  bench_target_depth ("cudablur 4K GRAY16 sigma 3 (against GRAY8)", share16,
      t4k[1] > 0 ? bytes4k / t4k[1] / bench_copy_bandwidth : 0);
  /* sharpening's epilogue: the unsharp mask of 4K I420 sigma 3 against
   * its blur (both at the same floor; the source's second read should
   * come from L2) */
  if (t4k_i420[1] > 0.0 && t4k_i420[SHARPEN_FIRST] > 0.0)
    bench_target ("cudablur 4K I420 sharpen sigma 3 / blur sigma 3",
        "<= 1.3x", t4k_i420[SHARPEN_FIRST] <= 1.3 * t4k_i420[1],
        "%.1f against %.1f us: %.2fx", t4k_i420[SHARPEN_FIRST] * 1e6,
        t4k_i420[1] * 1e6, t4k_i420[SHARPEN_FIRST] / t4k_i420[1]);
  /* with CUDAFX_BENCH_ONLY some of the cases may not have run */
  for (c = 1; c < SHARPEN_FIRST; c++)
    if (t4k[c] <= 0.0)
      return;
  {
    double rate = bytes4k / t4k[1] / bench_copy_bandwidth, slowest = 0;
    guint worst = 1;

    for (c = 1; c < SHARPEN_FIRST; c++)
      if (t4k[c] / t4k[1] > slowest) {
        slowest = t4k[c] / t4k[1];
        worst = c;
      }
    printf ("\nTargets (4K GRAY8): sigma 3 at %.0f%% of the copy bandwidth "
        "(target 70%% or more); the slowest case takes %.2fx the time of "
        "sigma 3 (target 2x or less); sigma 10: %.2fx, sigma 50: %.2fx, box "
        "radius 100: %.2fx, sigma 100: %.2fx, sigma 200: %.2fx; crossover: "
        "sigma 16 (direct) %.2fx, sigma 16.5 (decimated) %.2fx.\n",
        100.0 * rate, slowest, t4k[2] / t4k[1], t4k[3] / t4k[1],
        t4k[4] / t4k[1], t4k[7] / t4k[1], t4k[8] / t4k[1], t4k[5] / t4k[1],
        t4k[6] / t4k[1]);
    bench_target ("cudablur 4K GRAY8 sigma 3, share of copy bandwidth",
        ">= 70%", rate >= 0.70, "%.1f us, %.0f%%", t4k[1] * 1e6, 100 * rate);
    bench_target ("cudablur 4K GRAY8, slowest sigma or radius / sigma 3",
        "<= 2x", slowest <= 2.0, "%.2fx (%s %g)", slowest,
        cases[worst].box ? "box radius" : "sigma",
        cases[worst].box ? (double) cases[worst].radius : cases[worst].sigma);
  }
}

/* FFmpeg on a lavfi testsrc2 source: frames per second of the whole
 * process (start-up included), 0 if ffmpeg is missing or fails */
static double
ffmpeg_fps (const char *vf, int w, int h, int frames)
{
  gchar *src = g_strdup_printf ("testsrc2=size=%dx%d", w, h);
  double secs = bench_ffmpeg_seconds (src, vf, frames);

  g_free (src);
  return secs > 0 ? frames / secs : 0;
}

static void
print_peer (double ours, double peer)
{
  if (peer > 0)
    printf (" %.1f | %.1fx |", peer, ours / peer);
  else
    printf (" - | - |");
}

static void
pipeline_rows (void)
{
  const struct
  {
    const char *name;
    int w, h;
  } kinds[] = {
    {"1080p", 1920, 1080},
    {"4K", 3840, 2160},
  };
  gchar *ffmpeg = g_find_program_in_path ("ffmpeg");
  int n = bench_reps (300);
  guint k;

  printf ("\n## cudablur pipelines, frames per second (first buffer to EOS; "
      "CPU peers in a child process)\n\n");
  printf ("What each column measures:\n\n"
      "- ours: `videotestsrc ! I420 ! cudafxupload ! cudablur sigma=3 ! "
      "cudafxdownload ! fakesink`: the CPU test source, the PCIe copies up "
      "and down and the blur of all three planes (chroma at sigma 1.5), "
      "exact Gaussian; next to it the I420 source alone.\n"
      "- ours, queued: the same with a `queue` before and after each of "
      "upload, blur and download, so the source, the copies and the blur "
      "run in threads of their own.\n"
      "- GStreamer `gaussianblur sigma=3` (gst-plugins-bad, gaudieffects): "
      "AYUV only, so it blurs four full-resolution channels (A, Y, U, V), "
      "in float on one core, window ceil (2.5 sigma), borders renormalised "
      "instead of mirrored; next to it the AYUV source alone.\n"
      "- FFmpeg `gblur=sigma=3` (format yuv420p, default steps=1: a "
      "recursive approximation of the Gaussian, slice-threaded on every "
      "core) on `testsrc2`, the whole ffmpeg process timed with its "
      "start-up; next to it the same command with `-vf format=yuv420p` "
      "alone.\n\n");
  printf ("| frames | I420 source alone | ours | ours, queued | AYUV source "
      "alone | gaussianblur (CPU) | ratio | ffmpeg source alone | FFmpeg gblur "
      "(CPU) | ratio |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    int w = kinds[k].w, h = kinds[k].h;
    /* the CPU peers are slow: fewer frames */
    int np = MAX (n / (h > 1080 ? 60 : 15), 5);
    gchar *caps = g_strdup_printf ("width=%d,height=%d,framerate=1000/1", w,
        h);
    gchar *l_i420 = g_strdup_printf ("videotestsrc num-buffers=%d ! "
        "video/x-raw,format=I420,%s ! fakesink name=sink", n, caps);
    gchar *l_ours = g_strdup_printf ("videotestsrc num-buffers=%d ! "
        "video/x-raw,format=I420,%s ! cudafxupload ! cudablur sigma=3 ! "
        "cudafxdownload ! fakesink name=sink", n, caps);
    gchar *l_queued = g_strdup_printf ("videotestsrc num-buffers=%d ! "
        "video/x-raw,format=I420,%s ! queue ! cudafxupload ! queue ! "
        "cudablur sigma=3 ! queue ! cudafxdownload ! queue ! "
        "fakesink name=sink", n, caps);
    gchar *l_ayuv = g_strdup_printf ("videotestsrc num-buffers=%d ! "
        "video/x-raw,format=AYUV,%s ! fakesink name=sink", np, caps);
    gchar *l_gb = g_strdup_printf ("videotestsrc num-buffers=%d ! "
        "video/x-raw,format=AYUV,%s ! gaussianblur sigma=3 ! "
        "fakesink name=sink", np, caps);
    double f_i420 = bench_pipeline_fps (l_i420);
    double f_ours = bench_pipeline_fps (l_ours);
    double f_queued = bench_pipeline_fps (l_queued);
    double f_ayuv = bench_peer_pipeline_fps (l_ayuv);
    double f_gb = bench_peer_pipeline_fps (l_gb);
    double f_fsrc = 0, f_gblur = 0;

    if (ffmpeg) {
      f_fsrc = ffmpeg_fps ("format=yuv420p", w, h, 4 * np);
      f_gblur = ffmpeg_fps ("format=yuv420p,gblur=sigma=3", w, h, 4 * np);
    }
    printf ("| %s | %.0f | %.0f | %.0f | %.1f |", kinds[k].name, f_i420,
        f_ours, f_queued, f_ayuv);
    print_peer (f_ours, f_gb);
    printf (" %.1f |", f_fsrc);
    print_peer (f_ours, f_gblur);
    printf ("\n");
    fflush (stdout);
    g_free (caps);
    g_free (l_i420);
    g_free (l_ours);
    g_free (l_queued);
    g_free (l_ayuv);
    g_free (l_gb);
  }
  if (!ffmpeg)
    printf ("\n(ffmpeg not installed: no FFmpeg columns)\n");
  printf ("\n(a - : the peer did not run; gaussianblur needs "
      "gst-plugins-bad)\n");
  g_free (ffmpeg);
}

void
bench_section_blur (void)
{
  kernel_rows ();
  if (bench_case_wanted (NULL))
    pipeline_rows ();
}
