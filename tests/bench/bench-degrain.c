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
 * Irwin-Hall noise (12 uniforms: near Gaussian, and no libm needed) */
static void
fill_frame (guint8 * host, size_t size, const DegrainKind * k)
{
  CfxPlane ch[CFX_DEGRAIN_MAX_CHANNELS];
  guint64 s = 12345;
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
        v = 40.0 + ABS ((x % 400) - 200) * 0.5 + ABS ((y % 300) - 150) * 0.5
            + 10.0 * g;
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
  fill_frame (host, size, k);
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
  bench_target ("cudadegrain 4K I420 wiener, 5 levels", "<= 0.30 ms",
      gpu_i420_ms[1] <= 0.30, "%.3f ms", gpu_i420_ms[1]);
  bench_target ("cudadegrain 4K UYVY wiener, 5 levels", "<= 0.40 ms",
      uyvy_4k_ms <= 0.40, "%.3f ms", uyvy_4k_ms);

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
