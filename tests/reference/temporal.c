/* Temporal degrain, the CPU reference of the motion-compensated denoiser
 * the GPU runs (kernels/temporal.cu; kernels/temporal.md has the plan and
 * its costs). Plain loops on 8-bit luma frames, no claim to speed.
 *
 * For output frame t and radius R (neighbours s = t - R .. t + R inside
 * the clip, s != t):
 *
 *  1. Motion is estimated on smoothed frames: noise in the matching costs
 *     would pull the vectors. The search image of a frame is the sum of
 *     its 3x3 window (mirrored borders: nine times the 3x3 mean, kept in
 *     integers so that every cost below is exact and any summation order
 *     gives the same vectors). Pyramid: levels 0 (full size), 1, 2 by 2x2
 *     sums (an odd last row or column pairs with its mirror). One vector
 *     per 8x8 block of each level (a level-l block covers 8 << l
 *     full-size pixels), coarse to fine:
 *       level 2: full search +-SEARCH2 (+-4 samples: +-16 full-size px);
 *       levels 1, 0: candidates (the vector of the block's parent, doubled;
 *       the parents of its 4-neighbours, doubled; zero), the best refined
 *       by +-1 integer steps while it improves (at most 4 steps).
 *     Cost: SAD over the block, the neighbour's samples at the block's
 *     position plus the vector (mirrored borders), plus a bias toward the
 *     zero vector of LAMBDA * (|vx| + |vy|) per pixel of the block, in
 *     units of the 3x3 mean (times 9 * 4^level in the sums): a flat or
 *     noisy block keeps vector 0. Ties keep the earlier candidate.
 *     Sub-pixel: at level 0 each axis's offset is refined by the parabola
 *     through the costs at v - 1, v, v + 1 (clamped to +-0.5).
 *  2. The noisy neighbour s is warped to t's grid with each block's vector
 *     (Catmull-Rom bicubic, mirrored borders): W_s(x) = s(x + v(block(x))).
 *  3. Brightness: m_t, v_t and m_s, v_s are the means and variances (mean
 *     of squares minus squared mean, doubles, from integer sums: exact in
 *     any order) of the integer samples of frames t and s, not warped.
 *     A neighbour whose mean is more than BRIGHT_SKIP (30) levels from
 *     t's is skipped: not used, but the frames beyond it on its side are
 *     still tried (a flash frame; a cut to a much brighter or darker shot
 *     skips each of that shot's frames the same way). Any other is
 *     matched to t's mean and spread, a gain and an offset:
 *     M_s(x) = g W_s(x) + o (float, product then sum), g = sqrt (v_t /
 *     v_s) (1 where v_s is under 1/16), o = m_t - g m_s (doubles, each
 *     then rounded to float). M_s is what the tests below see and what
 *     is weighted and averaged: a fade no longer looks like another shot,
 *     and a neighbour's brightness no longer biases the mean. (The
 *     unwarped frames' statistics, not W_s's: the warp's interpolation
 *     smooths noise and fine texture, which biased a gain taken from W_s
 *     upwards, 4% at sigma 10 on a smooth pan, more on the flash and
 *     fade clips; both frames hold the same noise.)
 *  4. Scene cuts: with D = M_s - t,
 *       mse = mean over the frame of lrintf (16 D)^2 / 256,
 *       low = mean over the frame of lrintf (16 S)^2 / (256 * 81), S the
 *             sum of D over the 3x3 window (mirrored borders; row by row,
 *             left to right): the squared 3x3 mean of the residual,
 *     s is another shot when mse > 3 x 2 sigma^2 (two noisy views of one
 *     picture differ by 2 sigma^2) or when low > 2 x 2 sigma^2 / 9 (the
 *     noise's share of the 3x3 mean) and low > 200 levels^2 (fine
 *     texture that the vectors miss by a fraction of a pixel stays under
 *     it at every sigma; another shot's content does not average out of
 *     the 3x3 mean however well the search matched its noise). Such a
 *     neighbour and the frames beyond it on its side are left out
 *     (neighbours are taken outward from t).
 *     Robust weight of each matched sample: e = mean of (M_s - t)^2 over
 *     the 3x3 window around x, r = e / (2 sigma^2); w = 1 for r <= 1.5,
 *     0 for r >= 4, linear between: occlusions and failed vectors drop
 *     out locally.
 *  5. Temporal mean: A(x) = (t(x) + sum_s w_s M_s(x)) / (1 + sum_s w_s),
 *     rounded to the sample grid (to nearest, clipped), and its noise
 *     variance sigma^2 (1 + sum w_s^2) / (1 + sum w_s)^2 (independent
 *     noise; the warp's interpolation is not counted).
 *  6. The spatial degrain (cfx_ref_degrain_plane, Wiener, 5 levels) of A
 *     with sigma = sigma times the root of the mean of that variance over
 *     the frame: the spatial stage is fed the noise the temporal stage
 *     left.
 * Sigma: given, or estimated on frame t (cfx_ref_degrain_estimate_sigma).
 * Radius 0: the spatial degrain alone.
 *
 * History: a first version searched motion on each frame's spatial
 * degrain; the 3x3 window costs 0.05 to 0.35 dB on the quality clips
 * (kernels/temporal.md) and saves a degrain per frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

#define BLOCK 8
#define LEVELS 3
#define SEARCH2 4
#define LAMBDA 1
#define MAX_REFINE 4
/* a neighbour whose matched frame differs from the current one by more
 * than this many times two noisy views' 2 sigma^2 (mean over the frame)
 * is another shot */
#define CUT_RATIO 3.0
/* ... and one whose residual's squared 3x3 mean is over this many times
 * the noise's share of it (2 sigma^2 / 9) and over LOW_FLOOR levels^2 */
#define LOW_RATIO 2.0
#define LOW_FLOOR 200.0
/* the cut tests' sums are of values rounded to 1/STAT_SCALE */
#define STAT_SCALE 16.0f
/* a neighbour whose frame mean is further than this from the current
 * one's (levels) is skipped, not matched */
#define BRIGHT_SKIP 30.0

/* what add_neighbour did with a neighbour */
typedef enum
{
  NB_ADDED,
  NB_SKIPPED,                   /* brightness: the side goes on */
  NB_OTHER_SHOT                 /* the side ends */
} NbResult;

#define CLAMP_TO(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

typedef struct
{
  float *data;
  int w, h;
} Image;

typedef struct
{
  int x, y;                     /* integer vector, in the level's samples */
} Vec;

/* a search image: sums of 3x3 windows (level 0) and of 2x2 of those */
typedef struct
{
  int *data;
  int w, h;
} IImage;

static void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size ? size : 1);

  if (!p)
    abort ();
  return p;
}

static float
at (const Image * im, int x, int y)
{
  return im->data[(size_t) cfx_ref_mirror (y, im->h) * im->w +
      cfx_ref_mirror (x, im->w)];
}

static int
iat (const IImage * im, int x, int y)
{
  return im->data[(size_t) cfx_ref_mirror (y, im->h) * im->w +
      cfx_ref_mirror (x, im->w)];
}

static Image
image_new (int w, int h)
{
  Image im = { xcalloc ((size_t) w * h, sizeof (float)), w, h };
  return im;
}

static IImage
iimage_new (int w, int h)
{
  IImage im = { xcalloc ((size_t) w * h, sizeof (int)), w, h };
  return im;
}

/* Level 0 of the search: each sample's 3x3 window summed */
static IImage
box3 (const uint8_t * frame, int w, int h)
{
  IImage b = iimage_new (w, h);
  int x, y, dx, dy;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int sum = 0;

      for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++)
          sum += frame[(size_t) cfx_ref_mirror (y + dy, h) * w +
              cfx_ref_mirror (x + dx, w)];
      b.data[(size_t) y * w + x] = sum;
    }
  return b;
}

/* 2x2 sums (an odd last row or column pairs with its mirror) */
static IImage
downsample (const IImage * im)
{
  IImage d = iimage_new ((im->w + 1) / 2, (im->h + 1) / 2);
  int x, y;

  for (y = 0; y < d.h; y++)
    for (x = 0; x < d.w; x++)
      d.data[(size_t) y * d.w + x] = iat (im, 2 * x, 2 * y) +
          iat (im, 2 * x + 1, 2 * y) + iat (im, 2 * x, 2 * y + 1) +
          iat (im, 2 * x + 1, 2 * y + 1);
  return d;
}

/* SAD of block (bx, by) of @cur against @ref displaced by (vx, vy), plus
 * the zero-vector bias; @unit is the level's 9 * 4^level */
static int
block_cost (const IImage * cur, const IImage * ref, int bx, int by, int vx,
    int vy, int unit)
{
  int x, y, n = 0, sad = 0;

  for (y = by * BLOCK; y < (by + 1) * BLOCK && y < cur->h; y++)
    for (x = bx * BLOCK; x < (bx + 1) * BLOCK && x < cur->w; x++, n++)
      sad += abs (cur->data[(size_t) y * cur->w + x] -
          iat (ref, x + vx, y + vy));
  return sad + LAMBDA * unit * n * (abs (vx) + abs (vy));
}

/* One level's vectors: from @parent (the coarser level's, or NULL: full
 * search) */
static Vec *
match_level (const IImage * cur, const IImage * ref, const Vec * parent,
    int pbw, int pbh, int unit, int *out_bw, int *out_bh)
{
  int bw = (cur->w + BLOCK - 1) / BLOCK, bh = (cur->h + BLOCK - 1) / BLOCK;
  Vec *v = xcalloc ((size_t) bw * bh, sizeof (Vec));
  int bx, by;

  for (by = 0; by < bh; by++)
    for (bx = 0; bx < bw; bx++) {
      Vec best = { 0, 0 };
      int cost = block_cost (cur, ref, bx, by, 0, 0, unit);
      int i, step;

      if (!parent) {
        int dx, dy;

        for (dy = -SEARCH2; dy <= SEARCH2; dy++)
          for (dx = -SEARCH2; dx <= SEARCH2; dx++) {
            int c = block_cost (cur, ref, bx, by, dx, dy, unit);

            if (c < cost) {
              cost = c;
              best.x = dx;
              best.y = dy;
            }
          }
      } else {
        /* the parent block and its 4-neighbours' parents, doubled */
        const int nx[5] = { 0, -1, 1, 0, 0 }, ny[5] = { 0, 0, 0, -1, 1 };

        for (i = 0; i < 5; i++) {
          int px = CLAMP_TO (bx / 2 + nx[i], 0, pbw - 1);
          int py = CLAMP_TO (by / 2 + ny[i], 0, pbh - 1);
          Vec c = { 2 * parent[py * pbw + px].x, 2 * parent[py * pbw + px].y };
          int cc = block_cost (cur, ref, bx, by, c.x, c.y, unit);

          if (cc < cost) {
            cost = cc;
            best = c;
          }
        }
      }
      /* +-1 steps while they improve */
      for (step = 0; step < MAX_REFINE; step++) {
        const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
        Vec from = best;

        for (i = 0; i < 4; i++) {
          int c = block_cost (cur, ref, bx, by, from.x + dx[i],
              from.y + dy[i], unit);

          if (c < cost) {
            cost = c;
            best.x = from.x + dx[i];
            best.y = from.y + dy[i];
          }
        }
        if (best.x == from.x && best.y == from.y)
          break;
      }
      v[(size_t) by * bw + bx] = best;
    }
  *out_bw = bw;
  *out_bh = bh;
  return v;
}

/* Offset of the parabola's minimum through costs at -1, 0, +1 */
static float
parabola (int cm, int c0, int cp)
{
  int den = cm - 2 * c0 + cp;

  if (den <= 0)
    return 0.0f;
  return CLAMP_TO (0.5f * (float) (cm - cp) / (float) den, -0.5f, 0.5f);
}

/* Catmull-Rom weights for fraction f */
static void
catmull_rom (float f, float w[4])
{
  float f2 = f * f, f3 = f2 * f;

  w[0] = 0.5f * (-f3 + 2.0f * f2 - f);
  w[1] = 0.5f * (3.0f * f3 - 5.0f * f2 + 2.0f);
  w[2] = 0.5f * (-3.0f * f3 + 4.0f * f2 + f);
  w[3] = 0.5f * (f3 - f2);
}

static float
bicubic (const Image * im, float x, float y)
{
  int ix = (int) floorf (x), iy = (int) floorf (y), i, j;
  float wx[4], wy[4], sum = 0.0f;

  catmull_rom (x - ix, wx);
  catmull_rom (y - iy, wy);
  for (j = 0; j < 4; j++) {
    float row = 0.0f;

    for (i = 0; i < 4; i++)
      row += wx[i] * at (im, ix - 1 + i, iy - 1 + j);
    sum += wy[j] * row;
  }
  return sum;
}

/* Vectors (full-size pixels, sub-pixel) of every 8x8 block of @cur
 * against @ref (level-0 search images); *bw x *bh blocks */
static float *
estimate_motion (const IImage * cur, const IImage * ref, int *bw, int *bh)
{
  IImage pc[LEVELS], pr[LEVELS];
  Vec *v = NULL;
  float *out;
  int l, pbw = 0, pbh = 0, b;

  pc[0] = *cur;
  pr[0] = *ref;
  for (l = 1; l < LEVELS; l++) {
    pc[l] = downsample (&pc[l - 1]);
    pr[l] = downsample (&pr[l - 1]);
  }
  for (l = LEVELS - 1; l >= 0; l--) {
    int nbw, nbh;
    Vec *nv = match_level (&pc[l], &pr[l], v, pbw, pbh, 9 << (2 * l), &nbw,
        &nbh);

    free (v);
    v = nv;
    pbw = nbw;
    pbh = nbh;
  }
  for (l = 1; l < LEVELS; l++) {
    free (pc[l].data);
    free (pr[l].data);
  }

  out = xcalloc ((size_t) 2 * pbw * pbh, sizeof (float));
  for (b = 0; b < pbw * pbh; b++) {
    int bx = b % pbw, by = b / pbw;
    int c0 = block_cost (cur, ref, bx, by, v[b].x, v[b].y, 9);

    out[2 * b] = v[b].x + parabola (block_cost (cur, ref, bx, by, v[b].x - 1,
            v[b].y, 9), c0, block_cost (cur, ref, bx, by, v[b].x + 1, v[b].y,
            9));
    out[2 * b + 1] = v[b].y + parabola (block_cost (cur, ref, bx, by, v[b].x,
            v[b].y - 1, 9), c0, block_cost (cur, ref, bx, by, v[b].x,
            v[b].y + 1, 9));
  }
  free (v);
  *bw = pbw;
  *bh = pbh;
  return out;
}

static Image
image_from_plane (const uint8_t * data, int w, int h)
{
  Image im = image_new (w, h);
  size_t i;

  for (i = 0; i < (size_t) w * h; i++)
    im.data[i] = data[i];
  return im;
}

/* A frame's brightness: the mean and variance of its samples */
typedef struct
{
  double mean, var;
} Stats;

/* of @npix integer samples (the sums are exact in any order) */
static Stats
plane_stats (const uint8_t * data, size_t npix)
{
  int64_t sum = 0, sum2 = 0;
  Stats st;
  size_t i;

  for (i = 0; i < npix; i++) {
    sum += data[i];
    sum2 += (int64_t) data[i] * data[i];
  }
  st.mean = (double) sum / (double) npix;
  st.var = (double) sum2 / (double) npix - st.mean * st.mean;
  if (st.var < 0.0)
    st.var = 0.0;
  return st;
}

/* Gain and offset that give @from the mean and spread of @to */
static void
match_gain (const Stats * to, const Stats * from, float *gain, float *offset)
{
  double g = from->var >= 1.0 / 16.0 ? sqrt (to->var / from->var) : 1.0;

  *gain = (float) g;
  *offset = (float) (to->mean - g * from->mean);
}

/* Warps neighbour @frame onto @cur, matches its brightness to @cur's
 * (@cur_stats) and adds it with its robust weights, or skips it (its
 * brightness) or finds it another shot (the header's steps 3 and 4) */
static NbResult
add_neighbour (Image * acc, Image * wsum, Image * w2sum, const Image * cur,
    const Stats * cur_stats, const IImage * search_cur,
    const uint8_t * frame, float sigma)
{
  const int w = cur->w, h = cur->h;
  const size_t npix = (size_t) w * h;
  const float noise2 = 2.0f * sigma * sigma;
  Image nb = image_from_plane (frame, w, h), warped, diff;
  IImage search_nb = box3 (frame, w, h);
  int64_t dsum2 = 0, lowsum2 = 0;
  Stats nb_stats = plane_stats (frame, npix);
  float *vec, gain, offset;
  double mse, low;
  int bw, bh, x, y;
  size_t i;

  if (fabs (cur_stats->mean - nb_stats.mean) > BRIGHT_SKIP) {
    free (nb.data);
    free (search_nb.data);
    return NB_SKIPPED;
  }
  vec = estimate_motion (search_cur, &search_nb, &bw, &bh);
  warped = image_new (w, h);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const float *v = &vec[2 * ((size_t) (y / BLOCK) * bw + x / BLOCK)];

      warped.data[(size_t) y * w + x] = bicubic (&nb, x + v[0], y + v[1]);
    }
  free (nb.data);
  free (search_nb.data);
  free (vec);

  match_gain (cur_stats, &nb_stats, &gain, &offset);
  diff = image_new (w, h);
  for (i = 0; i < npix; i++) {
    long q;

    warped.data[i] = gain * warped.data[i] + offset;
    diff.data[i] = warped.data[i] - cur->data[i];
    q = lrintf (diff.data[i] * STAT_SCALE);
    dsum2 += (int64_t) q * q;
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float s9 = 0.0f;
      long q;
      int dx, dy;

      for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++)
          s9 += at (&diff, x + dx, y + dy);
      q = lrintf (s9 * STAT_SCALE);
      lowsum2 += (int64_t) q * q;
    }
  mse = (double) dsum2 / (double) npix / (STAT_SCALE * STAT_SCALE);
  low = (double) lowsum2 / (double) npix / (STAT_SCALE * STAT_SCALE * 81.0);
  if (mse > CUT_RATIO * noise2 || (low > LOW_RATIO * noise2 / 9.0
          && low > LOW_FLOOR)) {
    free (warped.data);
    free (diff.data);
    return NB_OTHER_SHOT;
  }

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float e = 0.0f, r, wt;
      int dx, dy;

      for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++) {
          float d = at (&diff, x + dx, y + dy);

          e += d * d;
        }
      r = e / 9.0f / noise2;
      wt = r <= 1.5f ? 1.0f : r >= 4.0f ? 0.0f : (4.0f - r) / 2.5f;
      acc->data[(size_t) y * w + x] += wt * warped.data[(size_t) y * w + x];
      wsum->data[(size_t) y * w + x] += wt;
      w2sum->data[(size_t) y * w + x] += wt * wt;
    }
  free (warped.data);
  free (diff.data);
  return NB_ADDED;
}

float
cfx_ref_temporal_mean (uint8_t * mean, const uint8_t * const *frames, int n,
    int t, int w, int h, int radius, float sigma)
{
  Image cur, acc, wsum, w2sum;
  IImage search_cur;
  Stats cur_stats;
  double var_sum = 0.0;
  size_t i, npix = (size_t) w * h;
  int side, k;

  cur = image_from_plane (frames[t], w, h);
  cur_stats = plane_stats (frames[t], npix);
  search_cur = box3 (frames[t], w, h);
  acc = image_new (w, h);
  wsum = image_new (w, h);
  w2sum = image_new (w, h);
  memcpy (acc.data, cur.data, npix * sizeof (float));

  /* outward on each side: a neighbour that is another shot ends its side
   * (what lies beyond it is that shot too) */
  for (side = -1; side <= 1; side += 2)
    for (k = 1; k <= radius && sigma > 0.0f; k++) {
      const int s = t + side * k;

      if (s < 0 || s >= n || add_neighbour (&acc, &wsum, &w2sum, &cur,
              &cur_stats, &search_cur, frames[s], sigma) == NB_OTHER_SHOT)
        break;
    }

  for (i = 0; i < npix; i++) {
    float norm = 1.0f + wsum.data[i], v = floorf (acc.data[i] / norm + 0.5f);

    mean[i] = (uint8_t) (v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
    var_sum += (1.0f + w2sum.data[i]) / (norm * norm);
  }
  free (cur.data);
  free (search_cur.data);
  free (acc.data);
  free (wsum.data);
  free (w2sum.data);
  return sigma * sqrtf ((float) (var_sum / (double) npix));
}

void
cfx_ref_temporal_degrain (uint8_t * dst, const uint8_t * const *frames,
    int n, int t, int w, int h, int radius, float sigma)
{
  CfxRefDegrainParams p = { CFX_REF_SHRINK_WIENER, 5, 0.0f, 1.0f, 1.0f, 0,
    4
  };
  uint8_t *mean = xcalloc ((size_t) w * h, 1);
  CfxRefPlane in = { mean, w, w, h }, out = { dst, w, w, h };

  if (sigma <= 0.0f) {
    CfxRefPlane cp = { (uint8_t *) frames[t], w, w, h };

    sigma = cfx_ref_degrain_estimate_sigma (&cp);
  }
  p.sigma = cfx_ref_temporal_mean (mean, frames, n, t, w, h, radius, sigma);
  cfx_ref_degrain_plane (&out, &in, &p);
  free (mean);
}
