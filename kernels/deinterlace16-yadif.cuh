/* 16-bit deinterlace kernels, part 3 of 4 (one per method family): yadif.
 * The arithmetic of one output sample, with every stencil row read from
 * memory (edge rows) or from the one-column window; then two columns (or
 * P010's twins) at once in 16-bit lanes: their window and their steps by
 * pointers. */
#ifndef CFX_DEINTERLACE16_YADIF_CUH
#define CFX_DEINTERLACE16_YADIF_CUH

#include "deinterlace16-temporal.cuh"

namespace
{

/* The samples yadif reads for one output: m and p are the rows above and
 * below (mirrored at the edges) */
struct YadifIn
{
  int cm[7], cp[7];             /* C's rows m and p, columns x - 3 .. x + 3 */
  TemporalIn t;
  int abm2, abp2;               /* A + B at rows 2m - y and 2p - y */
};

/* @search: the column is far enough from the sides for the direction
 * search; @check: the spatial check applies */
CFX_HD_INLINE int
yadif_value (const YadifIn & v, bool search, bool check)
{
  Temporal t = temporal (v.t, v.cm[3], v.cp[3]);
  int cm = t.cm, cp = t.cp, d = t.d, diff = t.diff;
  int sp = (cm + cp) >> 1;

  if (search) {
    /* direction j costs three column pairs across the missing row; -2
     * and +2 are tried only after their side's 1 won, and the + side
     * competes with whatever the - side left */
#define COST(j) (iabs (v.cm[2 + (j)] - v.cp[2 - (j)]) \
      + iabs (v.cm[3 + (j)] - v.cp[3 - (j)]) \
      + iabs (v.cm[4 + (j)] - v.cp[4 - (j)]))
#define PRED(j) ((v.cm[3 + (j)] + v.cp[3 - (j)]) >> 1)
    int best = COST (0) - 1, s;

    if ((s = COST (-1)) < best) {
      best = s;
      sp = PRED (-1);
      if ((s = COST (-2)) < best) {
        best = s;
        sp = PRED (-2);
      }
    }
    if ((s = COST (1)) < best) {
      best = s;
      sp = PRED (1);
      if ((s = COST (2)) < best) {
        best = s;
        sp = PRED (2);
      }
    }
#undef COST
#undef PRED
  }
  if (check) {
    int bb = v.abm2 >> 1, ff = v.abp2 >> 1;
    int hi = imax (imax (d - cp, d - cm), imin (bb - cm, ff - cp));
    int lo = imin (imin (d - cp, d - cm), imax (bb - cm, ff - cp));

    diff = imax (imax (diff, lo), -hi);
  }
  return imin (imax (sp, d - diff), d + diff);
}

/* ---- one output sample, every stencil row read from memory ------------ */

/* Row y of frame f at columns x - 3 .. x + 3, clamped (outside yadif's
 * search only the middle one counts) */
CFX_HD_INLINE void
yadif_row (const Comp16 & c, int f, int x, int y, int *row)
{
  for (int i = 0; i < 7; i++)
    row[i] = at (c, f, imin (imax (x + i - 3, 0), c.width - 1), y);
}

CFX_HD_INLINE int
yadif (const Comp16 & c, int a, int b, int spatial_check, int x, int y)
{
  int w = c.width, h = c.height;
  int m = y > 0 ? y - 1 : y + 1, p = y + 1 < h ? y + 1 : y - 1;
  bool check = spatial_check && y != 1 && y + 2 != h;
  YadifIn v;

  yadif_row (c, C, x, m, v.cm);
  yadif_row (c, C, x, p, v.cp);
  v.t = temporal_in (c, a, b, x, y, m, p);
  v.abm2 = check ? ab_sum (c, a, b, x, 2 * m - y) : 0;
  v.abp2 = check ? ab_sum (c, a, b, x, 2 * p - y) : 0;
  return yadif_value (v, 3 <= x && x < w - 3, check);
}

/* ---- the one-column window ------------------------------------------- */

/* yadif's window at interpolated row y (2 <= y <= h - 3): C's rows y - 1
 * and y + 1 at seven columns, A and B at y - 2, y and y + 2, P and N at
 * y - 1 and y + 1 */
struct YadifWindow
{
  YadifIn v;
  int a[3], b[3];               /* rows y - 2, y, y + 2 */
};

CFX_HD_INLINE void
yadif_fill (YadifWindow & w, const Comp16 & c, int a, int b, int x, int y)
{
  yadif_row (c, C, x, y - 1, w.v.cm);
  yadif_row (c, C, x, y + 1, w.v.cp);
  for (int k = 0; k < 3; k++) {
    w.a[k] = at (c, a, x, y - 2 + 2 * k);
    w.b[k] = at (c, b, x, y - 2 + 2 * k);
  }
  w.v.t.pm = at (c, P, x, y - 1);
  w.v.t.nm = at (c, N, x, y - 1);
  w.v.t.pp = at (c, P, x, y + 1);
  w.v.t.np = at (c, N, x, y + 1);
}

/* from row y - 2 to row y: the rows that slide in */
CFX_HD_INLINE void
yadif_slide (YadifWindow & w, const Comp16 & c, int a, int b, int x, int y)
{
  for (int i = 0; i < 7; i++)
    w.v.cm[i] = w.v.cp[i];
  yadif_row (c, C, x, y + 1, w.v.cp);
  w.a[0] = w.a[1];
  w.b[0] = w.b[1];
  w.a[1] = w.a[2];
  w.b[1] = w.b[2];
  w.a[2] = at (c, a, x, y + 2);
  w.b[2] = at (c, b, x, y + 2);
  w.v.t.pm = w.v.t.pp;
  w.v.t.nm = w.v.t.np;
  w.v.t.pp = at (c, P, x, y + 1);
  w.v.t.np = at (c, N, x, y + 1);
}

CFX_HD_INLINE int
yadif_window_value (YadifWindow & w, const Field16 & f, bool search)
{
  w.v.t.a = w.a[1];
  w.v.t.b = w.b[1];
  w.v.abm2 = w.a[0] + w.b[0];
  w.v.abp2 = w.a[2] + w.b[2];
  return yadif_value (w.v, search, f.spatial_check);
}

/* ---- two columns or twins in 16-bit lanes ---------------------------- */

/* yadif on a pair component of at most YADIF_LANES_MAX_DEPTH bits works
 * both columns at once in the signed 16-bit lanes of deinterlace-simd.cuh
 * (lane 0: column x, lane 1: x + 1), the same operations as yadif_value
 * (): every value, the direction costs (at most 3 (2^13 - 1)) and their
 * differences included, stays under 2^15. Deeper samples (P016,
 * Y444_16LE, GRAY16) take one column a thread. */
#define YADIF_LANES_MAX_DEPTH 13

/* whether @c's samples fit yadif's lanes */
CFX_HD_INLINE bool
yadif_lanes_fit (const Comp16 & c)
{
  return c.mask >> YADIF_LANES_MAX_DEPTH == 0;
}

/* whether yadif can take columns x and x + 1 together on @c */
CFX_HD_INLINE bool
yadif_pairs (const Comp16 & c)
{
  return c.pair && yadif_lanes_fit (c);
}

/* Lane words: the pair at x as one 32-bit word, lane 0 and lane 1. Two
 * columns (T false, OWNS_TWO_COLUMNS): columns x and x + 1 (x even) of a
 * planar component. Twins (T true, OWNS_TWINS): the two components of
 * P010's UV plane (step 4, at bytes 0 and 2) at column x, U in lane 0 and
 * V in lane 1. */

/* row y of frame f at the pair x as lanes */
template < bool T > CFX_HD_INLINE u32
lanes_at (const Comp16 & c, int f, int x, int y)
{
  return word_at < T > (c, f, x, y) >> c.shift & c.mask * 0x10001u;
}

CFX_HD_INLINE u32
absdiff2 (u32 a, u32 b)
{
  return max2 (sub2 (a, b), sub2 (b, a));
}

/* C's lane words a row holds around the pair: five aligned words of two
 * columns (x - 4 .. x + 5), or seven of twins (x - 3 .. x + 3) */
template < bool T > constexpr int LANE_WORDS = T ? 7 : 5;

/* C's row y around the pair at x as LANE_WORDS words: k[i] holds columns
 * x - 4 + 2 i and x - 3 + 2 i (two columns; a last column alone in its
 * word, odd width, is read as 16 bits) or column x - 3 + i (twins).
 * Columns outside the plane read 0: the direction search, the only reader
 * of columns other than x's, runs only where 3 <= x' < width - 3 for the
 * sample x' it serves (its lane's mask), so it never uses them */
template < bool T > CFX_HD_INLINE void
yadif_lanes_row (const Comp16 & c, int x, int y, u32 * k)
{
  UNROLL for (int i = 0; i < LANE_WORDS < T >; i++) {
    int xw = T ? x - 3 + i : x - 4 + 2 * i;

    k[i] = 0;
    if (xw >= 0 && xw + !T < c.width)
      k[i] = lanes_at < T > (c, C, xw, y);
    else if (!T && xw >= 0 && xw < c.width)
      k[i] = (u32) at (c, C, xw, y);
  }
}

/* the pair at x + J (-3 <= J <= 3) of such a row */
template < int J, bool T > CFX_HD_INLINE u32
lanes_shifted (const u32 * k)
{
  if (T)
    return k[J + 3];
  if (J & 1)
    return prmt (k[(J + 3) >> 1], k[(J + 5) >> 1], 0x5432);
  return k[(J + 4) >> 1];
}

/* yadif's window for the pair at interpolated row y, as lanes: C's rows
 * y - 1 and y + 1, the means and differences of A and B at y - 2, y and
 * y + 2, |P - C| and |N - C| at y - 1 and y + 1 */
template < bool T > struct YadifLanes
{
  u32 cm[LANE_WORDS < T >], cp[LANE_WORDS < T >];
  u32 d[3];                     /* (A + B) >> 1 */
  u32 td[2];                    /* |A - B| at y and y + 2 */
  u32 pm, nm, pp, np;
};

/* the direction J's cost: three column pairs across the missing row */
template < int J, bool T > CFX_HD_INLINE u32
lanes_cost (const YadifLanes < T > &w)
{
  return add2 (add2 (absdiff2 (lanes_shifted < J - 1, T > (w.cm),
              lanes_shifted < -J - 1, T > (w.cp)),
          absdiff2 (lanes_shifted < J, T > (w.cm),
              lanes_shifted < -J, T > (w.cp))),
      absdiff2 (lanes_shifted < J + 1, T > (w.cm),
          lanes_shifted < 1 - J, T > (w.cp)));
}

/* A and B at row r into the window's mean k (and difference, k > 0) */
template < bool T > CFX_HD_INLINE void
yadif_lanes_ab (YadifLanes < T > &w, const Comp16 & c, int a, int b, int x,
    int r, int k)
{
  u32 va = lanes_at < T > (c, a, x, r), vb = lanes_at < T > (c, b, x, r);

  w.d[k] = half2 (add2 (va, vb));
  if (k > 0)
    w.td[k - 1] = absdiff2 (va, vb);
}

template < bool T > CFX_HD_INLINE void
yadif_lanes_fill (YadifLanes < T > &w, const Comp16 & c, int a, int b,
    int x, int y)
{
  yadif_lanes_row < T > (c, x, y - 1, w.cm);
  yadif_lanes_row < T > (c, x, y + 1, w.cp);
  for (int k = 0; k < 3; k++)
    yadif_lanes_ab (w, c, a, b, x, y - 2 + 2 * k, k);
  const u32 cm = lanes_shifted < 0, T > (w.cm);
  const u32 cp = lanes_shifted < 0, T > (w.cp);

  w.pm = absdiff2 (lanes_at < T > (c, P, x, y - 1), cm);
  w.nm = absdiff2 (lanes_at < T > (c, N, x, y - 1), cm);
  w.pp = absdiff2 (lanes_at < T > (c, P, x, y + 1), cp);
  w.np = absdiff2 (lanes_at < T > (c, N, x, y + 1), cp);
}

/* The rows a step of the window takes in, as lanes: C's row y + 1 around
 * the pair (yadif_lanes_row's words), A and B at y + 2, P and N at y + 1 */
template < bool T > struct LanesStep
{
  u32 c[LANE_WORDS < T >], a, b, p, n;
};

template < bool T > CFX_HD_INLINE void
yadif_lanes_load (LanesStep < T > &s, const Comp16 & c, int a, int b, int x,
    int y)
{
  yadif_lanes_row < T > (c, x, y + 1, s.c);
  s.a = lanes_at < T > (c, a, x, y + 2);
  s.b = lanes_at < T > (c, b, x, y + 2);
  s.p = lanes_at < T > (c, P, x, y + 1);
  s.n = lanes_at < T > (c, N, x, y + 1);
}

/* from row y - 2 to row y: the rows of @s slide in */
template < bool T > CFX_HD_INLINE void
yadif_lanes_push (YadifLanes < T > &w, const LanesStep < T > &s)
{
  for (int i = 0; i < LANE_WORDS < T >; i++) {
    w.cm[i] = w.cp[i];
    w.cp[i] = s.c[i];
  }
  w.d[0] = w.d[1];
  w.d[1] = w.d[2];
  w.td[0] = w.td[1];
  w.d[2] = half2 (add2 (s.a, s.b));
  w.td[1] = absdiff2 (s.a, s.b);
  w.pm = w.pp;
  w.nm = w.np;
  w.pp = absdiff2 (s.p, lanes_shifted < 0, T > (w.cp));
  w.np = absdiff2 (s.n, lanes_shifted < 0, T > (w.cp));
}

/* A pair's rows as pointers that move two rows a step, for P, C and N of
 * one pitch: the steps read no bounds and no field of the launch's
 * components, which the kernel would load from its parameters (indexed
 * by the thread's component) at every use. C's words are read whole, all
 * of yadif_lanes_row's whatever x is: a step reads C's rows 5 to h - 3,
 * so the words before a row's first column and past its last lie in the
 * rows around it, and only the direction search reads them, in lanes it
 * does not take. */
struct LanesRows
{
  const uint8_t *c, *p, *n;     /* the next step's C (at its first lane
                                 * word), P and N: row y + 1 of that step */
  const uint8_t *a, *b;         /* its A and B: row y + 2 */
  uint8_t *dst;                 /* the output row y of this step */
  int pitch, dst_pitch, shift;
  u32 keep;                     /* the significant bits of both lanes */
};

/* whether a thread of @c takes yadif_lanes_rows () */
CFX_HD_INLINE bool
lanes_one_pitch (const Comp16 & c)
{
  return c.pitch[P] == c.pitch[C] && c.pitch[C] == c.pitch[N];
}

/* the rows after yadif_lanes_fill (..., y) */
template < bool T > CFX_HD_INLINE LanesRows
yadif_lanes_rows (const Comp16 & c, int a, int b, int x, int y)
{
  LanesRows r;
  size_t col = pair_offset < T > (x), pitch = (size_t) c.pitch[C];

  r.c = c.frame[C] + (y + 3) * pitch + col - (T ? 12 : 8);
  r.p = c.frame[P] + (y + 3) * pitch + col;
  r.n = c.frame[N] + (y + 3) * pitch + col;
  r.a = c.frame[a] + (y + 4) * pitch + col;
  r.b = c.frame[b] + (y + 4) * pitch + col;
  r.dst = c.dst + (size_t) y * c.dst_pitch + col;
  r.pitch = c.pitch[C];
  r.dst_pitch = c.dst_pitch;
  r.shift = c.shift;
  r.keep = c.mask * 0x10001u;
  return r;
}

/* the next step's rows into @s as read (yadif_lanes_rows_lanes () takes
 * their significant bits where they are used, so that nothing waits for
 * the loads before the step that needs them), and the pointers on to the
 * step after */
template < bool T > CFX_HD_INLINE void
yadif_lanes_rows_load (LanesStep < T > &s, LanesRows & r)
{
  UNROLL for (int i = 0; i < LANE_WORDS < T >; i++)
    s.c[i] = load_word (r.c + 4 * i);
  s.a = load_word (r.a);
  s.b = load_word (r.b);
  s.p = load_word (r.p);
  s.n = load_word (r.n);
  r.c += 2 * r.pitch;
  r.p += 2 * r.pitch;
  r.n += 2 * r.pitch;
  r.a += 2 * r.pitch;
  r.b += 2 * r.pitch;
}

/* the significant bits of yadif_lanes_rows_load ()'s words, as lanes */
template < bool T > CFX_HD_INLINE LanesStep < T >
yadif_lanes_rows_lanes (const LanesStep < T > &s, const LanesRows & r)
{
  LanesStep < T > v;

  for (int i = 0; i < LANE_WORDS < T >; i++)
    v.c[i] = s.c[i] >> r.shift & r.keep;
  v.a = s.a >> r.shift & r.keep;
  v.b = s.b >> r.shift & r.keep;
  v.p = s.p >> r.shift & r.keep;
  v.n = s.n >> r.shift & r.keep;
  return v;
}

/* from row y - 2 to row y: the rows that slide in */
template < bool T > CFX_HD_INLINE void
yadif_lanes_slide (YadifLanes < T > &w, const Comp16 & c, int a, int b,
    int x, int y)
{
  LanesStep < T > s;

  yadif_lanes_load (s, c, a, b, x, y);
  yadif_lanes_push (w, s);
}

/* yadif_value () of both lanes; @inside: 0xffff in the lanes whose
 * column is far enough from the sides for the direction search */
template < bool T > CFX_HD_INLINE u32
yadif_lanes_value (const YadifLanes < T > &w, u32 inside, bool check)
{
  u32 cm = lanes_shifted < 0, T > (w.cm), cp = lanes_shifted < 0, T > (w.cp);
  u32 d = w.d[1];
  u32 diff = half2 (max3 (w.td[0], add2 (w.pm, w.pp), add2 (w.nm, w.np)));
  u32 sm2 = lanes_cost < -2 > (w), sm1 = lanes_cost < -1 > (w);
  u32 sp1 = lanes_cost < 1 > (w), sp2 = lanes_cost < 2 > (w);
  /* the nested search as sign tests: score = S(0) - 1; the -1 side wins
   * where S(-1) < score, then -2 where S(-2) < S(-1); the +1 side
   * competes with whatever the -1 side left */
  u32 score = sub2 (lanes_cost < 0 > (w), 0x00010001u);
  u32 m1 = neg_lanes (sub2 (sm1, score)), m2 = neg_lanes (sub2 (sm2, sm1));
  u32 p1, p2;

  score = min3 (score, sm1, blend (m1, sm2, 0x7fff7fffu));
  p1 = neg_lanes (sub2 (sp1, score)) & inside;
  p2 = neg_lanes (sub2 (sp2, sp1));
  m1 &= inside;

  /* (C[m][x + j] + C[p][x - j]) >> 1 of the winning j */
  u32 va = blend (p1, blend (p2, lanes_shifted < 2, T > (w.cm),
          lanes_shifted < 1, T > (w.cm)), blend (m1, blend (m2,
              lanes_shifted < -2, T > (w.cm), lanes_shifted < -1,
              T > (w.cm)), cm));
  u32 vb = blend (p1, blend (p2, lanes_shifted < -2, T > (w.cp),
          lanes_shifted < -1, T > (w.cp)), blend (m1, blend (m2,
              lanes_shifted < 2, T > (w.cp), lanes_shifted < 1,
              T > (w.cp)), cp));
  u32 sp = half2 (add2 (va, vb));

  if (check) {
    u32 bb = w.d[0], ff = w.d[2];
    u32 lo = min2 (sub2 (d, max2 (cm, cp)), max2 (sub2 (bb, cm),
            sub2 (ff, cp)));
    u32 neg_hi = min2 (sub2 (min2 (cm, cp), d), max2 (sub2 (cm, bb),
            sub2 (cp, ff)));

    diff = max3 (diff, lo, neg_hi);
  }
  return min2 (max2 (sp, sub2 (d, diff)), add2 (d, diff));
}

/* yadif's steps of a pair from row y (its window filled) to @end;
 * returns the row after them. Each step's rows are loaded a step ahead,
 * before the arithmetic of the step they follow. */
template < bool T > CFX_HD_INLINE int
yadif_lanes_steps (YadifLanes < T > &w, LanesRows r, u32 inside,
    bool check, int y, int end, int r1)
{
  LanesStep < T > s = { };
  int steps = (end - y + 1) / 2;

  if (steps > 1)
    yadif_lanes_rows_load (s, r);
  /* two steps an iteration: the window's registers trade places instead
   * of moving */
  UNROLL_TWICE for (int k = 0; k < steps; k++) {
    *(u32 *) r.dst = yadif_lanes_value (w, inside, check) << r.shift;
    if (y + 2 * k + 1 < r1)
      *(u32 *) (r.dst + r.dst_pitch) = lanes_shifted < 0, T > (w.cp) <<
          r.shift;
    r.dst += 2 * r.dst_pitch;
    if (k + 1 < steps)
      yadif_lanes_push (w, yadif_lanes_rows_lanes (s, r));
    if (k + 2 < steps)
      yadif_lanes_rows_load (s, r);
  }
  return y + 2 * steps;
}

/* yadif's window rows (lo <= y < end) of the pair at x, two columns or
 * twins; returns the row after them */
template < bool T > CFX_HD_INLINE int
yadif_lanes_strip (const Comp16 & c, const Field16 & f, int a, int b, int x,
    int y, int end, int r1)
{
  YadifLanes < T > w;
  u32 inside = T ? (3 <= x && x < c.width - 3 ? 0xffffffffu : 0) :
      (3 <= x && x < c.width - 3 ? 0xffffu : 0)
      | (3 <= x + 1 && x + 1 < c.width - 3 ? 0xffff0000u : 0);

  yadif_lanes_fill (w, c, a, b, x, y);
  if (lanes_one_pitch (c))
    return yadif_lanes_steps (w, yadif_lanes_rows < T > (c, a, b, x, y),
        inside, f.spatial_check, y, end, r1);
  for (;;) {
    store_lanes < T > (c, x, y, yadif_lanes_value (w, inside,
            f.spatial_check));
    if (y + 1 < r1)
      store_lanes < T > (c, x, y + 1, lanes_shifted < 0, T > (w.cp));
    y += 2;
    if (y >= end)
      return y;
    yadif_lanes_slide (w, c, a, b, x, y);
  }
}

}                               /* namespace */

#endif
