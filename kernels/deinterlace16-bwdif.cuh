/* 16-bit deinterlace kernels, part 3 of 4 (one per method family): bwdif
 * (its intra-only fields too). The arithmetic of one output sample, with
 * every stencil row read from memory (edge rows, intra fields) or from
 * the window; the window of one column and the two of a pair (one a
 * column, filled and slid from the same words). */
#ifndef CFX_DEINTERLACE16_BWDIF_CUH
#define CFX_DEINTERLACE16_BWDIF_CUH

#include "deinterlace16-temporal.cuh"

namespace
{

/* The samples bwdif reads for one output */
struct BwdifIn
{
  int cm, cp;                   /* C at rows m and p */
  TemporalIn t;
  int abm2, abp2;               /* A + B at y - 2 and y + 2 */
  int abm4, abp4;               /* A + B at y - 4 and y + 4 */
  int cm3, cp3;                 /* C at y - 3 and y + 3 */
};

/* @edge: a row near the top or bottom (no cubic: the mean of m and p);
 * @check: the spatial check applies */
CFX_HD_INLINE int
bwdif_value (const BwdifIn & v, bool edge, bool check, int max)
{
  Temporal t = temporal (v.t, v.cm, v.cp);
  int cm = t.cm, cp = t.cp, d = t.d, td0 = t.td0, diff = t.diff;
  int i;

  if (diff == 0)
    return d;
  if (check) {
    int bb = (v.abm2 >> 1) - cm, ff = (v.abp2 >> 1) - cp;
    int hi = imax (imax (d - cp, d - cm), imin (bb, ff));
    int lo = imin (imin (d - cp, d - cm), imax (bb, ff));

    diff = imax (imax (diff, lo), -hi);
  }
  if (edge)
    i = (cm + cp) >> 1;
  else if (iabs (cm - cp) > td0)        /* vertical detail beats motion */
    i = (((5570 * (v.t.a + v.t.b) - 3801 * (v.abm2 + v.abp2)
                + 1016 * (v.abm4 + v.abp4)) >> 2)
        + 4309 * (cm + cp) - 213 * (v.cm3 + v.cp3)) >> 13;
  else
    i = (5077 * (cm + cp) - 981 * (v.cm3 + v.cp3)) >> 13;
  return clip (imin (imax (i, d - diff), d + diff), max);
}

/* ---- one output sample, every stencil row read from memory ------------ */

/* two-byte bwdif picks the rows near the top and bottom with a reach of
 * 2 (bytes a sample), where the 8-bit filter's is 1 */
#define DF 2

CFX_HD_INLINE int
bwdif_intra (const Comp16 & c, int x, int y)
{
  int h = c.height;
  int m = y > DF - 1 ? y - 1 : y + 1, p = y + DF < h ? y + 1 : y - 1;
  int m3 = y > 3 * DF - 1 ? y - 3 : y + 1, p3 = y + 3 * DF < h ? y + 3 : y - 1;

  return clip ((5077 * (at (c, C, x, m) + at (c, C, x, p)) -
          981 * (at (c, C, x, m3) + at (c, C, x, p3))) >> 13, c.max);
}

CFX_HD_INLINE int
bwdif (const Comp16 & c, int a, int b, int x, int y)
{
  int h = c.height;
  bool edge = y < 4 || y + 5 > h;
  bool check = !edge || !(y < 2 || y + 3 > h);
  int m = edge ? (y > DF - 1 ? y - 1 : y + 1) : y - 1;
  int p = edge ? (y + DF < h ? y + 1 : y - 1) : y + 1;
  BwdifIn v;

  v.cm = at (c, C, x, m);
  v.cp = at (c, C, x, p);
  v.t = temporal_in (c, a, b, x, y, m, p);
  v.abm2 = check ? ab_sum (c, a, b, x, y - 2) : 0;
  v.abp2 = check ? ab_sum (c, a, b, x, y + 2) : 0;
  v.abm4 = edge ? 0 : ab_sum (c, a, b, x, y - 4);
  v.abp4 = edge ? 0 : ab_sum (c, a, b, x, y + 4);
  v.cm3 = edge ? 0 : at (c, C, x, y - 3);
  v.cp3 = edge ? 0 : at (c, C, x, y + 3);
  return bwdif_value (v, edge, check, c.max);
}

/* bwdif's first and last fields of a stream (FFmpeg 6.1 to 8.x): rows
 * y < 3 and y + 3 >= h by the edge rule of the other fields (A, B, P and
 * N as the stream's ends pass them; whatever the depth), the rows between
 * by C's intra filter */
CFX_HD_INLINE int
bwdif_end (const Comp16 & c, int a, int b, int x, int y)
{
  if (y < 3 || y + 3 >= c.height)
    return bwdif (c, a, b, x, y);
  return bwdif_intra (c, x, y);
}

/* ---- the windows ----------------------------------------------------- */

/* bwdif's window at interpolated row y (4 <= y <= h - 5): C at y - 3,
 * y - 1, y + 1 and y + 3, A and B at y - 4 .. y + 4 (even), P and N at
 * y - 1 and y + 1 */
struct BwdifWindow
{
  int c[4];
  int a[5], b[5];
  int pm, pp, nm, np;
};

CFX_HD_INLINE void
bwdif_fill (BwdifWindow & w, const Comp16 & c, int a, int b, int x, int y)
{
  for (int k = 0; k < 4; k++)
    w.c[k] = at (c, C, x, y - 3 + 2 * k);
  for (int k = 0; k < 5; k++) {
    w.a[k] = at (c, a, x, y - 4 + 2 * k);
    w.b[k] = at (c, b, x, y - 4 + 2 * k);
  }
  w.pm = at (c, P, x, y - 1);
  w.nm = at (c, N, x, y - 1);
  w.pp = at (c, P, x, y + 1);
  w.np = at (c, N, x, y + 1);
}

CFX_HD_INLINE void
bwdif_slide (BwdifWindow & w, const Comp16 & c, int a, int b, int x, int y)
{
  for (int k = 0; k < 3; k++)
    w.c[k] = w.c[k + 1];
  w.c[3] = at (c, C, x, y + 3);
  for (int k = 0; k < 4; k++) {
    w.a[k] = w.a[k + 1];
    w.b[k] = w.b[k + 1];
  }
  w.a[4] = at (c, a, x, y + 4);
  w.b[4] = at (c, b, x, y + 4);
  w.pm = w.pp;
  w.nm = w.np;
  w.pp = at (c, P, x, y + 1);
  w.np = at (c, N, x, y + 1);
}

CFX_HD_INLINE int
bwdif_window_value (const BwdifWindow & w, int max)
{
  BwdifIn v;

  v.cm = w.c[1];
  v.cp = w.c[2];
  v.cm3 = w.c[0];
  v.cp3 = w.c[3];
  v.t.a = w.a[2];
  v.t.b = w.b[2];
  v.abm2 = w.a[1] + w.b[1];
  v.abp2 = w.a[3] + w.b[3];
  v.abm4 = w.a[0] + w.b[0];
  v.abp4 = w.a[4] + w.b[4];
  v.t.pm = w.pm;
  v.t.pp = w.pp;
  v.t.nm = w.nm;
  v.t.np = w.np;
  return bwdif_value (v, false, true, max);
}

CFX_HD_INLINE void
bwdif_fill2 (BwdifWindow * w, const Comp16 & c, int a, int b, int x, int y)
{
  for (int k = 0; k < 4; k++)
    at2 (c, C, x, y - 3 + 2 * k, &w[0].c[k], &w[1].c[k]);
  for (int k = 0; k < 5; k++) {
    at2 (c, a, x, y - 4 + 2 * k, &w[0].a[k], &w[1].a[k]);
    at2 (c, b, x, y - 4 + 2 * k, &w[0].b[k], &w[1].b[k]);
  }
  at2 (c, P, x, y - 1, &w[0].pm, &w[1].pm);
  at2 (c, N, x, y - 1, &w[0].nm, &w[1].nm);
  at2 (c, P, x, y + 1, &w[0].pp, &w[1].pp);
  at2 (c, N, x, y + 1, &w[0].np, &w[1].np);
}

CFX_HD_INLINE void
bwdif_slide2 (BwdifWindow * w, const Comp16 & c, int a, int b, int x, int y)
{
  for (int j = 0; j < 2; j++) {
    for (int k = 0; k < 3; k++)
      w[j].c[k] = w[j].c[k + 1];
    for (int k = 0; k < 4; k++) {
      w[j].a[k] = w[j].a[k + 1];
      w[j].b[k] = w[j].b[k + 1];
    }
    w[j].pm = w[j].pp;
    w[j].nm = w[j].np;
  }
  at2 (c, C, x, y + 3, &w[0].c[3], &w[1].c[3]);
  at2 (c, a, x, y + 4, &w[0].a[4], &w[1].a[4]);
  at2 (c, b, x, y + 4, &w[0].b[4], &w[1].b[4]);
  at2 (c, P, x, y + 1, &w[0].pp, &w[1].pp);
  at2 (c, N, x, y + 1, &w[0].np, &w[1].np);
}

}                               /* namespace */

#endif
