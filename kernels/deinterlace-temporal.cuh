/* Deinterlace kernels, part 3 of 5: the temporal part that yadif and
 * bwdif share (the page's diff from P, C, N, A and B, the spatial check,
 * the clamp of the prediction). */
#ifndef CFX_DEINTERLACE_TEMPORAL_CUH
#define CFX_DEINTERLACE_TEMPORAL_CUH

#include "deinterlace-memory.cuh"

namespace
{

/* ---- shared by yadif and bwdif ------------------------------------------ */

/* (A + B) >> 1 and |A - B| of a row */
CFX_HD Half
mean_of (u32 a, u32 b)
{
  return unpack (hadd4 (a, b));
}

/* max (td0 >> 1, td1, td2) = max (td0, |P - C|m + |P - C|p,
 * |N - C|m + |N - C|p) >> 1, per lane */
CFX_HD u32
temporal_diff (u32 td0, u32 apm, u32 app, u32 anm, u32 anp)
{
  return half2 (max3 (td0, apm + app, anm + anp));
}

/* max (diff, mn, -mx) of the page: mn = min (d - e, d - c, max (b - c,
 * f - e)) = min (d - max (c, e), max (b - c, f - e)), and -mx likewise
 * (a subtraction followed by a min or max is one instruction on sm_90) */
CFX_HD u32
spatial_check (u32 diff, u32 d, u32 c, u32 e, u32 b, u32 f)
{
  u32 mn = min2 (sub2 (d, max2 (c, e)), max2 (sub2 (b, c), sub2 (f, e)));
  u32 nmx = min2 (sub2 (min2 (c, e), d), max2 (sub2 (c, b), sub2 (e, f)));

  return max3 (diff, mn, nmx);
}

/* clip (clamp (v, d - diff, d + diff), 0, 255) per lane */
CFX_HD u32
clamp_temporal (u32 v, u32 d, u32 diff)
{
  return min3 (max_relu (sub2 (d, diff), v), add2 (d, diff), 0x00ff00ffu);
}

/* What the temporal part of both methods reads around row y: P and N
 * against C at rows m and p, the means of A and B */
struct Temporal
{
  Half ap[2], an[2];            /* |P - C|, |N - C| at m, p */
  Half d[3];                    /* means at y - 2 (check), y, y + 2 (check) */
  u32 td0;                      /* |A - B| at y */
};

/* max (td0 >> 1, td1, td2) per lane pair; td: |A - B| at y as lanes */
CFX_HD Half
temporal_half (const Temporal & t, Half & td)
{
  Half diff;

  td = unpack (t.td0);
  diff.e = temporal_diff (td.e, t.ap[0].e, t.ap[1].e, t.an[0].e, t.an[1].e);
  diff.o = temporal_diff (td.o, t.ap[0].o, t.ap[1].o, t.an[0].o, t.an[1].o);
  return diff;
}

/* diff raised by the spatial check, C's rows m and p as lanes */
CFX_HD Half
check_half (const Temporal & t, const Half & diff, const Half & c,
    const Half & e)
{
  Half r;

  r.e = spatial_check (diff.e, t.d[1].e, c.e, e.e, t.d[0].e, t.d[2].e);
  r.o = spatial_check (diff.o, t.d[1].o, c.o, e.o, t.d[0].o, t.d[2].o);
  return r;
}

}                               /* namespace */
#endif
