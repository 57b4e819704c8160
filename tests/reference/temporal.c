/* Temporal degrain, the CPU reference of the motion-compensated denoiser
 * the GPU will run (the issue "Temporal degrain"; kernels/temporal.md has
 * the algorithm in prose). Plain loops on 8-bit luma frames, float
 * arithmetic, no claim to speed.
 *
 * For output frame t and radius R (neighbours s = t - R .. t + R inside
 * the clip, s != t):
 *
 *  1. Motion is estimated on smoothed frames (the spatial degrain of each
 *     frame at the clip's sigma): noise in the matching costs would pull
 *     the vectors. Pyramid: levels 0 (full size), 1, 2 by 2x2 means. One
 *     vector per 8x8 block of each level (a level-l block covers 8 << l
 *     full-size pixels), coarse to fine:
 *       level 2: full search +-SEARCH2 (+-4 samples: +-16 full-size px);
 *       levels 1, 0: candidates (the vector of the block's parent, doubled;
 *       the parents of its 4-neighbours, doubled; zero), the best refined
 *       by +-1 integer steps while it improves (at most 4 steps).
 *     Cost: SAD over the block, the neighbour's samples at the block's
 *     position plus the vector (mirrored borders), plus a bias toward the
 *     zero vector of LAMBDA * (|vx| + |vy|) per pixel of the block: a
 *     flat or noisy block keeps vector 0.
 *     Sub-pixel: at level 0 each axis's offset is refined by the parabola
 *     through the costs at v - 1, v, v + 1 (clamped to +-0.5).
 *  2. The noisy neighbour s is warped to t's grid with each block's vector
 *     (Catmull-Rom bicubic, mirrored borders): W_s(x) = s(x + v(block(x))).
 *  3. Scene cuts: a neighbour whose warped frame differs from frame t by
 *     a mean square over 3 x 2 sigma^2 (two noisy views of one picture
 *     differ by 2 sigma^2) is another shot: it and the frames beyond it
 *     on its side are left out (neighbours are taken outward from t).
 *     Robust weight of each warped sample: e = mean of (W_s - t)^2 over
 *     the 3x3 window around x, r = e / (2 sigma^2); w = 1 for r <= 1.5,
 *     0 for r >= 4, linear between: occlusions and failed vectors drop
 *     out locally.
 *  4. Temporal mean: A(x) = (t(x) + sum_s w_s W_s(x)) / (1 + sum_s w_s),
 *     and its noise variance sigma^2 (1 + sum w_s^2) / (1 + sum w_s)^2
 *     (independent noise; the warp's interpolation is not counted).
 *  5. The spatial degrain (cfx_ref_degrain_float, Wiener, 5 levels) of A
 *     with sigma = the root of the mean of that variance over the frame:
 *     the spatial stage is fed the noise the temporal stage left.
 *  6. Rounded to nearest, clipped to 0..255.
 * Sigma: given, or estimated on frame t (cfx_ref_degrain_estimate_sigma).
 * Radius 0: the spatial degrain alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

#define BLOCK 8
#define LEVELS 3
#define SEARCH2 4
#define LAMBDA 1.0f
#define MAX_REFINE 4
/* a neighbour whose warped frame differs from the current one by more
 * than this many times two noisy views' 2 sigma^2 (mean over the frame)
 * is another shot */
#define CUT_RATIO 3.0

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

static Image
image_new (int w, int h)
{
  Image im = { xcalloc ((size_t) w * h, sizeof (float)), w, h };
  return im;
}

/* 2x2 means (an odd last row or column averages with its mirror) */
static Image
downsample (const Image * im)
{
  Image d = image_new ((im->w + 1) / 2, (im->h + 1) / 2);
  int x, y;

  for (y = 0; y < d.h; y++)
    for (x = 0; x < d.w; x++)
      d.data[(size_t) y * d.w + x] = (at (im, 2 * x, 2 * y) +
          at (im, 2 * x + 1, 2 * y) + at (im, 2 * x, 2 * y + 1) +
          at (im, 2 * x + 1, 2 * y + 1)) * 0.25f;
  return d;
}

/* SAD of block (bx, by) of @cur against @ref displaced by (vx, vy), plus
 * the zero-vector bias */
static float
block_cost (const Image * cur, const Image * ref, int bx, int by, int vx,
    int vy)
{
  float sad = 0.0f;
  int x, y, n = 0;

  for (y = by * BLOCK; y < (by + 1) * BLOCK && y < cur->h; y++)
    for (x = bx * BLOCK; x < (bx + 1) * BLOCK && x < cur->w; x++, n++)
      sad += fabsf (cur->data[(size_t) y * cur->w + x] -
          at (ref, x + vx, y + vy));
  return sad + LAMBDA * n * (abs (vx) + abs (vy));
}

/* One level's vectors: from @parent (the coarser level's, or NULL: full
 * search) */
static Vec *
match_level (const Image * cur, const Image * ref, const Vec * parent,
    int pbw, int pbh, int *out_bw, int *out_bh)
{
  int bw = (cur->w + BLOCK - 1) / BLOCK, bh = (cur->h + BLOCK - 1) / BLOCK;
  Vec *v = xcalloc ((size_t) bw * bh, sizeof (Vec));
  int bx, by;

  for (by = 0; by < bh; by++)
    for (bx = 0; bx < bw; bx++) {
      Vec best = { 0, 0 };
      float cost = block_cost (cur, ref, bx, by, 0, 0);
      int i, step;

      if (!parent) {
        int dx, dy;

        for (dy = -SEARCH2; dy <= SEARCH2; dy++)
          for (dx = -SEARCH2; dx <= SEARCH2; dx++) {
            float c = block_cost (cur, ref, bx, by, dx, dy);

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
          float cc = block_cost (cur, ref, bx, by, c.x, c.y);

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
          float c = block_cost (cur, ref, bx, by, from.x + dx[i],
              from.y + dy[i]);

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
parabola (float cm, float c0, float cp)
{
  float den = cm - 2.0f * c0 + cp;

  if (!(den > 0.0f))
    return 0.0f;
  return CLAMP_TO (0.5f * (cm - cp) / den, -0.5f, 0.5f);
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
 * against @ref; *bw x *bh blocks */
static float *
estimate_motion (const Image * cur, const Image * ref, int *bw, int *bh)
{
  Image pc[LEVELS], pr[LEVELS];
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
    Vec *nv = match_level (&pc[l], &pr[l], v, pbw, pbh, &nbw, &nbh);

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
    float c0 = block_cost (cur, ref, bx, by, v[b].x, v[b].y);

    out[2 * b] = v[b].x + parabola (block_cost (cur, ref, bx, by, v[b].x - 1,
            v[b].y), c0, block_cost (cur, ref, bx, by, v[b].x + 1, v[b].y));
    out[2 * b + 1] = v[b].y + parabola (block_cost (cur, ref, bx, by, v[b].x,
            v[b].y - 1), c0, block_cost (cur, ref, bx, by, v[b].x,
            v[b].y + 1));
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

static Image
spatial (const Image * in, float sigma)
{
  CfxRefDegrainParams p = { CFX_REF_SHRINK_WIENER, 5, sigma, 1.0f, 1.0f, 0,
    4
  };
  Image out = image_new (in->w, in->h);

  cfx_ref_degrain_float (out.data, in->data, in->w, in->h, &p);
  return out;
}

/* Warps neighbour @frame onto @cur and adds it with its robust weights;
 * FALSE (nothing added) when it is another shot: its mean squared
 * difference from @cur after the warp is over CUT_RATIO times the 2
 * sigma^2 of two noisy views of one picture */
static int
add_neighbour (Image * acc, Image * wsum, Image * w2sum, const Image * cur,
    const Image * smooth_cur, const uint8_t * frame, float sigma)
{
  const int w = cur->w, h = cur->h;
  const float noise2 = 2.0f * sigma * sigma;
  Image nb = image_from_plane (frame, w, h), smooth_nb, warped;
  double mse = 0.0;
  float *vec;
  int bw, bh, x, y;

  smooth_nb = spatial (&nb, sigma);
  vec = estimate_motion (smooth_cur, &smooth_nb, &bw, &bh);
  warped = image_new (w, h);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const float *v = &vec[2 * ((size_t) (y / BLOCK) * bw + x / BLOCK)];
      float d;

      warped.data[(size_t) y * w + x] = bicubic (&nb, x + v[0], y + v[1]);
      d = warped.data[(size_t) y * w + x] - cur->data[(size_t) y * w + x];
      mse += d * d;
    }
  free (nb.data);
  free (smooth_nb.data);
  free (vec);
  if (mse / ((double) w * h) > CUT_RATIO * noise2) {
    free (warped.data);
    return 0;
  }

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float e = 0.0f, r, wt;
      int dx, dy;

      for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++) {
          float d = at (&warped, x + dx, y + dy) - at (cur, x + dx, y + dy);

          e += d * d;
        }
      r = e / 9.0f / noise2;
      wt = r <= 1.5f ? 1.0f : r >= 4.0f ? 0.0f : (4.0f - r) / 2.5f;
      acc->data[(size_t) y * w + x] += wt * warped.data[(size_t) y * w + x];
      wsum->data[(size_t) y * w + x] += wt;
      w2sum->data[(size_t) y * w + x] += wt * wt;
    }
  free (warped.data);
  return 1;
}

void
cfx_ref_temporal_degrain (uint8_t * dst, const uint8_t * const *frames,
    int n, int t, int w, int h, int radius, float sigma)
{
  Image cur, smooth_cur, acc, wsum, w2sum, result;
  float var_mean = 0.0f;
  size_t i, npix = (size_t) w * h;
  int side, k;

  if (sigma <= 0.0f) {
    CfxRefPlane p = { (uint8_t *) frames[t], w, w, h };

    sigma = cfx_ref_degrain_estimate_sigma (&p);
  }
  cur = image_from_plane (frames[t], w, h);
  smooth_cur = spatial (&cur, sigma);
  acc = image_new (w, h);
  wsum = image_new (w, h);
  w2sum = image_new (w, h);
  memcpy (acc.data, cur.data, npix * sizeof (float));

  /* outward on each side: a neighbour that is another shot ends its side
   * (what lies beyond it is that shot too) */
  for (side = -1; side <= 1; side += 2)
    for (k = 1; k <= radius && sigma > 0.0f; k++) {
      const int s = t + side * k;

      if (s < 0 || s >= n || !add_neighbour (&acc, &wsum, &w2sum, &cur,
              &smooth_cur, frames[s], sigma))
        break;
    }

  for (i = 0; i < npix; i++) {
    float norm = 1.0f + wsum.data[i];

    acc.data[i] /= norm;
    var_mean += (1.0f + w2sum.data[i]) / (norm * norm);
  }
  var_mean /= (float) npix;
  result = spatial (&acc, sigma * sqrtf (var_mean));
  for (i = 0; i < npix; i++) {
    float v = floorf (result.data[i] + 0.5f);

    dst[i] = (uint8_t) (v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
  }
  free (cur.data);
  free (smooth_cur.data);
  free (acc.data);
  free (wsum.data);
  free (w2sum.data);
  free (result.data);
}
