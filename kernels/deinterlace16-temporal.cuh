/* 16-bit deinterlace kernels, part 2 of 4: the temporal part that yadif
 * and bwdif share, on the samples a stencil reads (the page's diff from
 * P, C, N, A and B). */
#ifndef CFX_DEINTERLACE16_TEMPORAL_CUH
#define CFX_DEINTERLACE16_TEMPORAL_CUH

#include "deinterlace16-memory.cuh"

namespace
{

/* ---- the arithmetic, on the samples a stencil reads ------------------- */

/* What yadif and bwdif share: C's rows m and p (cm, cp) around the
 * output, the temporal prediction d, A and B's difference td0 and the
 * motion bound diff */
struct Temporal
{
  int cm, cp, d, td0, diff;
};

/* The other frames' samples both read for one output */
struct TemporalIn
{
  int a, b;                     /* A and B at the output's row */
  int pm, pp, nm, np;           /* P and N at rows m and p */
};

CFX_HD_INLINE Temporal
temporal (const TemporalIn & v, int cm, int cp)
{
  Temporal t;
  int td1 = (iabs (v.pm - cm) + iabs (v.pp - cp)) >> 1;
  int td2 = (iabs (v.nm - cm) + iabs (v.np - cp)) >> 1;

  t.cm = cm;
  t.cp = cp;
  t.d = (v.a + v.b) >> 1;
  t.td0 = iabs (v.a - v.b);
  t.diff = imax (imax (t.td0 >> 1, td1), td2);
  return t;
}

CFX_HD_INLINE TemporalIn
temporal_in (const Comp16 & c, int a, int b, int x, int y, int m, int p)
{
  TemporalIn v;

  v.a = at (c, a, x, y);
  v.b = at (c, b, x, y);
  v.pm = at (c, P, x, m);
  v.pp = at (c, P, x, p);
  v.nm = at (c, N, x, m);
  v.np = at (c, N, x, p);
  return v;
}

}                               /* namespace */

#endif
