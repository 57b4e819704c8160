/* Degrain: undecimated ("a trous") separable wavelet, per-band shrinkage,
 * plain sum (kernels/degrain.md). Plain loops, float bands like
 * the GPU; double only where it keeps the reference obviously correct
 * (impulse responses, window sums of w^2).
 *
 * Exact definition (the GPU must match it within 1 per 8-bit sample):
 *
 * Transform. One split of a signal x of n samples along one axis at radius
 * r = 1 << level, with x[i +- r] read at cfx_ref_mirror (i +- r, n):
 *     high = (x - (x[+r] + x[-r]) * 0.5f) * 0.5f
 *     low  = x - high
 * (float32, in exactly this order). Level l: split the current image (the
 * input for l = 0, else LL of level l-1) horizontally into L and H; split
 * L vertically into LL (low) and LH (high), H vertically into HL (low) and
 * HH (high). LH is thus horizontal low / vertical high, HL horizontal high
 * / vertical low. Every band has the image's size.
 *
 * Gains. gain(l, b) is the L2 norm of band b's response to a unit impulse
 * far from any border: the 1-D chain low_0 .. low_{l-1} followed by low_l
 * (giving a) or high_l (giving d), in double; LH and HL get |a| * |d|,
 * HH gets |d|^2 (the 2-D response is separable, so its norm is the
 * product of the 1-D norms).
 *
 * Shrinkage, applied to LH, HL and HH of every level 0 .. levels-1, each
 * band with its own level's gain, identically for soft and wiener:
 *     sigma_b = strength * sigma * gain(level, band)
 *   identity: w' = w.
 *   soft:     w' = sign(w) * max(|w| - sigma_b, 0)  (sigma_b 0: identity).
 *   wiener:   E  = mean of w^2 over the (2R+1)^2 window centred on the
 *                  coefficient, rows and columns read at cfx_ref_mirror
 *                  (not dilated: neighbours at distance 1 at every level),
 *             s2 = max(E - sigma_b^2, 0),
 *             w' = w * s2 / (s2 + sigma_b^2), and w' = w where
 *                  s2 + sigma_b^2 == 0 (then w is 0 anyway).
 *
 * Sum. acc = 0; for level 0 .. levels-1: acc = ((acc + LH') + HL') + HH';
 * result = acc + LL of the last level.
 *
 * 8-bit planes. in = the sample as float; blended = in + amount * (result
 * - in) (amount 0 gives in back exactly, 1 the result); output sample =
 * clip (roundf (blended), 0, 255), or with output_noise clip (roundf (in -
 * blended) + 128, 0, 255). roundf: nearest, halves away from zero.
 *
 * The GPU will use float32 throughout (E too) and may contract to FMA: the
 * result moves by ~1e-5, far inside the 1-per-sample tolerance, but a
 * rounding tie can flip, hence "within 1", not "equal". Reconstruction with
 * identity shrink is exact to < 1e-4 (measured max 7.6e-5 at 8 levels).
 *
 * Noise estimate (cfx_ref_degrain_estimate_sigma), integers until the very
 * end so that a GPU builds the same per-tile histograms:
 *   1. v(x, y) = |16 * HH0(x, y)| = |sum of [[1,-2,1],[-2,4,-2],[1,-2,1]]
 *      times the 3x3 neighbourhood of (x, y)|, rows and columns read at
 *      cfx_ref_mirror; an integer in 0 .. 2040 (8 * 255, also at the
 *      borders, where the mirrored mask is [2,-2] per axis). v is 0
 *      everywhere along an axis of size 1.
 *   2. v(x, y) is valid iff none of the 9 samples it reads is 0 or 255
 *      (clipped noise is not the noise we estimate: flat saturated areas
 *      would otherwise pass for the least noisy tiles).
 *   3. Tiles: per axis the tile size is t = min (32, n) and there are
 *      floor (n / t) tiles, anchored at 0; the rest (fewer than t samples at
 *      the right / bottom) is ignored. An image smaller than 32 on an axis
 *      has one tile spanning that axis, so every image has >= 1 tile.
 *   4. Per tile, with c = its number of valid v: the tile counts iff
 *      2 * c >= tw * th (at least half valid); its median m is then the
 *      lower median of its valid v, the element of 0-based rank (c - 1) / 2
 *      (integer division) in ascending order (rank 511 of 1024 for a full
 *      tile without clipping).
 *   5. No tile counts: sigma = 0. Else the N medians of the counting tiles,
 *      sorted ascending: M = the one at 0-based index
 *      k = (N - 1) / 10 (integer division), the 10th percentile.
 *   6. sigma = M / 16 / 0.6745 / gain(0, HH) * 1.07
 *            = M / 16 / 0.6745 / 0.375 * 1.07   (computed in double)
 *      1.07 undoes the downward bias of the 10th percentile of per-tile
 *      estimates (0.935 on pure noise, independent of sigma and of the
 *      number of tiles); see tests/reference/degrain-estimator.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

#define EST_TILE 32
#define EST_MAX_V 2047          /* 8 * 255 at 8 bits, up to 8 * 255.99 deeper */
#define EST_PERCENTILE_DEN 10   /* 10th percentile: k = (N - 1) / 10 */
#define EST_MAD_TO_SIGMA 0.6745 /* median |N(0,1)| */
#define EST_BIAS 1.07

/* ---- band gains from a unit impulse ------------------------------------ */

/* One 1-D split of a zero-padded signal; only used on impulse responses
 * whose support stays inside the buffer, so the padding is never read as
 * anything but the true zero outside the support. */
static void
split_1d_double (double *low, double *high, const double *x, int n, int r)
{
  int i;

  for (i = 0; i < n; i++) {
    double xp = i + r < n ? x[i + r] : 0.0;
    double xm = i - r >= 0 ? x[i - r] : 0.0;
    double hi = (x[i] - (xp + xm) * 0.5) * 0.5;

    high[i] = hi;
    low[i] = x[i] - hi;
  }
}

static double
norm2_1d (const double *x, int n)
{
  double s = 0.0;
  int i;

  for (i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

double
cfx_ref_degrain_band_gain (int level, int band)
{
  /* support radius of the chain up to `level` is 2^(level+1) - 1 */
  int n, l;
  double *x, *lo, *hi, na, nd, g;

  if (level < 0 || level > 15 || band < 0 || band > 2)
    return 0.0;

  n = 4 * (1 << level) + 1;
  x = calloc (n, sizeof (double));
  lo = calloc (n, sizeof (double));
  hi = calloc (n, sizeof (double));
  if (!x || !lo || !hi) {
    free (x);
    free (lo);
    free (hi);
    return 0.0;
  }

  x[n / 2] = 1.0;
  for (l = 0; l < level; l++) {
    split_1d_double (lo, hi, x, n, 1 << l);
    memcpy (x, lo, n * sizeof (double));
  }
  split_1d_double (lo, hi, x, n, 1 << level);
  na = norm2_1d (lo, n);
  nd = norm2_1d (hi, n);

  if (band == 2)
    g = nd;                     /* |d|^2 = sqrt (|d|^2 * |d|^2) */
  else
    g = sqrt (na * nd);

  free (x);
  free (lo);
  free (hi);
  return g;
}

/* ---- transform --------------------------------------------------------- */

static void
split_h (float *low, float *high, const float *x, int w, int h, int r)
{
  int i, y;

  for (y = 0; y < h; y++) {
    const float *row = x + (long) y * w;

    for (i = 0; i < w; i++) {
      float xp = row[cfx_ref_mirror (i + r, w)];
      float xm = row[cfx_ref_mirror (i - r, w)];
      float hi = (row[i] - (xp + xm) * 0.5f) * 0.5f;

      high[(long) y * w + i] = hi;
      low[(long) y * w + i] = row[i] - hi;
    }
  }
}

static void
split_v (float *low, float *high, const float *x, int w, int h, int r)
{
  int i, y;

  for (y = 0; y < h; y++) {
    const float *rp = x + (long) cfx_ref_mirror (y + r, h) * w;
    const float *rm = x + (long) cfx_ref_mirror (y - r, h) * w;
    const float *row = x + (long) y * w;

    for (i = 0; i < w; i++) {
      float hi = (row[i] - (rp[i] + rm[i]) * 0.5f) * 0.5f;

      high[(long) y * w + i] = hi;
      low[(long) y * w + i] = row[i] - hi;
    }
  }
}

/* ---- shrinkage --------------------------------------------------------- */

static void
shrink_soft (float *b, long n, float sb)
{
  long i;

  for (i = 0; i < n; i++) {
    float a = fabsf (b[i]) - sb;

    if (a <= 0.0f)
      b[i] = 0.0f;
    else
      b[i] = b[i] < 0.0f ? -a : a;
  }
}

/* tmp: w * h doubles of scratch */
static void
shrink_wiener (float *b, int w, int h, float sb, int radius, double *tmp)
{
  double sb2 = (double) sb * sb;
  double count = (double) (2 * radius + 1) * (2 * radius + 1);
  int x, y, d;

  /* horizontal window sums of w^2 */
  for (y = 0; y < h; y++) {
    const float *row = b + (long) y * w;

    for (x = 0; x < w; x++) {
      double s = 0.0;

      for (d = -radius; d <= radius; d++) {
        double v = row[cfx_ref_mirror (x + d, w)];

        s += v * v;
      }
      tmp[(long) y * w + x] = s;
    }
  }

  /* vertical window sums, then the Wiener gain; a row's gains need only
   * tmp, never the already shrunk coefficients, so in place is fine */
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      double s = 0.0, e, s2;

      for (d = -radius; d <= radius; d++)
        s += tmp[(long) cfx_ref_mirror (y + d, h) * w + x];
      e = s / count;
      s2 = e - sb2 > 0.0 ? e - sb2 : 0.0;
      if (s2 + sb2 > 0.0)
        b[(long) y * w + x] = (float) (b[(long) y * w + x] * (s2 / (s2 + sb2)));
    }
  }
}

static void
shrink_band (float *b, int w, int h, const CfxRefDegrainParams * p,
    int level, int band, double *tmp)
{
  float sb = (float) ((double) p->strength * p->sigma *
      cfx_ref_degrain_band_gain (level, band));

  switch (p->shrink) {
    case CFX_REF_SHRINK_SOFT:
      shrink_soft (b, (long) w * h, sb);
      break;
    case CFX_REF_SHRINK_WIENER:
      shrink_wiener (b, w, h, sb, p->wiener_radius > 0 ? p->wiener_radius : 0,
          tmp);
      break;
    case CFX_REF_SHRINK_IDENTITY:
    default:
      break;
  }
}

void
cfx_ref_degrain_float (float *out, const float *in, int w, int h,
    const CfxRefDegrainParams * p)
{
  long n = (long) w * h, i;
  float *cur, *lo, *hi, *ll, *band[3], *acc;
  double *tmp;
  int level, b;

  if (w <= 0 || h <= 0)
    return;

  cur = malloc (n * sizeof (float));
  lo = malloc (n * sizeof (float));
  hi = malloc (n * sizeof (float));
  ll = malloc (n * sizeof (float));
  band[0] = malloc (n * sizeof (float));
  band[1] = malloc (n * sizeof (float));
  band[2] = malloc (n * sizeof (float));
  acc = calloc (n, sizeof (float));
  tmp = malloc (n * sizeof (double));
  if (!cur || !lo || !hi || !ll || !band[0] || !band[1] || !band[2] || !acc
      || !tmp)
    goto done;

  memcpy (cur, in, n * sizeof (float));
  for (level = 0; level < p->levels; level++) {
    int r = 1 << level;
    float *t;

    split_h (lo, hi, cur, w, h, r);
    split_v (ll, band[0], lo, w, h, r);      /* LL, LH */
    split_v (band[1], band[2], hi, w, h, r); /* HL, HH */

    for (b = 0; b < 3; b++)
      shrink_band (band[b], w, h, p, level, b, tmp);
    for (i = 0; i < n; i++)
      acc[i] = ((acc[i] + band[0][i]) + band[1][i]) + band[2][i];

    t = cur;
    cur = ll;
    ll = t;
  }
  for (i = 0; i < n; i++)
    out[i] = acc[i] + cur[i];

done:
  free (cur);
  free (lo);
  free (hi);
  free (ll);
  free (band[0]);
  free (band[1]);
  free (band[2]);
  free (acc);
  free (tmp);
}

/* ---- planes of any depth ---------------------------------------------- */

/* A plane of 8-bit samples (d8) or of depth-bit samples in 16-bit words
 * (d16), read in 8-bit units: v / 2^(depth - 8), exact in float */
typedef struct
{
  const uint8_t *d8;
  const uint16_t *d16;
  int stride;                   /* in samples */
  int width, height, depth;
} AnyPlane;

static AnyPlane
any_plane8 (const CfxRefPlane * p)
{
  AnyPlane a = { p->data, NULL, p->stride, p->width, p->height, 8 };

  return a;
}

static AnyPlane
any_plane16 (const CfxRefPlane16 * p, int depth)
{
  AnyPlane a = { NULL, p->data, p->stride, p->width, p->height, depth };

  return a;
}

static int
sample_at (const AnyPlane * p, int x, int y)
{
  long i = (long) y * p->stride + x;

  return p->d8 ? p->d8[i] : p->d16[i];
}

/* One output sample from the input a and the transform's result r (8-bit
 * units): blended, back to the sample's units (times 2^(depth - 8)),
 * rounded to nearest, clipped to 0 .. max */
static float
output_value (float a, float r, const CfxRefDegrainParams * p, float scale,
    float max)
{
  float blended = a + p->amount * (r - a);
  float o = p->output_noise ? roundf ((a - blended) * scale) + 128.0f * scale
      : roundf (blended * scale);

  return o < 0.0f ? 0.0f : (o > max ? max : o);
}

/* The degrain of @src into dst8 or dst16 (stride in samples) */
static void
degrain_any (uint8_t * dst8, uint16_t * dst16, int dst_stride,
    const AnyPlane * src, const CfxRefDegrainParams * p)
{
  int w = src->width, h = src->height, x, y;
  long n = (long) w * h;
  float to8 = ldexpf (1.0f, 8 - src->depth);
  float scale = ldexpf (1.0f, src->depth - 8);
  float max = (float) ((1 << src->depth) - 1);
  float *in, *res;

  if (w <= 0 || h <= 0)
    return;

  in = malloc (n * sizeof (float));
  res = malloc (n * sizeof (float));
  if (!in || !res) {
    free (in);
    free (res);
    return;
  }

  /* read everything first: dst may be src */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      in[(long) y * w + x] = sample_at (src, x, y) * to8;

  cfx_ref_degrain_float (res, in, w, h, p);

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      long i = (long) y * w + x, o = (long) y * dst_stride + x;
      float v = output_value (in[i], res[i], p, scale, max);

      if (dst8)
        dst8[o] = (uint8_t) v;
      else
        dst16[o] = (uint16_t) v;
    }
  }

  free (in);
  free (res);
}

void
cfx_ref_degrain_plane (const CfxRefPlane * dst, const CfxRefPlane * src,
    const CfxRefDegrainParams * p)
{
  AnyPlane a = any_plane8 (src);

  degrain_any (dst->data, NULL, dst->stride, &a, p);
}

void
cfx_ref_degrain_plane16 (const CfxRefPlane16 * dst,
    const CfxRefPlane16 * src, int depth, const CfxRefDegrainParams * p)
{
  AnyPlane a = any_plane16 (src, depth);

  degrain_any (NULL, dst->data, dst->stride, &a, p);
}

/* ---- noise estimate ---------------------------------------------------- */

static int
cmp_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

/* |16 * HH0| at (x, y) in 8-bit units, rounded: the 3x3 mask [1,-2,1] x
 * [1,-2,1], mirror borders; -1 if any of the 9 samples read is clipped (0
 * or the depth's maximum) */
static int
hh0_abs16 (const AnyPlane * src, int x, int y)
{
  static const int k[3] = { 1, -2, 1 };
  const int max = (1 << src->depth) - 1;
  int s = 0, clipped = 0, i, j;

  for (j = -1; j <= 1; j++) {
    for (i = -1; i <= 1; i++) {
      int p = sample_at (src, cfx_ref_mirror (x + i, src->width),
          cfx_ref_mirror (y + j, src->height));

      if (p == 0 || p == max)
        clipped = 1;
      s += k[j + 1] * k[i + 1] * p;
    }
  }
  if (clipped)
    return -1;
  if (s < 0)
    s = -s;
  /* in 8-bit units, rounded to nearest (exact at 8 bits) */
  if (src->depth > 8)
    s = (s + (1 << (src->depth - 9))) >> (src->depth - 8);
  return s < EST_MAX_V ? s : EST_MAX_V;
}

static float
estimate_sigma (const AnyPlane * src)
{
  int w = src->width, h = src->height;
  int tw, th, ntx, nty, ntiles, n, tx, ty, x, y, v, c, rank, cum, m;
  int *hist, *med;
  double sigma = 0.0;

  if (w <= 0 || h <= 0)
    return 0.0f;

  tw = w < EST_TILE ? w : EST_TILE;
  th = h < EST_TILE ? h : EST_TILE;
  ntx = w / tw;
  nty = h / th;
  ntiles = ntx * nty;

  hist = malloc ((EST_MAX_V + 1) * sizeof (int));
  med = malloc (ntiles * sizeof (int));
  if (!hist || !med) {
    free (hist);
    free (med);
    return 0.0f;
  }

  n = 0;
  for (ty = 0; ty < nty; ty++) {
    for (tx = 0; tx < ntx; tx++) {
      memset (hist, 0, (EST_MAX_V + 1) * sizeof (int));
      c = 0;
      for (y = ty * th; y < (ty + 1) * th; y++) {
        for (x = tx * tw; x < (tx + 1) * tw; x++) {
          v = hh0_abs16 (src, x, y);
          if (v >= 0) {
            hist[v]++;
            c++;
          }
        }
      }
      if (2 * c < tw * th)
        continue;

      /* lower median: the smallest v with more than rank values <= v */
      rank = (c - 1) / 2;
      cum = 0;
      m = EST_MAX_V;
      for (v = 0; v <= EST_MAX_V; v++) {
        cum += hist[v];
        if (cum > rank) {
          m = v;
          break;
        }
      }
      med[n++] = m;
    }
  }

  if (n > 0) {
    qsort (med, n, sizeof (int), cmp_int);
    m = med[(n - 1) / EST_PERCENTILE_DEN];
    sigma = m / 16.0 / EST_MAD_TO_SIGMA / cfx_ref_degrain_band_gain (0, 2)
        * EST_BIAS;
  }

  free (hist);
  free (med);
  return (float) sigma;
}

float
cfx_ref_degrain_estimate_sigma (const CfxRefPlane * src)
{
  AnyPlane a = any_plane8 (src);

  return estimate_sigma (&a);
}

float
cfx_ref_degrain_estimate_sigma16 (const CfxRefPlane16 * src, int depth)
{
  AnyPlane a = any_plane16 (src, depth);

  return estimate_sigma (&a);
}
