/* Deinterlace kernels, part 4 of 5 (one per method family): yadif. The
 * direction search and the prediction of one interpolated word, then a
 * thread's strip: the sliding window and the slow path for the edge
 * rows. */
#ifndef CFX_DEINTERLACE_YADIF_CUH
#define CFX_DEINTERLACE_YADIF_CUH

#include "deinterlace-temporal.cuh"

namespace
{

/* ---- yadif -------------------------------------------------------------- */

/* C's rows m and p as their neighbour words W[0 .. 2R] (W[R]: the
 * thread's word; the shifted words are made where they are used, which
 * keeps fewer registers live than 7 shifted words a row) and as lanes */
struct YaIn
{
  u32 wm[7], wp[7];
  Half c16[2];
  Temporal t;
};

/* C[m] and C[p] K samples right of each byte's */
template < int LAYOUT, int K > CFX_HD u32
cm_at (const YaIn & in)
{
  return shifted < LAYOUT, K, reach_of (LAYOUT) > (in.wm);
}

template < int LAYOUT, int K > CFX_HD u32
cp_at (const YaIn & in)
{
  return shifted < LAYOUT, K, reach_of (LAYOUT) > (in.wp);
}

/* S(j) of the page for the 4 samples, as lanes */
template < int LAYOUT, int J > CFX_HD Half
yadif_score (const YaIn & in)
{
  Half s;

  if constexpr (LAYOUT == LAYOUT_PLANAR) {
    /* g(x) = |C[m][x + j] - C[p][x - j]| at x - 1 .. x + 2 and
     * x + 1 .. x + 4: the sums of three neighbours fall out of the even
     * and odd bytes of the two */
    Half a = unpack (absdiff4 (cm_at < LAYOUT, J - 1 > (in),
            cp_at < LAYOUT, -1 - J > (in)));
    Half b = unpack (absdiff4 (cm_at < LAYOUT, J + 1 > (in),
            cp_at < LAYOUT, 1 - J > (in)));
    s.e = a.e + a.o + b.e;
    s.o = a.o + b.e + b.o;
  } else {
    Half a = unpack (absdiff4 (cm_at < LAYOUT, J - 1 > (in),
            cp_at < LAYOUT, -1 - J > (in)));
    Half b = unpack (absdiff4 (cm_at < LAYOUT, J > (in),
            cp_at < LAYOUT, -J > (in)));
    Half c = unpack (absdiff4 (cm_at < LAYOUT, J + 1 > (in),
            cp_at < LAYOUT, 1 - J > (in)));
    s.e = a.e + b.e + c.e;
    s.o = a.o + b.o + c.o;
  }
  return s;
}

/* the masks of one side of the search: first (S(j1) < score) and then
 * second (S(j2) < S(j1)) */
struct Side
{
  Half first, second;
};

template < int LAYOUT, bool EDGE, bool CHECK > CFX_HD u32
yadif_word (const YaIn & in, u32 inside)
{
  Half td, out;
  Half diff = temporal_half (in.t, td);
  Half sm2 = yadif_score < LAYOUT, -2 > (in);
  Half sm1 = yadif_score < LAYOUT, -1 > (in);
  Half s0 = yadif_score < LAYOUT, 0 > (in);
  Half sp1 = yadif_score < LAYOUT, 1 > (in);
  Half sp2 = yadif_score < LAYOUT, 2 > (in);
  Side m, p;

  if (CHECK)
    diff = check_half (in.t, diff, in.c16[0], in.c16[1]);
  /* the page's nested search as sign tests: score = S(0) - 1; the -1
   * side wins where S(-1) < score, then -2 where S(-2) < S(-1); the +1
   * side compares against the score the -1 side left */
#define SEARCH(h) do { \
    u32 score = sub2 (s0.h, 0x00010001u); \
    m.first.h = sub2 (sm1.h, score); \
    m.second.h = sub2 (sm2.h, sm1.h); \
    score = min3 (score, sm1.h, \
        blend (neg_lanes (m.first.h), sm2.h, 0x7fff7fffu)); \
    p.first.h = sub2 (sp1.h, score); \
    p.second.h = sub2 (sp2.h, sp1.h); \
  } while (0)
  SEARCH (e);
  SEARCH (o);
#undef SEARCH

  u32 m1 = neg_bytes (m.first), m2 = neg_bytes (m.second);
  u32 p1 = neg_bytes (p.first), p2 = neg_bytes (p.second);

  if (EDGE) {
    /* no search outside 3 <= x < w - 3 */
    m1 &= inside;
    p1 &= inside;
  }
  /* V(j) = (C[m][x + j] + C[p][x - j]) >> 1 of the winning j */
  u32 a = blend (p1, blend (p2, cm_at < LAYOUT, 2 > (in),
          cm_at < LAYOUT, 1 > (in)), blend (m1, blend (m2,
              cm_at < LAYOUT, -2 > (in), cm_at < LAYOUT, -1 > (in)),
          cm_at < LAYOUT, 0 > (in)));
  u32 b = blend (p1, blend (p2, cp_at < LAYOUT, -2 > (in),
          cp_at < LAYOUT, -1 > (in)), blend (m1, blend (m2,
              cp_at < LAYOUT, 2 > (in), cp_at < LAYOUT, 1 > (in)),
          cp_at < LAYOUT, 0 > (in)));
  Half sp = unpack (hadd4 (a, b));

  out.e = clamp_temporal (sp.e, in.t.d[1].e, diff.e);
  out.o = clamp_temporal (sp.o, in.t.d[1].o, diff.o);
  return pack (out);
}

/* yadif's window: one of C's rows (its neighbour words, its own word as
 * lanes, |P - C| and |N - C| there) and one of the means of A and B with
 * |A - B| */
struct YaRow
{
  u32 w[7];
  Half c16, ap, an;
};

struct YaMean
{
  Half d;
  u32 td;
};

/* C's row from its words and P's and N's words there */
template < int R > CFX_HD void
ya_absorb (YaRow & r, u32 p, u32 n)
{
  r.c16 = unpack (r.w[R]);
  r.ap = unpack (absdiff4 (p, r.w[R]));
  r.an = unpack (absdiff4 (n, r.w[R]));
}

/* One step of yadif's window at row y: rows m = y - 1 (ready), p = y + 1
 * (its words loaded a step ahead), the means at y - 2 and y (ready) and
 * y + 2 (from na, nb loaded a step ahead). Loads the next step's rows
 * into z (C at y + 3; no lower than h - 2: MODE_EDGE) and na, nb (A and
 * B at y + 4), np, nn (P and N at y + 3), rows clamped into the frame
 * (the last step's are not used). */
template < int LAYOUT, int MODE, bool SPATIAL > CFX_HD void
yadif_step (const View & v, int y, int par, u32 inside, const YaRow & m,
    YaRow & p, YaRow & z, const YaMean & d0, const YaMean & d1,
    YaMean & d2, u32 & na, u32 & nb, u32 & np, u32 & nn)
{
  constexpr int R = reach_of (LAYOUT);
  const int last = v.height - 1;
  YaIn in;

  ya_absorb < R > (p, np, nn);
  d2.d = mean_of (na, nb);
  d2.td = absdiff4 (na, nb);
  c_words < R, MODE > (v, imin (y + 3, last - 1), z.w);
  na = ld < MODE > (v, FA, imin (y + 4, last));
  nb = ld < MODE > (v, FB, imin (y + 4, last));
  np = ld < MODE > (v, FP, imin (y + 3, last));
  nn = ld < MODE > (v, FN, imin (y + 3, last));

UNROLL
  for (int i = 0; i <= 2 * R; i++) {
    in.wm[i] = m.w[i];
    in.wp[i] = p.w[i];
  }
  in.c16[0] = m.c16;
  in.c16[1] = p.c16;
  in.t.ap[0] = m.ap;
  in.t.ap[1] = p.ap;
  in.t.an[0] = m.an;
  in.t.an[1] = p.an;
  in.t.d[0] = d0.d;
  in.t.d[1] = d1.d;
  in.t.d[2] = d2.d;
  in.t.td0 = d1.td;
  st < MODE > (v, y, yadif_word < LAYOUT, MODE != MODE_FAST,
      SPATIAL > (in, inside));
  st < MODE > (v, y - 1 + 2 * par, par ? p.w[R] : m.w[R]);
}

/* yadif: the window over 2 <= y, y + 3 <= h. MODE_EDGE: columns where
 * an edge rule may apply; inside: the samples where the search runs.
 * Each step's new rows are loaded a step ahead; the window's rows rotate
 * through three sets of registers (three steps a loop: no copies). */
template < int LAYOUT, int MODE, bool SPATIAL > CFX_HD void
yadif_run (const Strip & s, const View & v, u32 inside)
{
  constexpr int R = reach_of (LAYOUT);
  const int par = s.par;
  int k = s.fa, y = 2 * k + 1 - par;
  YaRow r0, r1, r2;
  YaMean m0, m1, m2;

  c_words < R, MODE > (v, y - 1, r0.w);
  ya_absorb < R > (r0, ld < MODE > (v, FP, y - 1), ld < MODE > (v, FN,
          y - 1));
  m0.d = mean_of (ld < MODE > (v, FA, y - 2), ld < MODE > (v, FB, y - 2));
  m0.td = 0;
  u32 a = ld < MODE > (v, FA, y), b = ld < MODE > (v, FB, y);
  m1.d = mean_of (a, b);
  m1.td = absdiff4 (a, b);
  /* loaded ahead: C, P and N at y + 1, A and B at y + 2 */
  c_words < R, MODE > (v, y + 1, r1.w);
  u32 na = ld < MODE > (v, FA, y + 2), nb = ld < MODE > (v, FB, y + 2);
  u32 np = ld < MODE > (v, FP, y + 1), nn = ld < MODE > (v, FN, y + 1);

NO_UNROLL
  for (;;) {
    yadif_step < LAYOUT, MODE, SPATIAL > (v, y, par, inside, r0, r1, r2,
        m0, m1, m2, na, nb, np, nn);
    if (++k == s.fb)
      return;
    y += 2;
    yadif_step < LAYOUT, MODE, SPATIAL > (v, y, par, inside, r1, r2, r0,
        m1, m2, m0, na, nb, np, nn);
    if (++k == s.fb)
      return;
    y += 2;
    yadif_step < LAYOUT, MODE, SPATIAL > (v, y, par, inside, r2, r0, r1,
        m2, m0, m1, na, nb, np, nn);
    if (++k == s.fb)
      return;
    y += 2;
  }
}

/* yadif's edge rows: the page's mirrored m, p, m2, p2 */
template < int LAYOUT, int MODE > CFX_HD void
yadif_slow (int par, const View & v, int k, bool spatial, u32 inside)
{
  constexpr int R = reach_of (LAYOUT);
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h) {
    YaIn e = { };
    int m = y > 0 ? y - 1 : y + 1, p = y + 1 < h ? y + 1 : y - 1;
    int m2 = y + 2 * (m - y), p2 = y + 2 * (p - y);
    u32 a = ld < MODE > (v, FA, y), b = ld < MODE > (v, FB, y);

    c_words < R, MODE > (v, m, e.wm);
    c_words < R, MODE > (v, p, e.wp);
    e.c16[0] = unpack (e.wm[R]);
    e.c16[1] = unpack (e.wp[R]);
    e.t.d[1] = mean_of (a, b);
    e.t.td0 = absdiff4 (a, b);
    e.t.ap[0] = against_c < MODE > (v, FP, m, e.wm[R]);
    e.t.ap[1] = against_c < MODE > (v, FP, p, e.wp[R]);
    e.t.an[0] = against_c < MODE > (v, FN, m, e.wm[R]);
    e.t.an[1] = against_c < MODE > (v, FN, p, e.wp[R]);
    if (spatial && !(y == 1 || y + 2 == h)) {
      e.t.d[0] = mean_of (ld < MODE > (v, FA, m2), ld < MODE > (v, FB, m2));
      e.t.d[2] = mean_of (ld < MODE > (v, FA, p2), ld < MODE > (v, FB, p2));
      st < MODE > (v, y, yadif_word < LAYOUT, MODE != MODE_FAST,
          true > (e, inside));
    } else {
      st < MODE > (v, y, yadif_word < LAYOUT, MODE != MODE_FAST,
          false > (e, inside));
    }
  }
  copy_row < MODE > (v, 2 * k + par);
}

}                               /* namespace */
#endif
