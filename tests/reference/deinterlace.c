/* Deinterlacing references: yadif and bwdif exactly as
 * kernels/deinterlace.md describes them (bit-exact with the CPU filters
 * of FFmpeg 6.1 to 8.x; bwdif as FFmpeg 5.1 or 9.x computes it on
 * request, CfxRefBwdifRules), plus the intra-field ELA and linear modes.
 *
 * One call produces one output field of one plane: rows with
 * (y & 1) == parity are copied byte for byte from cur, the other rows are
 * interpolated.  Everything is integer arithmetic; right shifts of values
 * that can be negative (bwdif's cubic terms) round towards minus infinity,
 * which is what FFmpeg's arithmetic ">>" does on the compilers it supports.
 *
 * Edge rules for the intra-field modes (not in FFmpeg, chosen here):
 *   rows:    the rows above/below a missing row are mirrored at the top and
 *            bottom (cfx_ref_mirror: row -1 reads row 1, row h reads row
 *            h-2), so a missing row 0 is a copy of row 1 and a missing
 *            row h-1 a copy of row h-2;
 *   columns: ELA clamps x+j and x-j into [0, w-1];
 *   linear:  out = (C[y-1][x] + C[y+1][x] + 1) >> 1  (round half up);
 *   ela:     cost(j) = |C[y-1][x+j] - C[y+1][x-j]| for j = 0, -1, +1, in
 *            that order; a direction replaces the current best only when
 *            its cost is strictly smaller, so ties go to j = 0, and a tie
 *            between j = -1 and j = +1 (both better than 0) goes to -1;
 *            out = (C[y-1][x+j] + C[y+1][x-j] + 1) >> 1.
 *
 * High bit depth (cfx_ref_deinterlace_plane16, FFmpeg's 16-bit C paths):
 * the same arithmetic on wider samples, clipping to (1 << depth) - 1
 * instead of 255; and bwdif picks the rows of its intra and edge rows
 * with a reach of "bytes per sample" (df, 2 above 8 bits) instead of 1:
 * m = y > df-1 ? y-1 : y+1, p = y+df < h ? y+1 : y-1,
 * m3 = y > 3*df-1 ? y-3 : y+1, p3 = y+3*df < h ? y+3 : y-1 (FFmpeg 9.x
 * reaches 1 at every depth).
 *
 * bwdif's first and last output fields of a stream (intra_only): FFmpeg
 * 6.1 to 8.x interpolate rows y < 3 and y + 3 >= h by the edge rule of
 * the other fields (with the stream's end frame standing in for the
 * missing neighbour, as the caller passes it) and the rows between by
 * the intra filter; 5.1 and 9.x use the intra filter on every row. */
#include <stdlib.h>

#include "cfx-reference.h"

/* bwdif coefficients, 13-bit fixed point */
static const int coef_lf[2] = { 4309, 213 };
static const int coef_hf[3] = { 5570, 3801, 1016 };
static const int coef_sp[2] = { 5077, 981 };

/* A plane of either sample size, so that both entry points share every
 * line of arithmetic; samples are read as int. */
typedef struct
{
  const uint8_t *d8;
  const uint16_t *d16;
  int stride;                   /* in samples */
  int width, height;
} View;

static View
view8 (const CfxRefPlane * pl)
{
  View v;

  v.d8 = pl->data;
  v.d16 = NULL;
  v.stride = pl->stride;
  v.width = pl->width;
  v.height = pl->height;
  return v;
}

static View
view16 (const CfxRefPlane16 * pl)
{
  View v;

  v.d8 = NULL;
  v.d16 = pl->data;
  v.stride = pl->stride;
  v.width = pl->width;
  v.height = pl->height;
  return v;
}

static int
px (const View * pl, int x, int y)
{
  long i = (long) y * pl->stride + x;

  return pl->d8 ? pl->d8[i] : pl->d16[i];
}

static int
imax (int a, int b)
{
  return a > b ? a : b;
}

static int
imin (int a, int b)
{
  return a < b ? a : b;
}

static int
iclamp (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* floor (v / 2^n), also for negative v */
static int
shr_floor (int v, int n)
{
  if (v >= 0)
    return v >> n;
  return -((-v + (1 << n) - 1) >> n);
}

/* clamp the spatial prediction into [d - diff, d + diff], yadif style */
static int
clamp_to_temporal (int pred, int d, int diff)
{
  if (pred > d + diff)
    return d + diff;
  if (pred < d - diff)
    return d - diff;
  return pred;
}

/* ---- yadif ---------------------------------------------------------- */

/* S(j) of the page: cost of direction j around column x */
static int
yadif_score (const View * C, int m, int p, int x, int j)
{
  return abs (px (C, x + j - 1, m) - px (C, x - j - 1, p))
      + abs (px (C, x + j, m) - px (C, x - j, p))
      + abs (px (C, x + j + 1, m) - px (C, x - j + 1, p));
}

/* V(j) of the page */
static int
yadif_value (const View * C, int m, int p, int x, int j)
{
  return (px (C, x + j, m) + px (C, x - j, p)) >> 1;
}

static int
yadif_sample (const View * P, const View * C, const View * N,
    const View * A, const View * B, int x, int y, int spatial_check)
{
  int w = C->width, h = C->height;
  int m = y > 0 ? y - 1 : y + 1;
  int p = y + 1 < h ? y + 1 : y - 1;
  int nocheck = (y == 1 || y + 2 == h) || !spatial_check;
  int c = px (C, x, m);
  int e = px (C, x, p);
  int d = (px (A, x, y) + px (B, x, y)) >> 1;
  int td0 = abs (px (A, x, y) - px (B, x, y));
  int td1 = (abs (px (P, x, m) - c) + abs (px (P, x, p) - e)) >> 1;
  int td2 = (abs (px (N, x, m) - c) + abs (px (N, x, p) - e)) >> 1;
  int diff = imax (imax (td0 >> 1, td1), td2);
  int sp = (c + e) >> 1;

  if (x >= 3 && x < w - 3) {
    int score = abs (px (C, x - 1, m) - px (C, x - 1, p)) + abs (c - e)
        + abs (px (C, x + 1, m) - px (C, x + 1, p)) - 1;
    int s;

    /* nested: -2 is only tried when -1 won; the +1 side compares against
     * the score the -1 side may have lowered */
    s = yadif_score (C, m, p, x, -1);
    if (s < score) {
      score = s;
      sp = yadif_value (C, m, p, x, -1);
      s = yadif_score (C, m, p, x, -2);
      if (s < score) {
        score = s;
        sp = yadif_value (C, m, p, x, -2);
      }
    }
    s = yadif_score (C, m, p, x, 1);
    if (s < score) {
      score = s;
      sp = yadif_value (C, m, p, x, 1);
      s = yadif_score (C, m, p, x, 2);
      if (s < score) {
        score = s;
        sp = yadif_value (C, m, p, x, 2);
      }
    }
  }

  if (!nocheck) {
    int m2 = y + 2 * (m - y);
    int p2 = y + 2 * (p - y);
    int b = (px (A, x, m2) + px (B, x, m2)) >> 1;
    int f = (px (A, x, p2) + px (B, x, p2)) >> 1;
    int mx = imax (imax (d - e, d - c), imin (b - c, f - e));
    int mn = imin (imin (d - e, d - c), imax (b - c, f - e));

    diff = imax (imax (diff, mn), -mx);
  }

  return clamp_to_temporal (sp, d, diff);
}

/* ---- bwdif ---------------------------------------------------------- */

/* df: FFmpeg's bytes per sample, which its bwdif also uses as the reach
 * of the row tests at the top and bottom (1 for 8 bits, 2 above) */
static int
bwdif_intra_sample (const View * C, int x, int y, int df, int clip_max)
{
  int h = C->height;
  int m = y > df - 1 ? y - 1 : y + 1;
  int p = y + df < h ? y + 1 : y - 1;
  int m3 = y > 3 * df - 1 ? y - 3 : y + 1;
  int p3 = y + 3 * df < h ? y + 3 : y - 1;
  int v = coef_sp[0] * (px (C, x, m) + px (C, x, p))
      - coef_sp[1] * (px (C, x, m3) + px (C, x, p3));

  return iclamp (shr_floor (v, 13), 0, clip_max);
}

static int
bwdif_sample (const View * P, const View * C, const View * N,
    const View * A, const View * B, int x, int y, int df, int clip_max)
{
  int h = C->height;
  int edge = (y < 4) || (y + 5 > h);
  int m = edge ? (y > df - 1 ? y - 1 : y + 1) : y - 1;
  int p = edge ? (y + df < h ? y + 1 : y - 1) : y + 1;
  int c = px (C, x, m);
  int e = px (C, x, p);
  int d = (px (A, x, y) + px (B, x, y)) >> 1;
  int td0 = abs (px (A, x, y) - px (B, x, y));
  int td1 = (abs (px (P, x, m) - c) + abs (px (P, x, p) - e)) >> 1;
  int td2 = (abs (px (N, x, m) - c) + abs (px (N, x, p) - e)) >> 1;
  int diff = imax (imax (td0 >> 1, td1), td2);
  int interp;

  if (diff == 0)
    return d;

  if (!edge || !((y < 2) || (y + 3 > h))) {
    int b = ((px (A, x, y - 2) + px (B, x, y - 2)) >> 1) - c;
    int f = ((px (A, x, y + 2) + px (B, x, y + 2)) >> 1) - e;
    int mx = imax (imax (d - e, d - c), imin (b, f));
    int mn = imin (imin (d - e, d - c), imax (b, f));

    diff = imax (imax (diff, mn), -mx);
  }

  if (edge) {
    interp = (c + e) >> 1;
  } else if (abs (c - e) > td0) {
    int hf = coef_hf[0] * (px (A, x, y) + px (B, x, y))
        - coef_hf[1] * (px (A, x, y - 2) + px (B, x, y - 2)
        + px (A, x, y + 2) + px (B, x, y + 2))
        + coef_hf[2] * (px (A, x, y - 4) + px (B, x, y - 4)
        + px (A, x, y + 4) + px (B, x, y + 4));
    int v = shr_floor (hf, 2) + coef_lf[0] * (c + e)
        - coef_lf[1] * (px (C, x, y - 3) + px (C, x, y + 3));

    interp = shr_floor (v, 13);
  } else {
    int v = coef_sp[0] * (c + e)
        - coef_sp[1] * (px (C, x, y - 3) + px (C, x, y + 3));

    interp = shr_floor (v, 13);
  }

  return iclamp (clamp_to_temporal (interp, d, diff), 0, clip_max);
}

/* FFmpeg 6.1 to 8.x: the rows of a stream's first and last fields that
 * take the edge rule instead of the intra filter (whatever the depth) */
static int
bwdif_end_edge_row (int y, int h)
{
  return y < 3 || y + 3 >= h;
}

/* ---- ela / linear ----------------------------------------------------- */

static int
linear_sample (const View * C, int x, int y)
{
  int ym = cfx_ref_mirror (y - 1, C->height);
  int yp = cfx_ref_mirror (y + 1, C->height);

  return (px (C, x, ym) + px (C, x, yp) + 1) >> 1;
}

static int
ela_sample (const View * C, int x, int y)
{
  static const int order[3] = { 0, -1, 1 };
  int w = C->width;
  int ym = cfx_ref_mirror (y - 1, C->height);
  int yp = cfx_ref_mirror (y + 1, C->height);
  int best_cost = -1, best_a = 0, best_b = 0;
  int i;

  for (i = 0; i < 3; i++) {
    int j = order[i];
    int a = px (C, iclamp (x + j, 0, w - 1), ym);
    int b = px (C, iclamp (x - j, 0, w - 1), yp);
    int cost = abs (a - b);

    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best_a = a;
      best_b = b;
    }
  }
  return (best_a + best_b + 1) >> 1;
}

/* ---- entry points ----------------------------------------------------- */

/* One output field; exactly one of dst8 / dst16 is set, the views are of
 * the same sample size. */
static void
deinterlace_view (uint8_t * dst8, uint16_t * dst16, int dst_stride,
    const View * prev, const View * cur, const View * next, int df,
    int clip_max, int parity, int tff, CfxRefDeintMethod method,
    int spatial_check, int intra_only, CfxRefBwdifRules rules)
{
  int w = cur->width, h = cur->height;
  int fp, x, y;
  const View *A, *B;

  parity = parity ? 1 : 0;
  tff = tff ? 1 : 0;
  /* fp = 1 for the first output field of the frame, 0 for the second;
   * A and B are the frames whose opposite field brackets its instant */
  fp = parity ^ tff;
  A = fp ? prev : cur;
  B = fp ? cur : next;

  for (y = 0; y < h; y++) {
    int copy = (y & 1) == parity;

    for (x = 0; x < w; x++) {
      int v;

      if (copy)
        v = px (cur, x, y);
      else {
        switch (method) {
          case CFX_REF_DEINT_BWDIF:
            if (intra_only && !(rules == CFX_REF_BWDIF_FFMPEG_6_1
                    && bwdif_end_edge_row (y, h)))
              v = bwdif_intra_sample (cur, x, y, df, clip_max);
            else
              v = bwdif_sample (prev, cur, next, A, B, x, y, df, clip_max);
            break;
          case CFX_REF_DEINT_YADIF:
            v = yadif_sample (prev, cur, next, A, B, x, y, spatial_check);
            break;
          case CFX_REF_DEINT_ELA:
            v = ela_sample (cur, x, y);
            break;
          case CFX_REF_DEINT_LINEAR:
          default:
            v = linear_sample (cur, x, y);
            break;
        }
      }
      if (dst8)
        dst8[(long) y * dst_stride + x] = (uint8_t) v;
      else
        dst16[(long) y * dst_stride + x] = (uint16_t) v;
    }
  }
}

void
cfx_ref_deinterlace_plane_as (const CfxRefPlane * dst,
    const CfxRefPlane * prev, const CfxRefPlane * cur,
    const CfxRefPlane * next, int parity, int tff, CfxRefDeintMethod method,
    int spatial_check, int intra_only, CfxRefBwdifRules rules)
{
  View P = view8 (prev), C = view8 (cur), N = view8 (next);

  deinterlace_view (dst->data, NULL, dst->stride, &P, &C, &N, 1, 255,
      parity, tff, method, spatial_check, intra_only, rules);
}

void
cfx_ref_deinterlace_plane (const CfxRefPlane * dst, const CfxRefPlane * prev,
    const CfxRefPlane * cur, const CfxRefPlane * next, int parity, int tff,
    CfxRefDeintMethod method, int spatial_check, int intra_only)
{
  cfx_ref_deinterlace_plane_as (dst, prev, cur, next, parity, tff, method,
      spatial_check, intra_only, CFX_REF_BWDIF_FFMPEG_6_1);
}

void
cfx_ref_deinterlace_plane16_as (const CfxRefPlane16 * dst,
    const CfxRefPlane16 * prev, const CfxRefPlane16 * cur,
    const CfxRefPlane16 * next, int depth, int parity, int tff,
    CfxRefDeintMethod method, int spatial_check, int intra_only,
    CfxRefBwdifRules rules)
{
  View P = view16 (prev), C = view16 (cur), N = view16 (next);
  /* FFmpeg up to 8.x: the bytes of a sample (two for 9..16 bits) */
  int df = rules == CFX_REF_BWDIF_FFMPEG_9 ? 1 : (depth + 7) / 8;

  deinterlace_view (NULL, dst->data, dst->stride, &P, &C, &N, df,
      (1 << depth) - 1, parity, tff, method, spatial_check, intra_only,
      rules);
}

void
cfx_ref_deinterlace_plane16 (const CfxRefPlane16 * dst,
    const CfxRefPlane16 * prev, const CfxRefPlane16 * cur,
    const CfxRefPlane16 * next, int depth, int parity, int tff,
    CfxRefDeintMethod method, int spatial_check, int intra_only)
{
  cfx_ref_deinterlace_plane16_as (dst, prev, cur, next, depth, parity, tff,
      method, spatial_check, intra_only, CFX_REF_BWDIF_FFMPEG_6_1);
}
