/* Deinterlace kernels, part 4 of 5 (one per method family): bwdif. The
 * arithmetic of one interpolated word (the cubic and spatial predictors,
 * the intra-field filter of the first and last fields), then a thread's
 * strip: the sliding window over the rows inside the frame and the slow
 * path for the rows near its top and bottom (which the first and last
 * fields share with the others, as FFmpeg 6.1 to 8.x do). */
#ifndef CFX_DEINTERLACE_BWDIF_CUH
#define CFX_DEINTERLACE_BWDIF_CUH

#include "deinterlace-temporal.cuh"

namespace
{

/* ---- bwdif -------------------------------------------------------------- */

/* 13-bit fixed point coefficients as 16-bit lanes, for the (A, B) byte
 * pairs of a row and for the (c, c3) pairs of C's rows m and m3 (or p
 * and p3):
 *   spatial:  (5077 (c + e) - 981 (c3 + c3')) >> 13
 *           = (4 * that sum) >> 15
 *   cubic:    ((hf >> 2) + 4309 (c + e) - 213 (c3 + c3')) >> 13
 *           = (hf + 4 * (4309 (c + e) - 213 (c3 + c3'))) >> 15
 *           = (4 * spatial sum + hfx) >> 15,
 *   hfx = hf - 3072 (c + e) + 3072 (c3 + c3') (floor (floor (x / 4) / 8192)
 *   = floor (x / 32768)), so the choice between the two is whether hfx is
 *   added, and both are one chain of dot products. */
#define BW_HF0 coef (5570)
#define BW_HF1 coef (-3801)
#define BW_HF2 coef (1016)
#define BW_HFX coef2 (-3072, 3072)
#define BW_SP4 coef2 (4 * 5077, 4 * -981)
#define BW_SP coef2 (5077, -981)

/* Everything one interpolated word needs: C's rows y-3, m, p, y+3 (raw
 * and m, p as lanes), the (A, B) byte pairs at y-4 .. y+4 (the cubic,
 * not on edge rows), the temporal part */
struct BwIn
{
  u32 c[4];
  Half c16[2];
  Pairs ab[5];
  Temporal t;
};

/* bwdif's prediction for the 4 samples (not on edge rows): the cubic
 * with the high-frequency temporal term where |c - e| > td0 (t < 0), the
 * spatial cubic elsewhere */
CFX_HD Half
bwdif_predict (const BwIn & in, const Half & t)
{
  Pairs pm = pairs (in.c[1], in.c[0]), pp = pairs (in.c[2], in.c[3]);
  int v[4];

UNROLL
  for (int k = 0; k < 4; k++) {
    const int w = k >> 1;
    const bool hi = k & 1;
    int hfx = dot2 (BW_HF0, in.ab[2].w[w], hi,
        dot2 (BW_HF1, in.ab[1].w[w], hi,
            dot2 (BW_HF1, in.ab[3].w[w], hi,
                dot2 (BW_HF2, in.ab[0].w[w], hi,
                    dot2 (BW_HF2, in.ab[4].w[w], hi,
                        dot2 (BW_HFX, pm.w[w], hi,
                            dot2 (BW_HFX, pp.w[w], hi, 0)))))));
    /* sample k's lane: lane k / 2 of the even or odd half */
    u32 cubic = prmt (hi ? t.o : t.e, 0, w ? 0xbbbb : 0x9999);

    v[k] = dot2 (BW_SP4, pm.w[w], hi, dot2 (BW_SP4, pp.w[w], hi,
            hfx & (int) cubic)) >> 15;
  }
  return lanes_of (v);
}

template < bool EDGE, bool CHECK > CFX_HD u32
bwdif_word (const BwIn & in)
{
  Half td, v, out;
  Half diff0 = temporal_half (in.t, td), diff = diff0;

  if (CHECK) {
    diff = check_half (in.t, diff0, in.c16[0], in.c16[1]);
    /* diff 0 before the check: the weave value, whatever the check says */
    diff.e = minu2 (diff.e, diff0.e << 8);
    diff.o = minu2 (diff.o, diff0.o << 8);
  }
  if (EDGE) {
    v = unpack (hadd4 (in.c[1], in.c[2]));
  } else {
    Half ce = unpack (absdiff4 (in.c[1], in.c[2])), t;

    t.e = sub2 (td.e, ce.e);
    t.o = sub2 (td.o, ce.o);
    v = bwdif_predict (in, t);
  }
  out.e = clamp_temporal (v.e, in.t.d[1].e, diff.e);
  out.o = clamp_temporal (v.o, in.t.d[1].o, diff.o);
  return pack (out);
}

/* bwdif's first and last fields: C alone, rows m3, m, p, p3 */
CFX_HD u32
bwdif_intra_word (u32 m3, u32 m, u32 p, u32 p3)
{
  Pairs pm = pairs (m, m3), pp = pairs (p, p3);
  int s[4];
  Half v;

UNROLL
  for (int k = 0; k < 4; k++)
    s[k] = dot2 (BW_SP, pm.w[k >> 1], k & 1,
        dot2 (BW_SP, pp.w[k >> 1], k & 1, 0)) >> 13;
  v = lanes_of (s);
  v.e = min2 (max_relu (v.e, 0), 0x00ff00ffu);
  v.o = min2 (max_relu (v.o, 0), 0x00ff00ffu);
  return pack (v);
}

/* bwdif's window: one of C's rows (its word; at m and p also as lanes,
 * with |P - C| and |N - C|) and one of the rows of A and B (byte pairs,
 * mean, |A - B|) */
struct BwRow
{
  u32 c;
  Half c16, ap, an;
};

struct BwAb
{
  Pairs ab;
  Half d;
  u32 td;
};

CFX_HD void
bw_absorb_ab (BwAb & r, u32 a, u32 b)
{
  r.ab = pairs (a, b);
  r.d = mean_of (a, b);
  r.td = absdiff4 (a, b);
}

/* One step of bwdif's window at row y: C's rows y - 3, y - 1 (ready),
 * y + 1 (its P and N words np, nn loaded a step ahead), y + 3 (loaded a
 * step ahead), c4 free; A and B's rows y - 4 .. y + 4 (ready). Loads the
 * next step's rows (C at y + 5 into c4, P and N at y + 3) and, once the
 * word is written, makes a0 the row y + 6 from na, nb (loaded a step
 * ahead) and loads A and B at y + 8. Rows are clamped into the frame (the
 * last step's loads are not used). */
template < int MODE > CFX_HD void
bwdif_step (const View & v, int y, int par, const BwRow & c0,
    const BwRow & c1, BwRow & c2, const BwRow & c3, BwRow & c4, BwAb & a0,
    const BwAb & a1, const BwAb & a2, const BwAb & a3, const BwAb & a4,
    u32 & np, u32 & nn, u32 & na, u32 & nb)
{
  const int last = v.height - 1;
  BwIn in;

  c2.c16 = unpack (c2.c);
  c2.ap = unpack (absdiff4 (np, c2.c));
  c2.an = unpack (absdiff4 (nn, c2.c));
  c4.c = ld < MODE > (v, FC, imin (y + 5, last));
  np = ld < MODE > (v, FP, imin (y + 3, last));
  nn = ld < MODE > (v, FN, imin (y + 3, last));

  in.c[0] = c0.c;
  in.c[1] = c1.c;
  in.c[2] = c2.c;
  in.c[3] = c3.c;
  in.c16[0] = c1.c16;
  in.c16[1] = c2.c16;
  in.ab[0] = a0.ab;
  in.ab[1] = a1.ab;
  in.ab[2] = a2.ab;
  in.ab[3] = a3.ab;
  in.ab[4] = a4.ab;
  in.t.ap[0] = c1.ap;
  in.t.ap[1] = c2.ap;
  in.t.an[0] = c1.an;
  in.t.an[1] = c2.an;
  in.t.d[0] = a1.d;
  in.t.d[1] = a2.d;
  in.t.d[2] = a3.d;
  in.t.td0 = a2.td;
  st < MODE > (v, y, bwdif_word < false, true > (in));
  st < MODE > (v, y - 1 + 2 * par, par ? c2.c : c1.c);

  bw_absorb_ab (a0, na, nb);
  na = ld < MODE > (v, FA, imin (y + 8, last));
  nb = ld < MODE > (v, FB, imin (y + 8, last));
}

/* bwdif: the window over pairs fa .. fb - 1 (4 <= y, y + 5 <= h). Each
 * step's new rows are loaded a step ahead, so that their latency hides
 * behind a step of arithmetic; the window's rows rotate through five sets
 * of registers (five steps a loop: no copies). */
template < int MODE > CFX_HD void
bwdif_run (const Strip & s, const View & v)
{
  const int par = s.par, last = v.height - 1;
  int k = s.fa, y = 2 * k + 1 - par;
  BwRow c0, c1, c2, c3, c4;
  BwAb a0, a1, a2, a3, a4;

  c0.c = ld < MODE > (v, FC, y - 3);
  c1.c = ld < MODE > (v, FC, y - 1);
  c1.c16 = unpack (c1.c);
  c1.ap = against_c < MODE > (v, FP, y - 1, c1.c);
  c1.an = against_c < MODE > (v, FN, y - 1, c1.c);
  c2.c = ld < MODE > (v, FC, y + 1);
  c3.c = ld < MODE > (v, FC, y + 3);
  bw_absorb_ab (a0, ld < MODE > (v, FA, y - 4), ld < MODE > (v, FB, y - 4));
  bw_absorb_ab (a1, ld < MODE > (v, FA, y - 2), ld < MODE > (v, FB, y - 2));
  bw_absorb_ab (a2, ld < MODE > (v, FA, y), ld < MODE > (v, FB, y));
  bw_absorb_ab (a3, ld < MODE > (v, FA, y + 2), ld < MODE > (v, FB, y + 2));
  bw_absorb_ab (a4, ld < MODE > (v, FA, y + 4), ld < MODE > (v, FB, y + 4));
  /* loaded ahead: P and N at y + 1, A and B at y + 6 */
  u32 np = ld < MODE > (v, FP, y + 1), nn = ld < MODE > (v, FN, y + 1);
  u32 na = ld < MODE > (v, FA, imin (y + 6, last));
  u32 nb = ld < MODE > (v, FB, imin (y + 6, last));

#define BW_STEP(c0, c1, c2, c3, c4, a0, a1, a2, a3, a4) \
    bwdif_step < MODE > (v, y, par, c0, c1, c2, c3, c4, a0, a1, a2, a3, a4, \
        np, nn, na, nb); \
    if (++k == s.fb) \
      return; \
    y += 2
NO_UNROLL
  for (;;) {
    BW_STEP (c0, c1, c2, c3, c4, a0, a1, a2, a3, a4);
    BW_STEP (c1, c2, c3, c4, c0, a1, a2, a3, a4, a0);
    BW_STEP (c2, c3, c4, c0, c1, a2, a3, a4, a0, a1);
    BW_STEP (c3, c4, c0, c1, c2, a3, a4, a0, a1, a2);
    BW_STEP (c4, c0, c1, c2, c3, a4, a0, a1, a2, a3);
  }
#undef BW_STEP
}

/* bwdif's edge rows (y < 4 or y + 5 > h): the page's mirrored m and p,
 * no cubic */
template < int MODE > CFX_HD void
bwdif_edge (const View & v, int y)
{
  const int h = v.height;
  BwIn e = { };
  int m = y > 0 ? y - 1 : y + 1, p = y + 1 < h ? y + 1 : y - 1;
  u32 a = ld < MODE > (v, FA, y), b = ld < MODE > (v, FB, y);

  e.c[1] = ld < MODE > (v, FC, m);
  e.c[2] = ld < MODE > (v, FC, p);
  e.c16[0] = unpack (e.c[1]);
  e.c16[1] = unpack (e.c[2]);
  e.t.d[1] = mean_of (a, b);
  e.t.td0 = absdiff4 (a, b);
  e.t.ap[0] = against_c < MODE > (v, FP, m, e.c[1]);
  e.t.ap[1] = against_c < MODE > (v, FP, p, e.c[2]);
  e.t.an[0] = against_c < MODE > (v, FN, m, e.c[1]);
  e.t.an[1] = against_c < MODE > (v, FN, p, e.c[2]);
  if (!(y < 2 || y + 3 > h)) {
    e.t.d[0] = mean_of (ld < MODE > (v, FA, y - 2),
        ld < MODE > (v, FB, y - 2));
    e.t.d[2] = mean_of (ld < MODE > (v, FA, y + 2),
        ld < MODE > (v, FB, y + 2));
    st < MODE > (v, y, bwdif_word < true, true > (e));
  } else {
    st < MODE > (v, y, bwdif_word < true, false > (e));
  }
}

/* bwdif, one pair with every row loaded (the rows near the top and
 * bottom, the columns that need checks) */
template < int MODE > CFX_HD void
bwdif_slow (int par, const View & v, int k)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y >= 4 && y + 5 <= h) {
    BwIn w = { };

UNROLL
    for (int r = 0; r < 4; r++)
      w.c[r] = ld < MODE > (v, FC, y - 3 + 2 * r);
    w.c16[0] = unpack (w.c[1]);
    w.c16[1] = unpack (w.c[2]);
UNROLL
    for (int r = 0; r < 5; r++) {
      u32 a = ld < MODE > (v, FA, y - 4 + 2 * r);
      u32 b = ld < MODE > (v, FB, y - 4 + 2 * r);

      w.ab[r] = pairs (a, b);
      if (r >= 1 && r <= 3)
        w.t.d[r - 1] = mean_of (a, b);
      if (r == 2)
        w.t.td0 = absdiff4 (a, b);
    }
    w.t.ap[0] = against_c < MODE > (v, FP, y - 1, w.c[1]);
    w.t.ap[1] = against_c < MODE > (v, FP, y + 1, w.c[2]);
    w.t.an[0] = against_c < MODE > (v, FN, y - 1, w.c[1]);
    w.t.an[1] = against_c < MODE > (v, FN, y + 1, w.c[2]);
    st < MODE > (v, y, bwdif_word < false, true > (w));
  } else if (y < h) {
    bwdif_edge < MODE > (v, y);
  }
  copy_row < MODE > (v, 2 * k + par);
}

/* bwdif's first and last fields: the window over 3 <= y, y + 4 <= h,
 * the rows of C's intra filter */
template < int MODE > CFX_HD void
bwdif_intra_run (const Strip & s, const View & v)
{
  const int par = s.par, last = v.height - 1;
  int k = s.fa, y = 2 * k + 1 - par;
  /* q[i]: C's row y - 3 + 2i; the rows after y + 3 are loads in flight */
  u32 q[3 + PREFETCH];

UNROLL
  for (int i = 0; i < 3 + PREFETCH; i++)
    q[i] = ld < MODE > (v, FC, imin (y - 3 + 2 * i, last));
NO_UNROLL
  for (;;) {
    st < MODE > (v, y, bwdif_intra_word (q[0], q[1], q[2], q[3]));
    st < MODE > (v, y - 1 + 2 * par, par ? q[2] : q[1]);
    if (++k == s.fb)
      return;
    y += 2;
UNROLL
    for (int i = 0; i < 2 + PREFETCH; i++)
      q[i] = q[i + 1];
    q[2 + PREFETCH] = ld < MODE > (v, FC, imin (y + 1 + 2 * PREFETCH, last));
  }
}

/* bwdif's first and last fields off the window: FFmpeg (6.1 to 8.x)
 * gives rows y < 3 and y + 3 >= h the edge rule of the other fields
 * (A, B, P and N as the stream's ends pass them), the rows between C's
 * intra filter */
template < int MODE > CFX_HD void
bwdif_intra_slow (int par, const View & v, int k)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h) {
    if (y < 3 || y + 3 >= h)
      bwdif_edge < MODE > (v, y);
    else
      st < MODE > (v, y, bwdif_intra_word (ld < MODE > (v, FC, y - 3),
              ld < MODE > (v, FC, y - 1), ld < MODE > (v, FC, y + 1),
              ld < MODE > (v, FC, y + 3)));
  }
  copy_row < MODE > (v, 2 * k + par);
}

}                               /* namespace */
#endif
