/* Motion-compensated deinterlacing, the CPU reference
 * (kernels/deinterlace-mc.md has the method; this is it, in plain loops).
 *
 * One call makes one output field of every plane. The kept rows are
 * copied; every missing sample starts as bwdif's (deinterlace.c) and is
 * pulled towards the prediction from the neighbouring fields moved onto
 * the current instant, by a confidence in 0..256:
 *
 *   search   luma field images (the current field's parity) of prev and
 *            next against the current one: 3x3 sums of 8-bit-scaled
 *            samples, 3 levels of 2x2 sums, 8x8 blocks, full search +-4 at
 *            level 2, parent candidates and +-1 steps below, integer SAD
 *            plus LAMBDA / 16 * unit * (|vx| + |vy|) per sample (0 now:
 *            any bias cost detail on the harness's clips); sub-pixel by
 *            the parabola through the level-0 costs, rounded to 1/8
 *            (none where the integer match is exact);
 *   cuts     a side whose mean level-0 SAD (1/16 of the 3x3 mean per
 *            sample) is over CUT_COST is another shot: the field is
 *            bwdif's;
 *   predict  per side, the field one period away (opposite parity, half
 *            the vector) or two periods away (same parity, the vector),
 *            whichever lands closer to one of its own rows; Catmull-Rom
 *            in that field, integer weights over 2 D^3;
 *   agree    the same side warped onto the kept rows y - 1, y + 1 at
 *            x - 1 .. x + 1: E = sum of |warped - kept|;
 *   blend    c = Q (1 - 2 phase) x G (E between AGREE_LO and AGREE_HI),
 *            M = sum c M / sum c, out = bw + (max c (M - bw) + 128) >> 8.
 *
 * Every value and decision is integer arithmetic (floor divisions spelt
 * out), so the GPU can match it bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "deinterlace-mc.h"

#define BLOCK 8
#define LEVELS 3
#define SEARCH2 4
/* the bias towards zero, in 1/16 of the 3x3 mean per sample and vector
 * unit */
#ifndef LAMBDA
#define LAMBDA 0
#endif
#define MAX_REFINE 4
/* vectors in 1/VEC_DEN field samples (over two field periods) */
#define VEC_DEN 8
/* mean level-0 SAD over this (1/16 of the 3x3 mean, 8-bit units) : cut */
#ifndef CUT_COST
#define CUT_COST (16 * 7)
#endif
/* E (sum of 6 absolute differences, 8-bit units): full trust at or under
 * AGREE_LO, none at or over AGREE_HI */
#ifndef AGREE_LO
#define AGREE_LO 3
#endif
#ifndef AGREE_HI
#define AGREE_HI 15
#endif

#define CLAMP_TO(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

typedef struct
{
  int *data;
  int w, h;
} IImage;

typedef struct
{
  int x, y;
} Vec;

/* a plane of either sample size, samples read as int */
typedef struct
{
  const uint8_t *d8;
  const uint16_t *d16;
  int stride, width, height;
} View;

static void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size ? size : 1);

  if (!p)
    abort ();
  return p;
}

static int64_t
floor_div (int64_t a, int64_t b)
{
  int64_t q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

static View
view_of (const CfxRefMcFrame * f, int i)
{
  View v;

  v.d8 = f->depth == 8 ? f->data[i] : NULL;
  v.d16 = f->depth == 8 ? NULL : f->data[i];
  v.stride = f->stride[i];
  v.width = f->width[i];
  v.height = f->height[i];
  return v;
}

static int
px (const View * v, int x, int y)
{
  size_t i = (size_t) y * v->stride + x;

  return v->d8 ? v->d8[i] : v->d16[i];
}

/* rows of the field of parity r of a plane of h rows */
static int
field_rows (int h, int r)
{
  return (h - r + 1) / 2;
}

/* sample (x, j) of the field image of parity r, mirrored in the field */
static int
field_px (const View * v, int r, int x, int j)
{
  return px (v, cfx_ref_mirror (x, v->width),
      2 * cfx_ref_mirror (j, field_rows (v->height, r)) + r);
}

static int
iat (const IImage * im, int x, int y)
{
  return im->data[(size_t) cfx_ref_mirror (y, im->h) * im->w +
      cfx_ref_mirror (x, im->w)];
}

/* ---- search --------------------------------------------------------- */

/* level 0: the luma field of parity r, scaled to 8 bits, 3x3 sums */
static IImage
search_image (const View * luma, int r, int depth)
{
  IImage im;
  int x, y, dx, dy;

  im.w = luma->width;
  im.h = field_rows (luma->height, r);
  im.data = xcalloc ((size_t) im.w * im.h, sizeof (int));
  for (y = 0; y < im.h; y++)
    for (x = 0; x < im.w; x++) {
      int sum = 0;

      for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++)
          sum += field_px (luma, r, x + dx, y + dy) >> (depth - 8);
      im.data[(size_t) y * im.w + x] = sum;
    }
  return im;
}

static IImage
downsample (const IImage * im)
{
  IImage d;
  int x, y;

  d.w = (im->w + 1) / 2;
  d.h = (im->h + 1) / 2;
  d.data = xcalloc ((size_t) d.w * d.h, sizeof (int));
  for (y = 0; y < d.h; y++)
    for (x = 0; x < d.w; x++)
      d.data[(size_t) y * d.w + x] = iat (im, 2 * x, 2 * y) +
          iat (im, 2 * x + 1, 2 * y) + iat (im, 2 * x, 2 * y + 1) +
          iat (im, 2 * x + 1, 2 * y + 1);
  return d;
}

/* SAD of block (bx, by) of cur against ref displaced by (vx, vy); *n gets
 * the block's sample count */
static int
block_sad (const IImage * cur, const IImage * ref, int bx, int by, int vx,
    int vy, int *n)
{
  int x, y, sad = 0;

  *n = 0;
  for (y = by * BLOCK; y < (by + 1) * BLOCK && y < cur->h; y++)
    for (x = bx * BLOCK; x < (bx + 1) * BLOCK && x < cur->w; x++, (*n)++)
      sad += abs (cur->data[(size_t) y * cur->w + x] -
          iat (ref, x + vx, y + vy));
  return sad;
}

/* SAD plus the bias towards zero; unit: the level's 9 * 4^level */
static int
block_cost (const IImage * cur, const IImage * ref, int bx, int by, int vx,
    int vy, int unit)
{
  int n, sad = block_sad (cur, ref, bx, by, vx, vy, &n);

  return sad + LAMBDA * unit * n * (abs (vx) + abs (vy)) / 16;
}

static Vec *
match_level (const IImage * cur, const IImage * ref, const Vec * parent,
    int pbw, int pbh, int unit)
{
  int bw = (cur->w + BLOCK - 1) / BLOCK, bh = (cur->h + BLOCK - 1) / BLOCK;
  Vec *v = xcalloc ((size_t) bw * bh, sizeof (Vec));
  int bx, by, i, step;

  for (by = 0; by < bh; by++)
    for (bx = 0; bx < bw; bx++) {
      Vec best = { 0, 0 };
      int cost = block_cost (cur, ref, bx, by, 0, 0, unit);

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
        static const int nx[5] = { 0, -1, 1, 0, 0 }, ny[5] = { 0, 0, 0, -1, 1 };

        for (i = 0; i < 5; i++) {
          int qx = CLAMP_TO (bx / 2 + nx[i], 0, pbw - 1);
          int qy = CLAMP_TO (by / 2 + ny[i], 0, pbh - 1);
          Vec c = { 2 * parent[qy * pbw + qx].x, 2 * parent[qy * pbw + qx].y };
          int cc = block_cost (cur, ref, bx, by, c.x, c.y, unit);

          if (cc < cost) {
            cost = cc;
            best = c;
          }
        }
      }
      for (step = 0; step < MAX_REFINE; step++) {
        static const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
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
  return v;
}

/* the parabola's minimum through costs at -1, 0, +1, in 1/VEC_DEN,
 * rounded half up, within +-VEC_DEN / 2 */
static int
parabola (int cm, int c0, int cp)
{
  int64_t den = (int64_t) cm - 2 * (int64_t) c0 + cp;
  int64_t num = (int64_t) VEC_DEN * (cm - cp);

  /* an exact match (c0 == 0 without bias) is not moved off its sample */
  if (den <= 0 || c0 == 0)
    return 0;
  /* num / (2 den), rounded: floor ((num + den) / (2 den)) */
  return (int) CLAMP_TO (floor_div (num + den, 2 * den), -VEC_DEN / 2,
      VEC_DEN / 2);
}

/* vectors (1/VEC_DEN field samples) of every block of cur's field image
 * against ref's; returns the mean level-0 SAD of the inner blocks, 1/16
 * of the 3x3 mean per sample */
static int
estimate_motion (const IImage * cur, const IImage * ref, Vec * out)
{
  IImage pc[LEVELS], pr[LEVELS];
  Vec *v = NULL;
  int l, pbw = 0, pbh = 0, b, n;
  int64_t sad_sum = 0, count = 0;

  pc[0] = *cur;
  pr[0] = *ref;
  for (l = 1; l < LEVELS; l++) {
    pc[l] = downsample (&pc[l - 1]);
    pr[l] = downsample (&pr[l - 1]);
  }
  for (l = LEVELS - 1; l >= 0; l--) {
    Vec *nv = match_level (&pc[l], &pr[l], v, pbw, pbh, 9 << (2 * l));

    free (v);
    v = nv;
    pbw = (pc[l].w + BLOCK - 1) / BLOCK;
    pbh = (pc[l].h + BLOCK - 1) / BLOCK;
  }
  for (l = 1; l < LEVELS; l++) {
    free (pc[l].data);
    free (pr[l].data);
  }
  for (b = 0; b < pbw * pbh; b++) {
    int bx = b % pbw, by = b / pbw;
    int c0 = block_cost (cur, ref, bx, by, v[b].x, v[b].y, 9);

    out[b].x = VEC_DEN * v[b].x + parabola (block_cost (cur, ref, bx, by,
            v[b].x - 1, v[b].y, 9), c0, block_cost (cur, ref, bx, by,
            v[b].x + 1, v[b].y, 9));
    out[b].y = VEC_DEN * v[b].y + parabola (block_cost (cur, ref, bx, by,
            v[b].x, v[b].y - 1, 9), c0, block_cost (cur, ref, bx, by,
            v[b].x, v[b].y + 1, 9));
    /* the cut measure leaves out the border blocks (content entering the
     * picture has nothing to match), where there are others */
    if ((pbw < 3 || (bx > 0 && bx < pbw - 1))
        && (pbh < 3 || (by > 0 && by < pbh - 1))) {
      sad_sum += block_sad (cur, ref, bx, by, v[b].x, v[b].y, &n);
      count += n;
    }
  }
  free (v);
  return (int) (sad_sum * 16 / (9 * count));
}

/* ---- warping -------------------------------------------------------- */

/* Catmull-Rom weights for fraction f / d, times 2 d^3 */
static void
cr_weights (int64_t f, int64_t d, int64_t w[4])
{
  int64_t f2 = f * f, f3 = f2 * f;

  w[0] = -f3 + 2 * d * f2 - d * d * f;
  w[1] = 3 * f3 - 5 * d * f2 + 2 * d * d * d;
  w[2] = -3 * f3 + 4 * d * f2 + d * d * f;
  w[3] = f3 - d * f2;
}

/* the field image of parity r at (nx / dx, ny / dy) (field samples),
 * Catmull-Rom, rounded to nearest and clipped to 0..maxv */
static int
cr_sample (const View * v, int r, int64_t nx, int dx, int64_t ny, int dy,
    int maxv)
{
  int64_t ix = floor_div (nx, dx), iy = floor_div (ny, dy);
  int64_t wx[4], wy[4], sum = 0, norm;
  int i, j;

  cr_weights (nx - ix * dx, dx, wx);
  cr_weights (ny - iy * dy, dy, wy);
  for (j = 0; j < 4; j++) {
    int64_t row = 0;

    for (i = 0; i < 4; i++)
      row += wx[i] * field_px (v, r, (int) ix - 1 + i, (int) iy - 1 + j);
    sum += wy[j] * row;
  }
  norm = 4 * (int64_t) dx * dx * dx * (int64_t) dy * dy * dy;
  return (int) CLAMP_TO (floor_div (sum + norm / 2, norm), 0, maxv);
}

/* distance of n / d to the nearest integer, in 1/d */
static int
phase_dist (int64_t n, int d)
{
  int64_t f = n - floor_div (n, d) * d;

  return (int) (f < d - f ? f : d - f);
}

/* One side of the current field, on one plane: its two source fields
 * (two periods away, parity p; one period away, parity q) and the
 * plane's denominators for its vector */
typedef struct
{
  View far, near;               /* k -+ 2, k -+ 1 */
  int p, q;
  int dx, dy;                   /* the vector's denominators on this plane:
                                 * VEC_DEN << s; one period: twice */
} Side;

/* The side's warp of frame row y (any parity) at column x with vector
 * (vx, vy): the value from the source of smaller phase (ties: the near
 * one); *q256 gets 256 (1 - 2 phase) */
static int
side_sample (const Side * s, int x, int y, int vx, int vy, int maxv,
    int *q256)
{
  /* the far field's row of frame row y: (y - p) / 2 + vy / dy field rows;
   * the near field's: (y - q) / 2 + vy / (2 dy) */
  int64_t far_ny = (int64_t) (y - s->p) * s->dy / 2 + vy;
  int64_t near_ny = (int64_t) (y - s->q) * s->dy + vy;
  int far_d = 2 * phase_dist (far_ny, s->dy);
  int near_d = phase_dist (near_ny, 2 * s->dy);

  if (near_d <= far_d) {
    *q256 = 256 * (2 * s->dy - 2 * near_d) / (2 * s->dy);
    return cr_sample (&s->near, s->q, (int64_t) x * 2 * s->dx + vx,
        2 * s->dx, near_ny, 2 * s->dy, maxv);
  }
  *q256 = 256 * (2 * s->dy - 2 * far_d) / (2 * s->dy);
  return cr_sample (&s->far, s->p, (int64_t) x * s->dx + vx, s->dx, far_ny,
      s->dy, maxv);
}

/* subsampling of a plane of n samples against luma's lum */
static int
subsampling (int n, int lum)
{
  int s;

  for (s = 0; s < 2; s++)
    if (((lum + (1 << s) - 1) >> s) == n)
      return s;
  return 2;
}

static void
write_px (const CfxRefMcFrame * f, int i, int x, int y, int v)
{
  size_t o = (size_t) y * f->stride[i] + x;

  if (f->depth == 8)
    ((uint8_t *) f->data[i])[o] = (uint8_t) v;
  else
    ((uint16_t *) f->data[i])[o] = (uint16_t) v;
}

void
cfx_ref_deinterlace_frame (const CfxRefMcFrame * dst,
    const CfxRefMcFrame * prev, const CfxRefMcFrame * cur,
    const CfxRefMcFrame * next, int parity, int tff,
    CfxRefDeintMethod method, int intra_only)
{
  int i;

  for (i = 0; i < cur->n_planes; i++) {
    if (cur->depth == 8) {
      CfxRefPlane d = { dst->data[i], dst->stride[i], dst->width[i],
        dst->height[i]
      }, a = { prev->data[i], prev->stride[i], prev->width[i],
        prev->height[i]
      }, c = { cur->data[i], cur->stride[i], cur->width[i], cur->height[i]
      }, b = { next->data[i], next->stride[i], next->width[i],
        next->height[i]
      };
      cfx_ref_deinterlace_plane (&d, &a, &c, &b, parity, tff, method, 1,
          intra_only);
    } else {
      CfxRefPlane16 d = { dst->data[i], dst->stride[i], dst->width[i],
        dst->height[i]
      }, a = { prev->data[i], prev->stride[i], prev->width[i],
        prev->height[i]
      }, c = { cur->data[i], cur->stride[i], cur->width[i], cur->height[i]
      }, b = { next->data[i], next->stride[i], next->width[i],
        next->height[i]
      };
      cfx_ref_deinterlace_plane16 (&d, &a, &c, &b, cur->depth, parity, tff,
          method, 1, intra_only);
    }
  }
}

void
cfx_ref_deinterlace_mc (const CfxRefMcFrame * dst,
    const CfxRefMcFrame * prev, const CfxRefMcFrame * cur,
    const CfxRefMcFrame * next, int parity, int tff, int bwdif_intra_only,
    CfxRefMcInfo * info)
{
  const CfxRefMcFrame *far_of[2] = { prev, next }, *near_of[2];
  const int depth = cur->depth, maxv = (1 << depth) - 1;
  int lo = AGREE_LO << (depth - 8), hi = AGREE_HI << (depth - 8);
  View luma = view_of (cur, 0);
  CfxRefMcInfo local;
  Vec *vec[2] = { NULL, NULL };
  IImage search_cur = { NULL, 0, 0 };
  int p = parity ? 1 : 0, q = 1 - p, fp = p ^ (tff ? 1 : 0);
  int bw = 0, bh = 0, side, i, x, y;

  if (!info)
    info = &local;
  memset (info, 0, sizeof (*info));
  /* bwdif on every plane first: the floor, and the kept rows copied */
  cfx_ref_deinterlace_frame (dst, prev ? prev : cur, cur, next ? next : cur,
      p, tff, CFX_REF_DEINT_BWDIF, bwdif_intra_only);
  if (luma.height < 2)
    return;

  /* the fields one period away: bwdif's A and B */
  near_of[0] = fp ? prev : cur;
  near_of[1] = fp ? cur : next;

  search_cur = search_image (&luma, p, depth);
  bw = (search_cur.w + BLOCK - 1) / BLOCK;
  bh = (search_cur.h + BLOCK - 1) / BLOCK;
  for (side = 0; side < 2; side++) {
    View far;
    IImage search_far;

    if (!far_of[side])
      continue;
    far = view_of (far_of[side], 0);
    search_far = search_image (&far, p, depth);
    vec[side] = xcalloc ((size_t) bw * bh, sizeof (Vec));
    info->mean_cost[side] = estimate_motion (&search_cur, &search_far,
        vec[side]);
    free (search_far.data);
    info->cut[side] = info->mean_cost[side] > CUT_COST;
    info->used[side] = !info->cut[side];
  }
  free (search_cur.data);

  /* one side alone (the stream's ends) has no second view to confirm it:
   * half the tolerance */
  if (info->used[0] != info->used[1]) {
    lo /= 2;
    hi /= 2;
  }
  if (!info->cut[0] && !info->cut[1] && (info->used[0] || info->used[1])) {
    for (i = 0; i < cur->n_planes; i++) {
      const int sx = subsampling (cur->width[i], cur->width[0]);
      const int sy = subsampling (cur->height[i], cur->height[0]);
      View c = view_of (cur, i), d = view_of (dst, i);
      Side sides[2];

      for (side = 0; side < 2; side++)
        if (info->used[side]) {
          sides[side].far = view_of (far_of[side], i);
          sides[side].near = view_of (near_of[side], i);
          sides[side].p = p;
          sides[side].q = q;
          sides[side].dx = VEC_DEN << sx;
          sides[side].dy = VEC_DEN << sy;
        }

      for (y = q; y < c.height; y += 2) {
        const int ym = cfx_ref_mirror (y - 1, c.height);
        const int yp = cfx_ref_mirror (y + 1, c.height);
        /* the block of the luma field image holding this row */
        const int by = CLAMP_TO (((y >> 1) << sy) / BLOCK, 0, bh - 1);

        for (x = 0; x < c.width; x++) {
          const int bx = CLAMP_TO ((x << sx) / BLOCK, 0, bw - 1);
          const int bwv = px (&d, x, y);
          int64_t csum = 0, msum = 0;
          int alpha = 0, out = bwv;

          for (side = 0; side < 2; side++) {
            Vec v;
            int m, qual, e = 0, g, conf, k, dummy;

            if (!info->used[side])
              continue;
            v = vec[side][by * bw + bx];
            m = side_sample (&sides[side], x, y, v.x, v.y, maxv, &qual);
            for (k = -1; k <= 1; k++) {
              int xx = cfx_ref_mirror (x + k, c.width);

              e += abs (side_sample (&sides[side], xx, ym, v.x, v.y, maxv,
                      &dummy) - px (&c, xx, ym));
              e += abs (side_sample (&sides[side], xx, yp, v.x, v.y, maxv,
                      &dummy) - px (&c, xx, yp));
            }
            g = e <= lo ? 256 : e >= hi ? 0 : 256 * (hi - e) / (hi - lo);
            conf = qual * g / 256;
            csum += conf;
            msum += (int64_t) conf *m;
            if (conf > alpha)
              alpha = conf;
          }
          if (csum > 0) {
            int mc = (int) ((msum + csum / 2) / csum);

            out = bwv + (int) floor_div ((int64_t) alpha * (mc - bwv) + 128,
                256);
          }
          write_px (dst, i, x, y, out);
        }
      }
    }
  }
  free (vec[0]);
  free (vec[1]);
}
