/* Benchmark section: cudadegrain.
 *
 * The whole per-frame work of the element (every level of every channel,
 * the noise estimate and its percentile) on device frames of the design's
 * layout, timed with CUDA events over rotating frame sets; bytes moved by
 * the kernels and their fraction of the measured copy bandwidth; then
 * FFmpeg's CPU denoisers (vaguedenoiser, nlmeans) on the same frame size,
 * when ffmpeg is installed, as ratios. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cudafx-testing.h"
#include "cudafx-bench.h"

typedef struct
{
  const char *name;
  GstVideoFormat format;
  int w, h;
  gboolean spatial_only;        /* left out of the temporal table */
} DegrainKind;

static const DegrainKind kinds[] = {
  {"1080p I420", GST_VIDEO_FORMAT_I420, 1920, 1080},
  {"1080p UYVY", GST_VIDEO_FORMAT_UYVY, 1920, 1080},
  {"4K I420", GST_VIDEO_FORMAT_I420, 3840, 2160},
  {"4K UYVY", GST_VIDEO_FORMAT_UYVY, 3840, 2160},
  /* 10 bits next to the 8-bit layouts they compare with (P010 with
   * NV12): the spatial table only */
  {"1080p I420_10LE", GST_VIDEO_FORMAT_I420_10LE, 1920, 1080, TRUE},
  {"4K I420_10LE", GST_VIDEO_FORMAT_I420_10LE, 3840, 2160, TRUE},
  {"4K NV12", GST_VIDEO_FORMAT_NV12, 3840, 2160, TRUE},
  {"4K P010", GST_VIDEO_FORMAT_P010_10LE, 3840, 2160, TRUE},
};

/* index of the kind named @name */
static guint
kind_index (const char *name)
{
  guint k;

  for (k = 0; k < G_N_ELEMENTS (kinds); k++)
    if (!strcmp (kinds[k].name, name))
      break;
  g_assert (k < G_N_ELEMENTS (kinds));
  return k;
}

typedef struct
{
  int n, sets;
  CfxPlane src[BENCH_MAX_SETS][CFX_DEGRAIN_MAX_CHANNELS];
  CfxPlane dst[BENCH_MAX_SETS][CFX_DEGRAIN_MAX_CHANNELS];
  guint8 *mem_in[BENCH_MAX_SETS], *mem_out[BENCH_MAX_SETS];
  CfxDegrainParams p;
  CfxDegrainScratch *scratch;
  double samples;
} DegrainData;

static void
launch_degrain (int set, void *data)
{
  DegrainData *d = data;

  CHECK (cfx_degrain (d->dst[set], d->src[set], d->n, &d->p, d->scratch, 0));
}

/* A device frame in the design's layout: planes with 256-byte pitches,
 * stacked; its channels (components) as the element sees them. */
static size_t
frame_layout (const DegrainKind * k, guint8 * base, CfxPlane * ch, int *n)
{
  return bench_frame_layout (k->format, k->w, k->h, base, ch, n);
}

/* Natural-ish content with sigma 10 noise, so the estimate histograms and
 * the Wiener gains see what they would on video: triangle-wave shapes plus
 * Irwin-Hall noise (12 uniforms: near Gaussian, and no libm needed);
 * frame @t of a pan of 3 px right and 2 px down a frame, its own noise */
static void
fill_frame_at (guint8 * host, size_t size, const DegrainKind * k, int t)
{
  CfxPlane ch[CFX_DEGRAIN_MAX_CHANNELS];
  guint64 s = 12345 + 7919 * (guint64) t;
  int n, c, x, y, i;

  memset (host, 0, size);
  frame_layout (k, host, ch, &n);
  for (c = 0; c < n; c++)
    for (y = 0; y < ch[c].height; y++)
      for (x = 0; x < ch[c].width; x++) {
        double g = -6.0, v;

        for (i = 0; i < 12; i++) {
          s = s * 6364136223846793005ull + 1442695040888963407ull;
          g += (s >> 11) * (1.0 / 9007199254740992.0);
        }
        int px = x + 4000 - 3 * t, py = y + 3000 - 2 * t;
        v = 40.0 + ABS ((px % 400) - 200) * 0.5 + ABS ((py % 300) - 150) *
            0.5 + 10.0 * g;
        bench_frame_put (&ch[c], x, y, v);
      }
}

/* Bytes the kernels move per sample for @levels (halo re-reads hit L2 and
 * are not counted), samples of @b bytes: level 0 reads b and writes 8; a
 * middle level reads and writes 8 each; the last reads 8 + b (low band,
 * sum, input) and writes b */
static double
bytes_per_sample (int levels, int b)
{
  if (levels == 1)
    return 3.0 * b;
  return b + 8.0 + 16.0 * (levels - 2) + 8.0 + 2.0 * b;
}

static double
time_degrain (const DegrainKind * k, CfxDegrainShrink shrink, int levels,
    double *bytes, double *samples)
{
  DegrainData *d = g_new0 (DegrainData, 1);
  CfxPlane ch[CFX_DEGRAIN_MAX_CHANNELS];
  int widths[CFX_DEGRAIN_MAX_CHANNELS], heights[CFX_DEGRAIN_MAX_CHANNELS];
  size_t size = frame_layout (k, NULL, ch, &d->n);
  guint8 *host = g_malloc (size);
  double t;
  int i, c;

  d->sets = bench_sets_for (2 * size);
  fill_frame_at (host, size, k, 0);
  d->samples = 0;
  for (c = 0; c < d->n; c++) {
    widths[c] = ch[c].width;
    heights[c] = ch[c].height;
    d->samples += (double) ch[c].width * ch[c].height;
    d->p.sigma[c] = 10.0f;
    d->p.strength[c] = c == 0 ? 1.0f : 1.5f;
  }
  for (i = 0; i < d->sets; i++) {
    CHECK (cudaMalloc ((void **) &d->mem_in[i], size));
    CHECK (cudaMalloc ((void **) &d->mem_out[i], size));
    CHECK (cudaMemcpy (d->mem_in[i], host, size, cudaMemcpyHostToDevice));
    frame_layout (k, d->mem_in[i], d->src[i], &d->n);
    frame_layout (k, d->mem_out[i], d->dst[i], &d->n);
  }
  CHECK (cfx_degrain_scratch_new (&d->scratch, d->n, widths, heights));
  d->p.shrink = shrink;
  d->p.levels = levels;
  d->p.amount = 1.0f;
  /* as the element: the estimate rides along every frame */
  d->p.estimate = 1;

  t = bench_time_kernel (launch_degrain, d, d->sets);
  *bytes = bytes_per_sample (levels, ch[0].bytes) * d->samples;
  *samples = d->samples;

  cfx_degrain_scratch_free (d->scratch);
  for (i = 0; i < d->sets; i++) {
    cudaFree (d->mem_in[i]);
    cudaFree (d->mem_out[i]);
  }
  g_free (host);
  g_free (d);
  return t;
}

/* A target row in ms, or "not run" when CUDAFX_BENCH_ONLY left the row
 * out (its time stayed 0); @strict: the target is "<", else "<=" */
static void
degrain_target (const char *what, const char *target, double ms,
    double limit, gboolean strict)
{
  if (ms > 0)
    bench_target (what, target, strict ? ms < limit : ms <= limit,
        "%.3f ms", ms);
  else
    bench_target_not_run (what, target);
}

/* ---- temporal-radius ------------------------------------------------ */

#define MAX_WIN (2 * CFX_TEMPORAL_MAX_RADIUS + 1)

typedef struct
{
  int n, radius, part;          /* part: 0 all, 1 temporal only */
  CfxPlane frame[MAX_WIN][CFX_DEGRAIN_MAX_CHANNELS];
  CfxPlane dst[CFX_DEGRAIN_MAX_CHANNELS];
  guint8 *mem[MAX_WIN], *out;
  CfxDegrainParams p;
  CfxDegrainScratch *scratch;
  CfxTemporalScratch *temporal;
} TemporalData;

/* One output as cudadegrain makes it in a steady stream: the search image
 * of the frame that entered, the temporal mean of the middle frame of
 * the window, the noise estimate of the input and the wavelet */
static void
launch_temporal (int set, void *data)
{
  TemporalData *d = data;
  CfxTemporalParams tp;
  CfxPlane mean[CFX_DEGRAIN_MAX_CHANNELS];
  int r = d->radius, k;

  memset (&tp, 0, sizeof (tp));
  tp.n_past = tp.n_future = r;
  tp.sigma = 10.0f;
  for (k = 0; k < r; k++) {
    tp.past[k].frame = d->frame[r - 1 - k];
    tp.past[k].slot = r - 1 - k;
    tp.future[k].frame = d->frame[r + 1 + k];
    tp.future[k].slot = r + 1 + k;
  }
  CHECK (cfx_temporal_prepare (d->temporal, 2 * r, &d->frame[2 * r][0], 0));
  CHECK (cfx_temporal_mean (d->frame[r], r, d->n, &tp, d->temporal, 0));
  if (d->part == 1)
    return;
  cfx_temporal_mean_planes (d->temporal, d->frame[r], d->n, mean);
  CHECK (cfx_degrain_estimate (d->frame[r], d->n, d->scratch, 0));
  CHECK (cfx_degrain (d->dst, mean, d->n, &d->p, d->scratch, 0));
}

/* ms per output frame: everything, and the temporal part alone */
static void
time_temporal (const DegrainKind * k, int radius, double *all,
    double *temporal)
{
  TemporalData *d = g_new0 (TemporalData, 1);
  CfxPlane ch[CFX_DEGRAIN_MAX_CHANNELS];
  int widths[CFX_DEGRAIN_MAX_CHANNELS], heights[CFX_DEGRAIN_MAX_CHANNELS];
  size_t size = frame_layout (k, NULL, ch, &d->n);
  guint8 *host = g_malloc (size);
  int t, c;

  d->radius = radius;
  for (c = 0; c < d->n; c++) {
    widths[c] = ch[c].width;
    heights[c] = ch[c].height;
    d->p.sigma[c] = 10.0f;
    d->p.strength[c] = c == 0 ? 1.0f : 1.5f;
  }
  for (t = 0; t < 2 * radius + 1; t++) {
    fill_frame_at (host, size, k, t);
    CHECK (cudaMalloc ((void **) &d->mem[t], size));
    CHECK (cudaMemcpy (d->mem[t], host, size, cudaMemcpyHostToDevice));
    frame_layout (k, d->mem[t], d->frame[t], &d->n);
  }
  CHECK (cudaMalloc ((void **) &d->out, size));
  frame_layout (k, d->out, d->dst, &d->n);
  CHECK (cfx_degrain_scratch_new (&d->scratch, d->n, widths, heights));
  CHECK (cfx_temporal_scratch_new (&d->temporal, d->n, widths, heights,
          radius));
  for (t = 0; t < 2 * radius + 1; t++)
    CHECK (cfx_temporal_prepare (d->temporal, t, &d->frame[t][0], 0));
  d->p.shrink = CFX_DEGRAIN_WIENER;
  d->p.levels = k->w > 1920 || k->h > 1080 ? 5 : 4;
  d->p.amount = 1.0f;
  d->p.sigma_scale = cfx_temporal_noise_scale_device (d->temporal);

  d->part = 0;
  *all = bench_time_kernel (launch_temporal, d, 1);
  d->part = 1;
  *temporal = bench_time_kernel (launch_temporal, d, 1);

  cfx_temporal_scratch_free (d->temporal);
  cfx_degrain_scratch_free (d->scratch);
  for (t = 0; t < 2 * radius + 1; t++)
    cudaFree (d->mem[t]);
  cudaFree (d->out);
  g_free (host);
  g_free (d);
}

static void
bench_temporal (const double *spatial_i420_ms, double spatial_uyvy_4k_ms)
{
  double r2_ms[2] = { 0, 0 };   /* I420 1080p, 4K */
  guint k;
  int r;

  printf ("\n### temporal-radius: one output frame in a steady stream "
      "(CUDA events)\n\n");
  printf ("The search image of the frame that entered, the motion search "
      "against 2 R neighbours, warp, weights and mean (\"temporal\"), "
      "then the noise estimate of the input and the wavelet, sigma 10, "
      "Wiener. Content: a pan of (3, 2) px a frame with its own noise in "
      "every frame. Floor of the temporal part: read 2 R + 1 frames, write "
      "one.\n\n");
  printf ("| frame | radius | ms per frame | temporal part ms | its floor ms "
      "| spatial alone ms (table above) |\n|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    CfxPlane ch[CFX_DEGRAIN_MAX_CHANNELS];
    int n;
    double frame_bytes = (double) frame_layout (&kinds[k], NULL, ch, &n);
    double spatial = kinds[k].format == GST_VIDEO_FORMAT_I420 ?
        spatial_i420_ms[kinds[k].w > 1920] : kinds[k].w > 1920 ?
        spatial_uyvy_4k_ms : 0.0;

    if (kinds[k].spatial_only || !bench_case_wanted (kinds[k].name))
      continue;
    for (r = 1; r <= 2; r++) {
      double all, temporal;

      time_temporal (&kinds[k], r, &all, &temporal);
      printf ("| %s | %d | %.3f | %.3f | %.3f | ", kinds[k].name, r,
          all * 1e3, temporal * 1e3, (2 * r + 2) * frame_bytes /
          bench_copy_bandwidth * 1e3);
      if (spatial > 0)
        printf ("%.3f |\n", spatial);
      else
        printf ("- |\n");
      if (r == 2 && kinds[k].format == GST_VIDEO_FORMAT_I420)
        r2_ms[kinds[k].w > 1920] = all * 1e3;
      fflush (stdout);
    }
  }
  degrain_target ("cudadegrain temporal-radius 2, 4K I420", "< 2 ms",
      r2_ms[1], 2.0, TRUE);
  degrain_target ("cudadegrain temporal-radius 2, 1080p I420", "< 0.6 ms",
      r2_ms[0], 0.6, TRUE);
}

/* ---- FFmpeg on the CPU ------------------------------------------------- */

/* CPU milliseconds per frame of @filter on testsrc2 in yuv420p: the run
 * minus the same run through "null", so the source and start-up are left
 * out; < 0 if ffmpeg failed */
static double
ffmpeg_ms_per_frame (int w, int h, int frames, const char *filter)
{
  gchar *src = g_strdup_printf ("testsrc2=size=%dx%d:rate=25,format=yuv420p",
      w, h);
  double with = bench_ffmpeg_seconds (src, filter, frames);
  double without = bench_ffmpeg_seconds (src, "null", frames);

  g_free (src);
  if (with < 0 || without < 0)
    return -1.0;
  return MAX (with - without, 1e-6) / frames * 1e3;
}

void
bench_section_degrain (void)
{
  const struct
  {
    CfxDegrainShrink shrink;
    const char *name;
  } modes[] = { {CFX_DEGRAIN_WIENER, "wiener"}, {CFX_DEGRAIN_SOFT, "soft"} };
  double gpu_i420_ms[2] = { 0, 0 };     /* wiener 1080p, 4K */
  double uyvy_4k_ms = 0;
  double share[G_N_ELEMENTS (kinds)] = { 0 };   /* wiener, of the floor */
  gchar *ffmpeg = g_find_program_in_path ("ffmpeg");
  guint k, m;

  printf ("\n## cudadegrain: all levels of all planes per frame, noise "
      "estimate included (CUDA events)\n\n");
  printf ("Bytes moved: what the kernels read and write in DRAM (level 0 "
      "1 + 8, middle levels 8 + 8, last 9 + 1 per sample; halo re-reads "
      "hit L2; 10-bit samples: 2 bytes in and out instead of 1). The "
      "operation's own floor is to read and write each sample once.\n\n");
  printf ("| frame | shrink | levels | ms per frame | fps | bytes moved | "
      "GB/s | %% of copy bandwidth | floor ms | %% of floor |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    int levels = kinds[k].w > 1920 || kinds[k].h > 1080 ? 5 : 4;

    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      double bytes, samples, t, floor_s;
      gchar *name = g_strdup_printf ("%s %s", kinds[k].name, modes[m].name);
      gboolean wanted = bench_case_wanted (name);

      g_free (name);
      if (!wanted)
        continue;
      t = time_degrain (&kinds[k], modes[m].shrink, levels, &bytes, &samples);
      floor_s = 2.0 * bench_frame_bytes (kinds[k].format, kinds[k].w,
          kinds[k].h) / bench_copy_bandwidth;
      printf ("| %s | %s | %d | %.3f | %.0f | %.0f MB | %.0f | %.0f%% | "
          "%.3f | %.1f%% |\n", kinds[k].name, modes[m].name, levels, t * 1e3,
          1.0 / t, bytes / 1e6, bytes / t / 1e9,
          100.0 * bytes / t / bench_copy_bandwidth, floor_s * 1e3,
          100.0 * floor_s / t);
      if (modes[m].shrink == CFX_DEGRAIN_WIENER)
        share[k] = floor_s / t;
      if (modes[m].shrink == CFX_DEGRAIN_WIENER
          && kinds[k].format == GST_VIDEO_FORMAT_I420)
        gpu_i420_ms[kinds[k].w > 1920] = t * 1e3;
      if (modes[m].shrink == CFX_DEGRAIN_WIENER
          && kinds[k].format == GST_VIDEO_FORMAT_UYVY && kinds[k].w > 1920)
        uyvy_4k_ms = t * 1e3;
      fflush (stdout);
    }
  }
  degrain_target ("cudadegrain 4K I420 wiener, 5 levels", "<= 0.30 ms",
      gpu_i420_ms[1], 0.30, FALSE);
  degrain_target ("cudadegrain 4K UYVY wiener, 5 levels", "<= 0.40 ms",
      uyvy_4k_ms, 0.40, FALSE);
  bench_target_depth ("cudadegrain 4K I420_10LE wiener (against 4K I420)",
      share[kind_index ("4K I420_10LE")], share[kind_index ("4K I420")]);
  bench_target_depth ("cudadegrain 4K P010 wiener (against 4K NV12)",
      share[kind_index ("4K P010")], share[kind_index ("4K NV12")]);

  bench_temporal (gpu_i420_ms, uyvy_4k_ms);

  printf ("\n### CPU comparison: FFmpeg on this machine's CPU, I420 "
      "(testsrc2), default settings\n\n");
  if (!ffmpeg) {
    printf ("ffmpeg not found: skipped.\n");
    return;
  }
  printf ("| frame | filter | CPU ms per frame | cudadegrain wiener ms | "
      "speed-up |\n|---|---|---|---|---|\n");
  for (k = 0; k < 2; k++) {
    int w = k ? 3840 : 1920, h = k ? 2160 : 1080;
    const struct
    {
      const char *filter;
      int frames;
    } peers[] = {
      {"vaguedenoiser", bench_reps (k ? 10 : 30)},
      {"nlmeans", MAX (bench_reps (k ? 2 : 5), 1)},
    };

    for (m = 0; m < G_N_ELEMENTS (peers); m++) {
      double ms = ffmpeg_ms_per_frame (w, h, peers[m].frames,
          peers[m].filter);

      if (ms < 0)
        printf ("| %s | %s | (failed) | %.3f | - |\n", k ? "4K" : "1080p",
            peers[m].filter, gpu_i420_ms[k]);
      else
        printf ("| %s | %s | %.1f | %.3f | %.0fx |\n", k ? "4K" : "1080p",
            peers[m].filter, ms, gpu_i420_ms[k], ms / gpu_i420_ms[k]);
      fflush (stdout);
    }
  }
  g_free (ffmpeg);
}
