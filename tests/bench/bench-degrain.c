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
} DegrainKind;

static const DegrainKind kinds[] = {
  {"1080p I420", GST_VIDEO_FORMAT_I420, 1920, 1080},
  {"1080p UYVY", GST_VIDEO_FORMAT_UYVY, 1920, 1080},
  {"4K I420", GST_VIDEO_FORMAT_I420, 3840, 2160},
  {"4K UYVY", GST_VIDEO_FORMAT_UYVY, 3840, 2160},
};

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
  int w = k->w, h = k->h;

  if (k->format == GST_VIDEO_FORMAT_UYVY) {
    int pitch = GST_ROUND_UP_N (GST_ROUND_UP_2 (w) * 2, 256);
    ch[0] = cfx_plane_8bit (base + 1, pitch, w, h, 2, 1);
    ch[1] = cfx_plane_8bit (base, pitch, (w + 1) / 2, h, 4, 0);
    ch[2] = cfx_plane_8bit (base + 2, pitch, (w + 1) / 2, h, 4, 2);
    *n = 3;
    return (size_t) pitch * h;
  } else {
    int cw = (w + 1) / 2, chh = (h + 1) / 2;
    int yp = GST_ROUND_UP_N (w, 256), cp = GST_ROUND_UP_N (cw, 256);
    size_t ysize = (size_t) yp * h, csize = (size_t) cp * chh;
    ch[0] = cfx_plane_8bit (base, yp, w, h, 1, 0);
    ch[1] = cfx_plane_8bit (base + (base ? ysize : 0), cp, cw, chh, 1, 0);
    ch[2] = cfx_plane_8bit (base + (base ? ysize + csize : 0), cp, cw, chh, 1,
        0);
    *n = 3;
    return ysize + 2 * csize;
  }
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

  memset (host, 128, size);
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
        host[(size_t) y * ch[c].pitch + (size_t) (ch[c].data - host) +
            (size_t) x * ch[c].step] = v < 0 ? 0 : v > 255 ? 255 :
            (guint8) (v + 0.5);
      }
}

/* Bytes the kernels move per sample for @levels (halo re-reads hit L2 and
 * are not counted): level 0 reads 1 and writes 8; a middle level reads
 * and writes 8 each; the last reads 9 (low band, sum, input) and writes 1 */
static double
bytes_per_sample (int levels)
{
  if (levels == 1)
    return 3.0;
  return 9.0 + 16.0 * (levels - 2) + 10.0;
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
  *bytes = bytes_per_sample (levels) * d->samples;
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

    if (!bench_case_wanted (kinds[k].name))
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
  gchar *ffmpeg = g_find_program_in_path ("ffmpeg");
  guint k, m;

  printf ("\n## cudadegrain: all levels of all planes per frame, noise "
      "estimate included (CUDA events)\n\n");
  printf ("Bytes moved: what the kernels read and write in DRAM (level 0 "
      "1 + 8, middle levels 8 + 8, last 9 + 1 per sample; halo re-reads "
      "hit L2). The operation's own floor is 2 bytes per sample.\n\n");
  printf ("| frame | shrink | levels | ms per frame | fps | bytes moved | "
      "GB/s | %% of copy bandwidth | floor ms (2 B/sample) |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    int levels = kinds[k].w > 1920 || kinds[k].h > 1080 ? 5 : 4;

    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      double bytes, samples, t;
      gchar *name = g_strdup_printf ("%s %s", kinds[k].name, modes[m].name);
      gboolean wanted = bench_case_wanted (name);

      g_free (name);
      if (!wanted)
        continue;
      t = time_degrain (&kinds[k], modes[m].shrink, levels, &bytes, &samples);
      printf ("| %s | %s | %d | %.3f | %.0f | %.0f MB | %.0f | %.0f%% | "
          "%.3f |\n", kinds[k].name, modes[m].name, levels, t * 1e3, 1.0 / t,
          bytes / 1e6, bytes / t / 1e9,
          100.0 * bytes / t / bench_copy_bandwidth,
          2.0 * samples / bench_copy_bandwidth * 1e3);
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
