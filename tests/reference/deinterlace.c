/* Deinterlacing references: yadif and bwdif exactly as
 * kernels/deinterlace.md describes them (bit-exact with FFmpeg
 * 5.1's CPU filters), plus the intra-field ELA and linear modes.
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
 *            out = (C[y-1][x+j] + C[y+1][x-j] + 1) >> 1. */
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

/* bwdif coefficients, 13-bit fixed point */
static const int coef_lf[2] = { 4309, 213 };
static const int coef_hf[3] = { 5570, 3801, 1016 };
static const int coef_sp[2] = { 5077, 981 };

#define CLIP_MAX 255

static int
px (const CfxRefPlane * pl, int x, int y)
{
  return pl->data[(long) y * pl->stride + x];
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
yadif_score (const CfxRefPlane * C, int m, int p, int x, int j)
{
  return abs (px (C, x + j - 1, m) - px (C, x - j - 1, p))
      + abs (px (C, x + j, m) - px (C, x - j, p))
      + abs (px (C, x + j + 1, m) - px (C, x - j + 1, p));
}

/* V(j) of the page */
static int
yadif_value (const CfxRefPlane * C, int m, int p, int x, int j)
{
  return (px (C, x + j, m) + px (C, x - j, p)) >> 1;
}

static int
yadif_sample (const CfxRefPlane * P, const CfxRefPlane * C,
    const CfxRefPlane * N, const CfxRefPlane * A, const CfxRefPlane * B,
    int x, int y, int spatial_check)
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

static int
bwdif_intra_sample (const CfxRefPlane * C, int x, int y)
{
  int h = C->height;
  int m = y > 0 ? y - 1 : y + 1;
  int p = y + 1 < h ? y + 1 : y - 1;
  int m3 = y > 2 ? y - 3 : y + 1;
  int p3 = y + 3 < h ? y + 3 : y - 1;
  int v = coef_sp[0] * (px (C, x, m) + px (C, x, p))
      - coef_sp[1] * (px (C, x, m3) + px (C, x, p3));

  return iclamp (shr_floor (v, 13), 0, CLIP_MAX);
}

static int
bwdif_sample (const CfxRefPlane * P, const CfxRefPlane * C,
    const CfxRefPlane * N, const CfxRefPlane * A, const CfxRefPlane * B,
    int x, int y)
{
  int h = C->height;
  int edge = (y < 4) || (y + 5 > h);
  int m = edge ? (y > 0 ? y - 1 : y + 1) : y - 1;
  int p = edge ? (y + 1 < h ? y + 1 : y - 1) : y + 1;
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

  return iclamp (clamp_to_temporal (interp, d, diff), 0, CLIP_MAX);
}

/* ---- ela / linear ----------------------------------------------------- */

static int
linear_sample (const CfxRefPlane * C, int x, int y)
{
  int ym = cfx_ref_mirror (y - 1, C->height);
  int yp = cfx_ref_mirror (y + 1, C->height);

  return (px (C, x, ym) + px (C, x, yp) + 1) >> 1;
}

static int
ela_sample (const CfxRefPlane * C, int x, int y)
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

/* ---- entry point ------------------------------------------------------ */

void
cfx_ref_deinterlace_plane (const CfxRefPlane * dst, const CfxRefPlane * prev,
    const CfxRefPlane * cur, const CfxRefPlane * next, int parity, int tff,
    CfxRefDeintMethod method, int spatial_check, int intra_only)
{
  int w = cur->width, h = cur->height;
  int fp, x, y;
  const CfxRefPlane *A, *B;

  parity = parity ? 1 : 0;
  tff = tff ? 1 : 0;
  /* fp = 1 for the first output field of the frame, 0 for the second;
   * A and B are the frames whose opposite field brackets its instant */
  fp = parity ^ tff;
  A = fp ? prev : cur;
  B = fp ? cur : next;

  for (y = 0; y < h; y++) {
    uint8_t *out = dst->data + (long) y * dst->stride;

    if ((y & 1) == parity) {
      memcpy (out, cur->data + (long) y * cur->stride, (size_t) w);
      continue;
    }

    for (x = 0; x < w; x++) {
      int v;

      switch (method) {
        case CFX_REF_DEINT_BWDIF:
          if (intra_only)
            v = bwdif_intra_sample (cur, x, y);
          else
            v = bwdif_sample (prev, cur, next, A, B, x, y);
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
      out[x] = (uint8_t) v;
    }
  }
}
