/* GPU suite for the temporal degrain kernels (kernels/temporal.cu) against
 * the CPU reference (tests/reference/temporal.c), no pipeline:
 *
 * - the temporal mean of 8-bit luma equal to cfx_ref_temporal_mean,
 *   sample for sample, and the noise left within 1e-4 of its (the search
 *   is in integers and the float steps are the reference's, unfused), on
 *   pans by sub-pixel and whole steps, a still clip, a scene cut, a cut
 *   between pans of about one mean and spread (which only the
 *   low-frequency test tells), a fade, a flash frame (skipped) and random
 *   bytes, sizes 1x1 to 96x80 odd and even, radius 1 to 3, sigma 10, 20
 *   and 30, every frame of 7 including the clip's ends; then the
 *   spatial stage (cfx_degrain fed the device scale) within 1 of
 *   cfx_ref_temporal_degrain, outside the frame's samples nothing
 *   written (poisoned padding);
 * - 10-bit words, LSB (I420_10LE) and MSB (P010) aligned with garbage in
 *   the unused bits: the same vectors, so the mean is 4 times the 8-bit
 *   mean within the rounding (2 codes), unused bits 0;
 * - chroma following luma's weights: a still clip of flat luma (every
 *   vector 0, with no sub-pixel offset, and every weight 1) and noisy
 *   chroma gives the rounded mean of the frames' chroma, planar 4:2:0 and
 *   packed 4:2:2 (UYVY steps);
 * - sigma 0 uses no neighbour (the mean is the frame, scale 1); bad
 *   arguments are refused. */
#include "cfx-test.h"
#include "cfx-reference.h"
#include "cudafx-kernels.h"
#include "cudafx-testing.h"

#include <math.h>
#include <string.h>

#define N_FRAMES 7
#define POISON 0x5A
#define PAD 37                  /* bytes after each row: an odd pitch */

/* ---- clips ------------------------------------------------------------ */

typedef enum
{
  CLIP_PAN,                     /* (0.7, 1.3) px a frame */
  CLIP_PAN_WHOLE,               /* (3, -2) px a frame */
  CLIP_STILL,
  CLIP_CUT,                     /* another picture from frame 3 on */
  CLIP_CUT_ALIKE,               /* a pan, from frame 3 on another of
                                 * about the same mean and spread */
  CLIP_FADE,                    /* a pan at 1 - 0.08 t of its brightness */
  CLIP_FLASH,                   /* a pan, frame 3 60 levels brighter */
  CLIP_RANDOM,                  /* random bytes, no noise added */
  N_CLIPS
} Clip;

static const gchar *clip_names[] = { "pan", "pan-whole", "still", "cut",
  "cut-alike", "fade", "flash", "random"
};

static double
texture (gint kind, double x, double y)
{
  if (kind == 0)
    return 128 + 45 * sin (0.21 * x + 0.07 * y) + 30 * sin (0.05 * x -
        0.17 * y) + 20 * cos (0.31 * y + 0.02 * x * x / 96);
  return 110 + 60 * sin (0.09 * x * y / 80) + 25 * cos (0.4 * x - 0.3 * y);
}

/* N_FRAMES frames of w x h, rows w bytes */
static guint8 *
make_clip (Clip clip, gint w, gint h, double sigma, guint64 seed)
{
  guint8 *f = g_malloc ((gsize) N_FRAMES * w * h);
  guint64 state = seed;
  gint t, x, y;

  for (t = 0; t < N_FRAMES; t++)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gsize i = ((gsize) t * h + y) * w + x;
        double v;

        switch (clip) {
          case CLIP_PAN:
            v = texture (0, x - 0.7 * t, y - 1.3 * t);
            break;
          case CLIP_PAN_WHOLE:
            v = texture (0, x - 3.0 * t, y + 2.0 * t);
            break;
          case CLIP_STILL:
            v = texture (1, x, y);
            break;
          case CLIP_CUT:
            v = texture (t < 3 ? 0 : 1, x, y);
            break;
          case CLIP_CUT_ALIKE:
            /* slow waves of other directions: on 96x80 the residual
             * across the cut has a mean square of 2.45-2.6 x 2 sigma^2 at
             * sigma 10 (under the mean-square test's 3) and less above,
             * its 3x3 mean 330-540 levels^2: only the low-frequency test
             * cuts, at sigma 10, 20 and 30 */
            v = t < 3 ? 120 + 30 * sin (0.05 * (x - 0.7 * t) + 0.03 * (y -
                    1.3 * t)) + 10 * sin (0.3 * (x - 0.7 * t)) : 120 +
                30 * sin (0.04 * (x + 0.9 * t) - 0.06 * (y - 0.4 * t) + 2) +
                10 * cos (0.27 * (y - 0.4 * t));
            break;
          case CLIP_FADE:
            v = (1.0 - 0.08 * t) * texture (0, x - 0.7 * t, y - 1.3 * t);
            break;
          case CLIP_FLASH:
            v = texture (0, x - 0.7 * t, y - 1.3 * t) + (t == 3 ? 60 : 0);
            break;
          default:
            f[i] = (guint8) cfx_test_splitmix64 (&state);
            continue;
        }
        f[i] = cfx_test_clip_u8 (v + sigma * cfx_test_gauss (&state));
      }
  return f;
}

/* ---- device frames ---------------------------------------------------- */

/* Frames of one component each in a pitched device buffer, padding
 * poisoned */
typedef struct
{
  gint w, h, pitch, bytes;
  guint8 *dev[N_FRAMES];
  CfxPlane plane[N_FRAMES];
} DevClip;

static void
dev_clip_upload8 (DevClip * d, const guint8 * frames, gint w, gint h)
{
  gsize size;
  guint8 *host;
  gint t, y;

  memset (d, 0, sizeof (*d));
  d->w = w;
  d->h = h;
  d->bytes = 1;
  d->pitch = w + PAD;
  size = (gsize) d->pitch * h;
  host = g_malloc (size);
  for (t = 0; t < N_FRAMES; t++) {
    memset (host, POISON, size);
    for (y = 0; y < h; y++)
      memcpy (host + (gsize) y * d->pitch, frames + ((gsize) t * h + y) * w,
          w);
    fail_unless_equals_int (cudaMalloc ((void **) &d->dev[t], size),
        cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (d->dev[t], host, size,
            cudaMemcpyHostToDevice), cudaSuccess);
    d->plane[t] = cfx_plane_8bit (d->dev[t], d->pitch, w, h, 1, 0);
  }
  g_free (host);
}

/* 10-bit words: the 8-bit clip times 4, at @shift, garbage elsewhere */
static void
dev_clip_upload10 (DevClip * d, const guint8 * frames, gint w, gint h,
    gint shift, guint64 seed)
{
  guint64 state = seed;
  guint16 *host;
  gsize size;
  gint t, x, y;

  memset (d, 0, sizeof (*d));
  d->w = w;
  d->h = h;
  d->bytes = 2;
  d->pitch = 2 * w + 2 * PAD;
  size = (gsize) d->pitch * h;
  host = g_malloc (size);
  for (t = 0; t < N_FRAMES; t++) {
    for (y = 0; y < h; y++)
      for (x = 0; x < d->pitch / 2; x++) {
        guint16 junk = (guint16) cfx_test_splitmix64 (&state) &
            ~(0x3FFu << shift);
        guint16 v = x < w ? frames[((gsize) t * h + y) * w + x] * 4 : 0;

        host[(gsize) y * (d->pitch / 2) + x] = (guint16) ((v << shift) |
            junk);
      }
    fail_unless_equals_int (cudaMalloc ((void **) &d->dev[t], size),
        cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (d->dev[t], host, size,
            cudaMemcpyHostToDevice), cudaSuccess);
    d->plane[t] = cfx_plane_8bit (d->dev[t], d->pitch, w, h, 2, 0);
    d->plane[t].bytes = 2;
    d->plane[t].depth = 10;
    d->plane[t].shift = shift;
  }
  g_free (host);
}

static void
dev_clip_free (DevClip * d)
{
  gint t;

  for (t = 0; t < N_FRAMES; t++)
    cudaFree (d->dev[t]);
}

/* Neighbours of frame t in a clip whose frame k is in slot k */
static CfxTemporalParams
params_at (const CfxPlane * const *frames, gint t, gint radius, float sigma)
{
  CfxTemporalParams p;
  gint k;

  memset (&p, 0, sizeof (p));
  for (k = 1; k <= radius && t - k >= 0; k++) {
    p.past[k - 1].frame = frames[t - k];
    p.past[k - 1].slot = t - k;
    p.n_past = k;
  }
  for (k = 1; k <= radius && t + k < N_FRAMES; k++) {
    p.future[k - 1].frame = frames[t + k];
    p.future[k - 1].slot = t + k;
    p.n_future = k;
  }
  p.sigma = sigma;
  return p;
}

/* The mean plane's samples, as 16-bit values (unused bits kept) */
static guint16 *
read_mean (CfxTemporalScratch * s, const CfxPlane * cur, gint n, gint c)
{
  CfxPlane planes[CFX_TEMPORAL_MAX_CHANNELS];
  gint w = cur[c].width, h = cur[c].height, x, y;
  guint8 *host;
  guint16 *out = g_malloc ((gsize) MAX (w * h, 1) * 2);

  cfx_temporal_mean_planes (s, cur, n, planes);
  fail_unless_equals_int (planes[c].width, w);
  fail_unless_equals_int (planes[c].step, planes[c].bytes);
  host = g_malloc ((gsize) planes[c].pitch * h);
  fail_unless_equals_int (cudaMemcpy (host, planes[c].data,
          (gsize) planes[c].pitch * h, cudaMemcpyDeviceToHost), cudaSuccess);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      out[y * w + x] = planes[c].bytes == 1 ?
          host[(gsize) y * planes[c].pitch + x] :
          ((guint16 *) (host + (gsize) y * planes[c].pitch))[x];
  g_free (host);
  return out;
}

static float
read_scale (CfxTemporalScratch * s)
{
  float v = -1.f;

  fail_unless_equals_int (cudaMemcpy (&v, cfx_temporal_noise_scale_device
          (s), sizeof (v), cudaMemcpyDeviceToHost), cudaSuccess);
  return v;
}

/* ---- 8-bit luma against the reference -------------------------------- */

typedef struct
{
  guint cases, frames, mean_diffs, out_max, out_diffs;
  double scale_err;
} Tally;

static void
luma_case (Clip clip, gint w, gint h, gint radius, float sigma, Tally * tally)
{
  guint8 *frames = make_clip (clip, w, h, clip == CLIP_RANDOM ? 0 : sigma,
      1000 + clip * 77 + w * 13 + h);
  const guint8 *fp[N_FRAMES];
  const CfxPlane *dp[N_FRAMES];
  CfxTemporalScratch *s = NULL;
  CfxDegrainScratch *ds = NULL;
  DevClip d;
  guint8 *ref = g_malloc ((gsize) w * h), *refout = g_malloc ((gsize) w * h);
  guint8 *ddst, *out;
  gsize dsize = (gsize) (w + PAD) * h;
  gint t, i;

  dev_clip_upload8 (&d, frames, w, h);
  for (t = 0; t < N_FRAMES; t++) {
    fp[t] = frames + (gsize) t * w * h;
    dp[t] = &d.plane[t];
  }
  fail_unless_equals_int (cfx_temporal_scratch_new (&s, 1, &w, &h, radius),
      cudaSuccess);
  fail_unless_equals_int (cfx_degrain_scratch_new (&ds, 1, &w, &h),
      cudaSuccess);
  fail_unless_equals_int (cudaMalloc ((void **) &ddst, dsize), cudaSuccess);
  out = g_malloc (dsize);
  for (t = 0; t < N_FRAMES; t++)
    fail_unless_equals_int (cfx_temporal_prepare (s, t, dp[t], 0),
        cudaSuccess);

  for (t = 0; t < N_FRAMES; t++) {
    CfxTemporalParams p = params_at (dp, t, radius, sigma);
    CfxDegrainParams dpar;
    CfxPlane mean, dst = cfx_plane_8bit (ddst, w + PAD, w, h, 1, 0);
    guint16 *got;
    float ref_sigma, scale;
    guint diffs = 0;

    fail_unless_equals_int (cfx_temporal_mean (dp[t], t, 1, &p, s, 0),
        cudaSuccess);
    ref_sigma = cfx_ref_temporal_mean (ref, fp, N_FRAMES, t, w, h, radius,
        sigma);
    got = read_mean (s, dp[t], 1, 0);
    for (i = 0; i < w * h; i++)
      if (got[i] != ref[i]) {
        if (diffs++ == 0)
          g_print ("%s %dx%d r%d s%g frame %d: mean (%d,%d) is %u, the "
              "reference %u\n", clip_names[clip], w, h, radius, sigma, t,
              i % w, i / w, got[i], ref[i]);
      }
    tally->mean_diffs += diffs;
    scale = read_scale (s);
    tally->scale_err = MAX (tally->scale_err, fabs (sigma * scale -
            ref_sigma) / sigma);
    g_free (got);

    /* the spatial stage, as cudadegrain runs it */
    memset (&dpar, 0, sizeof (dpar));
    dpar.shrink = CFX_DEGRAIN_WIENER;
    dpar.levels = 5;
    dpar.amount = 1.f;
    dpar.sigma[0] = sigma;
    dpar.strength[0] = 1.f;
    dpar.sigma_scale = cfx_temporal_noise_scale_device (s);
    cfx_temporal_mean_planes (s, dp[t], 1, &mean);
    fail_unless_equals_int (cudaMemset (ddst, POISON, dsize), cudaSuccess);
    fail_unless_equals_int (cfx_degrain (&dst, &mean, 1, &dpar, ds, 0),
        cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (out, ddst, dsize,
            cudaMemcpyDeviceToHost), cudaSuccess);
    cfx_ref_temporal_degrain (refout, fp, N_FRAMES, t, w, h, radius, sigma);
    for (i = 0; i < w * h; i++) {
      gint e = abs ((gint) out[(gsize) (i / w) * (w + PAD) + i % w] -
          refout[i]);

      tally->out_max = MAX (tally->out_max, (guint) e);
      tally->out_diffs += e != 0;
    }
    for (i = 0; i < h; i++)
      for (gint x = w; x < w + PAD; x++)
        fail_unless_equals_int (out[(gsize) i * (w + PAD) + x], POISON);
    tally->frames++;
  }
  tally->cases++;

  cfx_temporal_scratch_free (s);
  cfx_degrain_scratch_free (ds);
  cudaFree (ddst);
  dev_clip_free (&d);
  g_free (frames);
  g_free (ref);
  g_free (refout);
  g_free (out);
}

GST_START_TEST (test_luma_against_reference)
{
  static const gint sizes[][2] = { {96, 80}, {67, 45}, {33, 17}, {5, 3},
  {1, 1}
  };
  Tally tally = { 0 };
  gint c, z, r, si;

  for (c = 0; c < N_CLIPS; c++)
    for (z = 0; z < (gint) G_N_ELEMENTS (sizes); z++)
      for (r = 1; r <= CFX_TEMPORAL_MAX_RADIUS; r++)
        for (si = 1; si <= 3; si++)
          luma_case ((Clip) c, sizes[z][0], sizes[z][1], r, 10.f * si,
              &tally);
  g_print ("temporal mean, 8-bit luma: %u cases, %u frames: %u samples "
      "differ from the reference; noise scale within %.2g; after the "
      "spatial stage %u samples differ, by at most %u\n", tally.cases,
      tally.frames, tally.mean_diffs, tally.scale_err, tally.out_diffs,
      tally.out_max);
  fail_unless_equals_int (tally.mean_diffs, 0);
  fail_unless (tally.scale_err < 1e-4, "noise scale off by %g",
      tally.scale_err);
  fail_unless (tally.out_max <= 1, "spatial stage off by %u", tally.out_max);
}

GST_END_TEST;

/* ---- 10-bit words ----------------------------------------------------- */

static void
words_case (Clip clip, gint w, gint h, gint shift, guint * max_err)
{
  guint8 *frames = make_clip (clip, w, h, 10.0, 4242 + clip);
  const guint8 *fp[N_FRAMES];
  const CfxPlane *dp[N_FRAMES];
  CfxTemporalScratch *s = NULL;
  guint8 *ref = g_malloc ((gsize) w * h);
  DevClip d;
  gint t, i;

  dev_clip_upload10 (&d, frames, w, h, shift, 99 + shift);
  for (t = 0; t < N_FRAMES; t++) {
    fp[t] = frames + (gsize) t * w * h;
    dp[t] = &d.plane[t];
  }
  fail_unless_equals_int (cfx_temporal_scratch_new (&s, 1, &w, &h, 2),
      cudaSuccess);
  for (t = 0; t < N_FRAMES; t++)
    fail_unless_equals_int (cfx_temporal_prepare (s, t, dp[t], 0),
        cudaSuccess);
  for (t = 0; t < N_FRAMES; t++) {
    CfxTemporalParams p = params_at (dp, t, 2, 10.f);
    guint16 *got;

    fail_unless_equals_int (cfx_temporal_mean (dp[t], t, 1, &p, s, 0),
        cudaSuccess);
    cfx_ref_temporal_mean (ref, fp, N_FRAMES, t, w, h, 2, 10.f);
    got = read_mean (s, dp[t], 1, 0);
    for (i = 0; i < w * h; i++) {
      guint v = got[i] >> shift;

      fail_unless ((got[i] & ~(0x3FFu << shift)) == 0, "unused bits set "
          "in mean sample %d: 0x%04x", i, got[i]);
      *max_err = MAX (*max_err, (guint) abs ((gint) v - 4 * ref[i]));
    }
    g_free (got);
  }
  cfx_temporal_scratch_free (s);
  dev_clip_free (&d);
  g_free (frames);
  g_free (ref);
}

GST_START_TEST (test_words)
{
  guint max_err = 0;
  gint c;

  for (c = 0; c < N_CLIPS; c++) {
    words_case ((Clip) c, 67, 45, 0, &max_err);
    words_case ((Clip) c, 64, 48, 6, &max_err);
  }
  g_print ("temporal mean, 10-bit words (shift 0 and 6): at most %u codes "
      "from 4 x the 8-bit reference\n", max_err);
  fail_unless (max_err <= 2, "10-bit mean off by %u codes", max_err);
}

GST_END_TEST;

/* ---- chroma ----------------------------------------------------------- */

/* A still clip: flat luma (every vector 0: all costs are the bias, the
 * parabola symmetric; every weight 1), chroma noisy: planar 4:2:0 and
 * packed 4:2:2 (UYVY steps) against the plain rounded mean of the frames'
 * chroma */
static void
chroma_case (gboolean packed, gint w, gint h)
{
  gint cw = (w + 1) / 2, ch = packed ? h : (h + 1) / 2;
  gint widths[3] = { w, cw, cw }, heights[3] = { h, ch, ch };
  guint8 *host[N_FRAMES], *dev[N_FRAMES];
  CfxPlane planes[N_FRAMES][3];
  const CfxPlane *dp[N_FRAMES];
  CfxTemporalScratch *s = NULL;
  guint64 state = 7;
  gint pitch = packed ? 2 * w + PAD : w + PAD, t, c, x, y, bad = 0;
  gsize size = (gsize) pitch * (packed ? h : h + 2 * ch);

  for (t = 0; t < N_FRAMES; t++) {
    host[t] = g_malloc (size);
    memset (host[t], POISON, size);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        guint8 v = 100;

        if (packed)
          host[t][(gsize) y * pitch + 2 * x + 1] = v;
        else
          host[t][(gsize) y * pitch + x] = v;
      }
    for (c = 1; c < 3; c++)
      for (y = 0; y < ch; y++)
        for (x = 0; x < cw; x++) {
          guint8 v = cfx_test_clip_u8 (128 + 20 * sin (0.3 * x + c) +
              8 * cfx_test_gauss (&state));

          if (packed)
            host[t][(gsize) y * pitch + 4 * x + (c == 1 ? 0 : 2)] = v;
          else
            host[t][(gsize) (h + (c - 1) * ch + y) * pitch + x] = v;
        }
    fail_unless_equals_int (cudaMalloc ((void **) &dev[t], size),
        cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (dev[t], host[t], size,
            cudaMemcpyHostToDevice), cudaSuccess);
    if (packed) {
      planes[t][0] = cfx_plane_8bit (dev[t] + 1, pitch, w, h, 2, 1);
      planes[t][1] = cfx_plane_8bit (dev[t], pitch, cw, ch, 4, 0);
      planes[t][2] = cfx_plane_8bit (dev[t] + 2, pitch, cw, ch, 4, 2);
    } else {
      planes[t][0] = cfx_plane_8bit (dev[t], pitch, w, h, 1, 0);
      for (c = 1; c < 3; c++)
        planes[t][c] = cfx_plane_8bit (dev[t] + (gsize) (h + (c - 1) * ch) *
            pitch, pitch, cw, ch, 1, 0);
    }
    dp[t] = planes[t];
  }
  fail_unless_equals_int (cfx_temporal_scratch_new (&s, 3, widths, heights,
          3), cudaSuccess);
  for (t = 0; t < N_FRAMES; t++)
    fail_unless_equals_int (cfx_temporal_prepare (s, t, &planes[t][0], 0),
        cudaSuccess);

  for (t = 0; t < N_FRAMES; t++) {
    CfxTemporalParams p = params_at (dp, t, 3, 10.f);
    gint lo = MAX (t - 3, 0), hi = MIN (t + 3, N_FRAMES - 1);

    fail_unless_equals_int (cfx_temporal_mean (planes[t], t, 3, &p, s, 0),
        cudaSuccess);
    fail_unless (fabs (read_scale (s) - sqrt (1.0 / (hi - lo + 1))) < 1e-5,
        "still luma: noise scale %g, not 1 / sqrt %d", read_scale (s),
        hi - lo + 1);
    for (c = 0; c < 3; c++) {
      guint16 *got = read_mean (s, planes[t], 3, c);

      for (y = 0; y < heights[c]; y++)
        for (x = 0; x < widths[c]; x++) {
          double sum = 0;
          gint k, e;

          for (k = lo; k <= hi; k++) {
            gsize i = packed ? (gsize) y * pitch + (c == 0 ? 2 * x + 1 :
                4 * x + (c == 1 ? 0 : 2)) : c == 0 ? (gsize) y * pitch + x :
                (gsize) (h + (c - 1) * ch + y) * pitch + x;
            sum += host[k][i];
          }
          e = abs ((gint) got[y * widths[c] + x] - (gint) floor (sum /
                  (hi - lo + 1) + 0.5));
          if (e > 1 || (c == 0 && e > 0)) {
            if (bad++ < 5)
              g_print ("%s %dx%d frame %d component %d (%d,%d): %u, the "
                  "mean of frames %d..%d is %.2f\n", packed ? "packed" :
                  "planar", w, h, t, c, x, y, got[y * widths[c] + x], lo, hi,
                  sum / (hi - lo + 1));
          }
        }
      g_free (got);
    }
  }
  fail_unless_equals_int (bad, 0);
  cfx_temporal_scratch_free (s);
  for (t = 0; t < N_FRAMES; t++) {
    cudaFree (dev[t]);
    g_free (host[t]);
  }
}

GST_START_TEST (test_chroma_follows_luma)
{
  chroma_case (FALSE, 66, 46);
  chroma_case (FALSE, 67, 45);
  chroma_case (TRUE, 64, 48);
  chroma_case (TRUE, 67, 45);
}

GST_END_TEST;

/* ---- no noise, bad arguments ------------------------------------------ */

GST_START_TEST (test_sigma_zero_and_arguments)
{
  gint w = 40, h = 30, t = 3, i, big = 3;
  guint8 *frames = make_clip (CLIP_PAN, w, h, 10.0, 5);
  const CfxPlane *dp[N_FRAMES];
  CfxTemporalScratch *s = NULL;
  CfxTemporalParams p;
  DevClip d;
  guint16 *got;

  dev_clip_upload8 (&d, frames, w, h);
  for (i = 0; i < N_FRAMES; i++)
    dp[i] = &d.plane[i];
  fail_unless_equals_int (cfx_temporal_scratch_new (&s, 1, &w, &h, 2),
      cudaSuccess);
  for (i = 0; i < N_FRAMES; i++)
    fail_unless_equals_int (cfx_temporal_prepare (s, i, dp[i], 0),
        cudaSuccess);

  /* sigma 0: nothing is a match, the mean is the frame */
  p = params_at (dp, t, 2, 0.f);
  fail_unless_equals_int (cfx_temporal_mean (dp[t], t, 1, &p, s, 0),
      cudaSuccess);
  got = read_mean (s, dp[t], 1, 0);
  for (i = 0; i < w * h; i++)
    fail_unless_equals_int (got[i], frames[(gsize) t * w * h + i]);
  g_free (got);
  fail_unless_equals_float (read_scale (s), 1.f);

  /* refused: more neighbours than the radius, a slot out of range, a
   * frame of another size, a scratch of no radius */
  p = params_at (dp, t, 3, 10.f);
  fail_unless_equals_int (cfx_temporal_mean (dp[t], t, 1, &p, s, 0),
      cudaErrorInvalidValue);
  p = params_at (dp, t, 2, 10.f);
  p.past[0].slot = CFX_TEMPORAL_SLOTS;
  fail_unless_equals_int (cfx_temporal_mean (dp[t], t, 1, &p, s, 0),
      cudaErrorInvalidValue);
  fail_unless_equals_int (cfx_temporal_prepare (s, -1, dp[0], 0),
      cudaErrorInvalidValue);
  {
    CfxPlane other = d.plane[0];

    other.width = w - 1;
    fail_unless_equals_int (cfx_temporal_prepare (s, 0, &other, 0),
        cudaErrorInvalidValue);
    p = params_at (dp, t, 2, 10.f);
    p.future[1].frame = &other;
    fail_unless_equals_int (cfx_temporal_mean (dp[t], t, 1, &p, s, 0),
        cudaErrorInvalidValue);
  }
  {
    CfxTemporalScratch *none = NULL;

    fail_unless_equals_int (cfx_temporal_scratch_new (&none, 1, &w, &h, 0),
        cudaErrorInvalidValue);
    fail_unless_equals_int (cfx_temporal_scratch_new (&none, 1, &w, &h,
            CFX_TEMPORAL_MAX_RADIUS + 1), cudaErrorInvalidValue);
    fail_unless (none == NULL);
    (void) big;
  }
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  cfx_temporal_scratch_free (s);
  dev_clip_free (&d);
  g_free (frames);
}

GST_END_TEST;

static Suite *
degrain_temporal_suite (void)
{
  Suite *s = suite_create ("degrain-temporal");
  TCase *tc = cfx_test_tcase ("kernels");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_sigma_zero_and_arguments);
  tcase_add_test (tc, test_luma_against_reference);
  tcase_add_test (tc, test_words);
  tcase_add_test (tc, test_chroma_follows_luma);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "degrain-temporal", degrain_temporal_suite);
}
