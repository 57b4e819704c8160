/* Deinterlacing of 10 to 16-bit samples: yadif and bwdif as FFmpeg 5.1's
 * two-byte CPU filters compute them, ELA and linear as for 8-bit
 * (kernels/deinterlace.md, "High bit depth"). The 8-bit kernels
 * (deinterlace.cu) work four samples to a register; here a thread owns
 * one sample column of one component, or two adjacent ones where the
 * component allows, and walks down a strip of their rows.
 *
 * Samples are 16-bit words holding @depth significant bits @shift bits
 * up (I420_10LE: 10 at 0; P010: 10 at 6); the other bits are ignored on
 * input and 0 on output, copied rows included. Words are read and written
 * whole: planes and pitches must be 2-byte aligned, as every 16-bit frame
 * is.
 *
 * Floor: as the 8-bit kernels, 2.5 frames read and 1 written for yadif
 * and bwdif, at 2 bytes a sample (4K I420_10LE: 87 MB, about 30 us on an
 * H100); ELA, linear and bwdif's intra fields 1 + 1.
 *
 * Access pattern: one launch for every component, a flat range of blocks
 * each; a block is 32 threads across by 4 strips. bwdif and yadif on a
 * planar component (step 2: I420_10LE, I422_10LE, Y444_10LE/16LE,
 * GRAY16, P010's luma) whose four planes' data and pitches are all 4-byte
 * aligned: a thread owns columns x and x + 1 (x even) and reads and
 * writes each row of them as one 32-bit word, so a warp's loads and
 * stores of a row are 128 contiguous bytes; an odd width's last column
 * takes the one-column code. yadif also takes P010's U and V as twins: a
 * thread owns column x of both, one 32-bit word a row (U in the low half),
 * and the V component gets no threads of its own. yadif takes pairs and
 * twins only up to 13 bits (they work in 16-bit lanes, below) and, in
 * the elements, only where every component of the frame can. Otherwise
 * (bwdif on P010's UV, step 4; planes or pitches only 2-byte aligned;
 * ELA, linear and bwdif's intra fields) a thread owns one column, read as
 * 16-bit words: 64 contiguous bytes a warp of a planar row, 128 of P010's
 * UV. yadif and
 * bwdif keep the rows their stencils share in registers as a window that
 * slides two rows (one interpolated, one copied) a step: in the interior
 * a step loads only its new rows (bwdif: C, A, B, P and N, one word each;
 * yadif: A, B, P and N, one word each, and C's columns x - 3 .. x + 4
 * around the pair as five aligned 32-bit words x - 4 .. x + 5, or the
 * twins' seven words x - 3 .. x + 3, which neighbouring threads share
 * through L1; one column: C's seven columns around x as 16-bit words)
 * and stores the copied row from the window. yadif's pairs and twins walk
 * their rows by pointers that move two rows a step (where P, C and N
 * share a pitch), with no bounds and no reads of the launch's component
 * table, and load each step's rows a step ahead of its arithmetic.
 * bwdif's output samples go through the one-column arithmetic
 * (bwdif_value) one at a time; yadif's pairs through the same operations
 * on both columns at once, in the signed 16-bit lanes of
 * deinterlace-simd.cuh (yadif_lanes_value: the direction search as lane
 * masks and blends, as the 8-bit kernel does it). Rows within the
 * stencils' reach of the top and bottom, and the intra-field methods,
 * read every stencil row from memory (L1 and L2 serve the neighbours),
 * through the one-column arithmetic.
 *
 * Launch shape: as deinterlace.cu, the shortest strips that fit the frame
 * in one wave of blocks (the runtime's occupancy times the SMs); a pair
 * thread counts once, so pairs halve the threads a planar row needs and
 * the strips are about half as long as with one column a thread. The
 * elements' yadif takes strips for two waves where one wave's would be
 * longer than 64 rows (YADIF_TWO_WAVES_STRIP). The benchmark's
 * cfx_deinterlace16_frame_spread () sizes them for other numbers of
 * waves.
 *
 * Measured (`cudafx-bench deinterlace`, kernel time an output frame): on
 * an H200, one column a thread against two with scalar arithmetic:
 * 2160i I420_10LE bwdif 50.1 against 39.6 us, yadif 75.9 against 82.1
 * (P010: bwdif 48.4 / 43.2, yadif 72.9 / 98.7; yadif's scalar pairs
 * needed 80 registers); on an H100, yadif's pairs in lanes (72
 * registers) against one column: 2160i I420_10LE 62.8 against 69.5 us
 * (one column with two waves' strips), 1080i 19.9 against 21.1; P010,
 * whose UV took one column then, 23.6 against 20.1 at 1080i. Per
 * sample, without the windows: 104-117 us at 2160i; fewer threads than a
 * wave (longer strips) were slower in every case, 2 and 4 waves within a
 * few percent of one (the one-column yadif at 2160i excepted).
 *
 * yadif's pointer steps (H100, 2026-11-28, against the kernel before them
 * in the same call): 2160i I420_10LE 40.8 against 62.7 us, 1080i 14.9
 * against 19.8; with P010's twins, 2160i P010 41.8 against 66.0 (71% of
 * the floor, the 8-bit kernel 61%). Nsight Compute on the kernel before
 * them: 384 instructions a step, of them 41 loads of the component's
 * fields from the parameters and most of the rest addresses and bounds;
 * 188 a step now. Two things mattered on the way: the steps' loads
 * masked right after them made the step wait for them (the mask is taken
 * where the rows are used), and a warp whose side columns took the
 * bounded loop ran both loops, so that every strip waited for the sides
 * (76.0 against 63.1 us until every pair took the steps).
 *
 * Tried for the one-column yadif on an H100 (2026-11-27, 2160i
 * I420_10LE, against the kernel here in the same call) and not kept:
 * C's seven columns from four aligned 32-bit words and funnel shifts
 * (85.7 against 77.5 us, one wave), the direction search as selects
 * instead of branches (73.8 against 69.8, two waves), and each step's
 * rows loaded a step ahead (84.2 against 69.6; 64 registers, 66 before).
 *
 * Every function a thread runs is __host__ __device__: the test
 * tests/kernels/test-deinterlace16-emulated.c runs each thread of a launch
 * on the CPU against the reference. */
#include <limits.h>

#include "cudafx-kernels.h"
#include "kernel-helpers.h"
/* signed 16-bit lane arithmetic (and imax, imin), host versions included:
 * the two-column yadif works both columns at once */
#include "deinterlace-simd.cuh"

#define D16 __host__ __device__ static inline

namespace
{

/* What a thread of a component owns: one column, two (x and x + 1), or
 * column x of this component and of the next, its twin, which shares its
 * words (P010's U and V: the launch gives the twin no threads) */
enum
{
  OWNS_ONE_COLUMN,
  OWNS_TWO_COLUMNS,
  OWNS_TWINS,
};

/* One component of the three input frames and the output */
struct Comp16
{
  const uint8_t *frame[3];      /* P, C, N */
  int pitch[3];
  uint8_t *dst;
  int dst_pitch;
  int step, width, height;
  unsigned mask;                /* (1 << depth) - 1 */
  int shift, max;
  int pair;                     /* what a thread owns: OWNS_ONE_COLUMN,
                                 * OWNS_TWO_COLUMNS (step 2, every plane's
                                 * data and pitch 4-byte aligned) or
                                 * OWNS_TWINS (yadif) */
  int twin;                     /* the second of OWNS_TWINS: no threads */
};

struct Field16
{
  int method, parity, tff, spatial_check, intra_only;
};

enum
{ P, C, N };

enum
{
  BLOCK_X = 32,                 /* columns of a block */
  BLOCK_Y = 4,                  /* strips of a block */
  THREADS = BLOCK_X * BLOCK_Y,
};

/* What one launch covers: every component, a flat range of blocks each */
struct Launch16
{
  Comp16 comp[CFX_DEINT_MAX_COMPONENTS];
  int first_block[CFX_DEINT_MAX_COMPONENTS + 1];
  int blocks_x[CFX_DEINT_MAX_COMPONENTS];
  int n_comps;
  int strip;                    /* rows of a thread's strip, even */
  Field16 f;
};

D16 int
iabs (int a)
{
  return a < 0 ? -a : a;
}

D16 int
clip (int v, int max)
{
  return v < 0 ? 0 : v > max ? max : v;
}

/* sample x of row y of frame f, its significant bits */
D16 int
at (const Comp16 & c, int f, int x, int y)
{
  const uint16_t *p = (const uint16_t *) (c.frame[f] +
      (size_t) y * c.pitch[f] + (size_t) x * c.step);
#ifdef __CUDA_ARCH__
  unsigned word = __ldg (p);
#else
  unsigned word = *p;
#endif

  return (int) (word >> c.shift & c.mask);
}

/* A[r] + B[r], with A and B the frames around this output's instant */
D16 int
ab_sum (const Comp16 & c, int a, int b, int x, int r)
{
  return at (c, a, x, r) + at (c, b, x, r);
}

D16 void
store (const Comp16 & c, int x, int y, int v)
{
  *(uint16_t *) (c.dst + (size_t) y * c.dst_pitch + (size_t) x * c.step) =
      (uint16_t) ((unsigned) v << c.shift);
}

/* A 32-bit word from the input frames (read-only for the kernel's life) */
D16 unsigned
load_word (const uint8_t * p)
{
#ifdef __CUDA_ARCH__
  return __ldg ((const unsigned *) p);
#else
  return *(const unsigned *) p;
#endif
}

/* Where the word of the pair x starts in its row: samples x and x + 1 (x
 * even, x + 1 < width) of an OWNS_TWO_COLUMNS component, or both twins at
 * x (T) */
template < bool T > D16 size_t
pair_offset (int x)
{
  return (size_t) x * (T ? 4 : 2);
}

/* The word of the pair x of row y of frame f, as read */
template < bool T = false > D16 unsigned
word_at (const Comp16 & c, int f, int x, int y)
{
  return load_word (c.frame[f] + (size_t) y * c.pitch[f] +
      pair_offset < T > (x));
}

/* @v's lanes as the pair x of row y of the output */
template < bool T > D16 void
store_lanes (const Comp16 & c, int x, int y, unsigned v)
{
  *(unsigned *) (c.dst + (size_t) y * c.dst_pitch + pair_offset < T > (x)) =
      v << c.shift;
}

/* the pair x of row y of frame f, significant bits */
D16 void
at2 (const Comp16 & c, int f, int x, int y, int *v0, int *v1)
{
  unsigned word = word_at (c, f, x, y);

  *v0 = (int) (word >> c.shift & c.mask);
  *v1 = (int) (word >> (16 + c.shift) & c.mask);
}

template < bool T = false > D16 void
store2 (const Comp16 & c, int x, int y, int v0, int v1)
{
  store_lanes < T > (c, x, y, (unsigned) v0 | (unsigned) v1 << 16);
}

/* row y of C copied to the output at the pair x */
template < bool T = false > D16 void
copy2 (const Comp16 & c, int x, int y)
{
  unsigned keep = c.mask << c.shift;

  *(unsigned *) (c.dst + (size_t) y * c.dst_pitch + pair_offset < T > (x)) =
      word_at < T > (c, C, x, y) & (keep | keep << 16);
}

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

D16 Temporal
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

D16 TemporalIn
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
D16 int
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
D16 int
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

/* Row y of frame f at columns x - 3 .. x + 3, clamped (outside yadif's
 * search only the middle one counts) */
D16 void
yadif_row (const Comp16 & c, int f, int x, int y, int *row)
{
  for (int i = 0; i < 7; i++)
    row[i] = at (c, f, imin (imax (x + i - 3, 0), c.width - 1), y);
}

D16 int
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

/* two-byte bwdif picks the rows near the top and bottom with a reach of
 * 2 (bytes a sample), where the 8-bit filter's is 1 */
#define DF 2

D16 int
bwdif_intra (const Comp16 & c, int x, int y)
{
  int h = c.height;
  int m = y > DF - 1 ? y - 1 : y + 1, p = y + DF < h ? y + 1 : y - 1;
  int m3 = y > 3 * DF - 1 ? y - 3 : y + 1, p3 = y + 3 * DF < h ? y + 3 : y - 1;

  return clip ((5077 * (at (c, C, x, m) + at (c, C, x, p)) -
          981 * (at (c, C, x, m3) + at (c, C, x, p3))) >> 13, c.max);
}

D16 int
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

/* row r mirrored at the plane's edges (-1 -> 1, h -> h - 2) */
D16 int
mirror_row (int r, int h)
{
  return r < 0 ? (h > 1 ? 1 : 0) : r >= h ? (h > 1 ? h - 2 : 0) : r;
}

D16 int
intra (const Comp16 & c, int ela, int x, int y)
{
  int w = c.width, h = c.height;
  int up = mirror_row (y - 1, h), down = mirror_row (y + 1, h), j = 0;

  if (ela) {
    /* directions 0, -1, +1 in this order, each kept only if strictly
     * cheaper; columns clamped */
    int best = -1;

    for (int k = 0; k < 3; k++) {
      int dj = k == 0 ? 0 : k == 1 ? -1 : 1;
      int xu = imin (imax (x + dj, 0), w - 1), xd = imin (imax (x - dj, 0),
          w - 1);
      int cost = iabs (at (c, C, xu, up) - at (c, C, xd, down));

      if (best < 0 || cost < best) {
        best = cost;
        j = dj;
      }
    }
  }
  return (at (c, C, imin (imax (x + j, 0), w - 1), up) +
      at (c, C, imin (imax (x - j, 0), w - 1), down) + 1) >> 1;
}

/* The frames A and B around the output's instant */
D16 void
field_frames (const Field16 & f, int *a, int *b)
{
  int fp = f.parity ^ f.tff;

  *a = fp ? P : C;
  *b = fp ? C : N;
}

/* The output sample at (x, y), significant bits */
D16 int
output_sample (const Comp16 & c, const Field16 & f, int x, int y)
{
  int a, b;

  if ((y & 1) == f.parity)
    return at (c, C, x, y);
  field_frames (f, &a, &b);
  switch (f.method) {
    case CFX_DEINT_YADIF:
      return yadif (c, a, b, f.spatial_check, x, y);
    case CFX_DEINT_BWDIF:
      return f.intra_only ? bwdif_intra (c, x, y) : bwdif (c, a, b, x, y);
    case CFX_DEINT_ELA:
      return intra (c, 1, x, y);
    default:
      return intra (c, 0, x, y);
  }
}

/* ---- a thread's strip ----------------------------------------------- */

/* yadif's window at interpolated row y (2 <= y <= h - 3): C's rows y - 1
 * and y + 1 at seven columns, A and B at y - 2, y and y + 2, P and N at
 * y - 1 and y + 1 */
struct YadifWindow
{
  YadifIn v;
  int a[3], b[3];               /* rows y - 2, y, y + 2 */
};

D16 void
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
D16 void
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

D16 int
yadif_window_value (YadifWindow & w, const Field16 & f, bool search)
{
  w.v.t.a = w.a[1];
  w.v.t.b = w.b[1];
  w.v.abm2 = w.a[0] + w.b[0];
  w.v.abp2 = w.a[2] + w.b[2];
  return yadif_value (w.v, search, f.spatial_check);
}

/* bwdif's window at interpolated row y (4 <= y <= h - 5): C at y - 3,
 * y - 1, y + 1 and y + 3, A and B at y - 4 .. y + 4 (even), P and N at
 * y - 1 and y + 1 */
struct BwdifWindow
{
  int c[4];
  int a[5], b[5];
  int pm, pp, nm, np;
};

D16 void
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

D16 void
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

D16 int
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

/* Column x per sample from interpolated row y: each interpolated row
 * before @until and the copied row after it, up to the strip's end @r1
 * (until <= r1). Returns the first interpolated row not done. */
D16 int
rows_per_sample (const Comp16 & c, const Field16 & f, int x, int y,
    int until, int r1)
{
  for (; y < until; y += 2) {
    store (c, x, y, output_sample (c, f, x, y));
    if (y + 1 < r1)
      store (c, x, y + 1, at (c, C, x, y + 1));
  }
  return y;
}

/* Rows r0 to r1 - 1 of column x. M: the method's window (CFX_DEINT_YADIF,
 * CFX_DEINT_BWDIF) or none (-1: every row per sample). */
template < int M > D16 void
strip (const Comp16 & c, const Field16 & f, int x, int r0, int r1)
{
  int h = c.height, y = r0, a, b;

  if ((y & 1) == f.parity) {
    store (c, x, y, at (c, C, x, y));
    y++;
  }
  if (M < 0) {
    rows_per_sample (c, f, x, y, r1, r1);
    return;
  }
  field_frames (f, &a, &b);
  /* the rows whose stencil has no edge rule: the window's */
  int lo = M == CFX_DEINT_BWDIF ? 4 : 2, hi = M == CFX_DEINT_BWDIF ? h - 5 :
      h - 3, end = imin (r1, hi + 1);

  if (y < lo)
    y = rows_per_sample (c, f, x, y, imin (r1, lo), r1);
  if (y < end) {
    if (M == CFX_DEINT_YADIF) {
      YadifWindow w;
      bool search = 3 <= x && x < c.width - 3;

      yadif_fill (w, c, a, b, x, y);
      for (;;) {
        store (c, x, y, yadif_window_value (w, f, search));
        if (y + 1 < r1)
          store (c, x, y + 1, w.v.cp[3]);
        y += 2;
        if (y >= end)
          break;
        yadif_slide (w, c, a, b, x, y);
      }
    } else {
      BwdifWindow w;

      bwdif_fill (w, c, a, b, x, y);
      for (;;) {
        store (c, x, y, bwdif_window_value (w, c.max));
        if (y + 1 < r1)
          store (c, x, y + 1, w.c[2]);
        y += 2;
        if (y >= end)
          break;
        bwdif_slide (w, c, a, b, x, y);
      }
    }
  }
  rows_per_sample (c, f, x, y, r1, r1);
}

/* ---- a thread's strip of two columns --------------------------------- */

/* A pair component's columns x and x + 1 (x even, x + 1 < width): each
 * row of a frame is one 32-bit word, the windows hold both columns (one
 * window a column, filled and slid from the same words), and every output
 * sample goes through the one-column arithmetic. */

/* yadif on a pair component of at most YADIF_LANES_MAX_DEPTH bits works
 * both columns at once in the signed 16-bit lanes of deinterlace-simd.cuh
 * (lane 0: column x, lane 1: x + 1), the same operations as yadif_value
 * (): every value, the direction costs (at most 3 (2^13 - 1)) and their
 * differences included, stays under 2^15. Deeper samples (P016,
 * Y444_16LE, GRAY16) take one column a thread. */
#define YADIF_LANES_MAX_DEPTH 13

/* whether @c's samples fit yadif's lanes */
D16 bool
yadif_lanes_fit (const Comp16 & c)
{
  return c.mask >> YADIF_LANES_MAX_DEPTH == 0;
}

/* whether yadif can take columns x and x + 1 together on @c */
D16 bool
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
template < bool T > D16 u32
lanes_at (const Comp16 & c, int f, int x, int y)
{
  return word_at < T > (c, f, x, y) >> c.shift & c.mask * 0x10001u;
}

D16 u32
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
template < bool T > D16 void
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
template < int J, bool T > D16 u32
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
template < int J, bool T > D16 u32
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
template < bool T > D16 void
yadif_lanes_ab (YadifLanes < T > &w, const Comp16 & c, int a, int b, int x,
    int r, int k)
{
  u32 va = lanes_at < T > (c, a, x, r), vb = lanes_at < T > (c, b, x, r);

  w.d[k] = half2 (add2 (va, vb));
  if (k > 0)
    w.td[k - 1] = absdiff2 (va, vb);
}

template < bool T > D16 void
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

template < bool T > D16 void
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
template < bool T > D16 void
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
D16 bool
lanes_one_pitch (const Comp16 & c)
{
  return c.pitch[P] == c.pitch[C] && c.pitch[C] == c.pitch[N];
}

/* the rows after yadif_lanes_fill (..., y) */
template < bool T > D16 LanesRows
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
template < bool T > D16 void
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
template < bool T > D16 LanesStep < T >
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
template < bool T > D16 void
yadif_lanes_slide (YadifLanes < T > &w, const Comp16 & c, int a, int b,
    int x, int y)
{
  LanesStep < T > s;

  yadif_lanes_load (s, c, a, b, x, y);
  yadif_lanes_push (w, s);
}

/* yadif_value () of both lanes; @inside: 0xffff in the lanes whose
 * column is far enough from the sides for the direction search */
template < bool T > D16 u32
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
template < bool T > D16 int
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
template < bool T > D16 int
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

D16 void
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

D16 void
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

/* rows_per_sample for the pair x; @lane1: the component of lane 1 (@c,
 * or for twins (T) the next one) */
template < bool T > D16 int
rows_per_sample2 (const Comp16 & c, const Comp16 & lane1, const Field16 & f,
    int x, int y, int until, int r1)
{
  int x1 = T ? x : x + 1;

  for (; y < until; y += 2) {
    store2 < T > (c, x, y, output_sample (c, f, x, y), output_sample (T ?
            lane1 : c, f, x1, y));
    if (y + 1 < r1)
      copy2 < T > (c, x, y + 1);
  }
  return y;
}

/* strip () for the pair x (M: CFX_DEINT_YADIF or CFX_DEINT_BWDIF; twins:
 * yadif only) */
template < int M, bool T > D16 void
strip2 (const Comp16 & c, const Comp16 & lane1, const Field16 & f, int x,
    int r0, int r1)
{
  int h = c.height, y = r0, a, b;

  if ((y & 1) == f.parity) {
    copy2 < T > (c, x, y);
    y++;
  }
  field_frames (f, &a, &b);
  int lo = M == CFX_DEINT_BWDIF ? 4 : 2, hi = M == CFX_DEINT_BWDIF ? h - 5 :
      h - 3, end = imin (r1, hi + 1);

  if (y < lo)
    y = rows_per_sample2 < T > (c, lane1, f, x, y, imin (r1, lo), r1);
  if (y < end) {
    if (M == CFX_DEINT_YADIF) {
      y = yadif_lanes_strip < T > (c, f, a, b, x, y, end, r1);
    } else {
      BwdifWindow w[2];

      bwdif_fill2 (w, c, a, b, x, y);
      for (;;) {
        store2 (c, x, y, bwdif_window_value (w[0], c.max),
            bwdif_window_value (w[1], c.max));
        if (y + 1 < r1)
          store2 (c, x, y + 1, w[0].c[2], w[1].c[2]);
        y += 2;
        if (y >= end)
          break;
        bwdif_slide2 (w, c, a, b, x, y);
      }
    }
  }
  rows_per_sample2 < T > (c, lane1, f, x, y, r1, r1);
}

/* The component, column and rows of thread (tx, ty) of block @block (an
 * OWNS_TWO_COLUMNS component's thread: columns x and x + 1, x even; only
 * PAIRS kernels' launches have pairs); false for a thread past the
 * component's width or height */
template < bool PAIRS > D16 bool
thread_work (const Launch16 & L, int block, int tx, int ty, int *k, int *x,
    int *r0, int *r1)
{
  int i = 0, local, h;

  while (i + 1 < L.n_comps && block >= L.first_block[i + 1])
    i++;
  local = block - L.first_block[i];
  *k = i;
  *x = (local % L.blocks_x[i]) * BLOCK_X + tx;
  if (PAIRS)
    *x <<= L.comp[i].pair == OWNS_TWO_COLUMNS;
  *r0 = ((local / L.blocks_x[i]) * BLOCK_Y + ty) * L.strip;
  h = L.comp[i].height;
  *r1 = imin (*r0 + L.strip, h);
  return *x < L.comp[i].width && *r0 < h;
}

/* PAIRS: pair components take two columns a thread (the launch has set
 * their pair flag; a last column alone, odd width, takes the one-column
 * strip) */
template < int M, bool PAIRS > D16 void
thread_strip (const Launch16 & L, int block, int tx, int ty)
{
  int k, x, r0, r1;

  if (!thread_work < PAIRS > (L, block, tx, ty, &k, &x, &r0, &r1))
    return;
  if constexpr (PAIRS && M >= 0) {
    if (L.comp[k].pair == OWNS_TWINS || (L.comp[k].pair == OWNS_TWO_COLUMNS
            && x + 1 < L.comp[k].width)) {
      if (M == CFX_DEINT_YADIF && L.comp[k].pair == OWNS_TWINS)
        strip2 < M, true > (L.comp[k], L.comp[k + 1], L.f, x, r0, r1);
      else
        strip2 < M, false > (L.comp[k], L.comp[k], L.f, x, r0, r1);
      return;
    }
  }
  strip < M > (L.comp[k], L.f, x, r0, r1);
}

/* yadif's pair kernel held to 7 blocks an SM (72 registers and a spill
 * of 24 bytes): left to itself it took 80 and 6 blocks, 45.3
 * against 41.6 us at 2160i I420_10LE (H100). 0 leaves the others to the
 * compiler (a minimum of 1 made them take 72 to 80 registers, against 48
 * to 66) */
template < int M, bool PAIRS > __global__ void
__launch_bounds__ (THREADS, M == CFX_DEINT_YADIF && PAIRS ? 7 : 0)
deinterlace16 (Launch16 L)
{
  thread_strip < M, PAIRS > (L, blockIdx.x, threadIdx.x, threadIdx.y);
}

/* The component as the kernel takes it, or false; pair OWNS_TWO_COLUMNS
 * where a thread could own two columns */
bool
comp16 (const CfxDeintComponent & in, Comp16 * c)
{
  const CfxPlane *f[3] = { &in.prev, &in.cur, &in.next };
  const CfxPlane & d = in.dst;
  uintptr_t bits;

  if (d.bytes != 2 || d.depth < 9 || d.depth > 16 || d.shift < 0
      || d.depth + d.shift > 16 || d.step < 2 || d.step % 2 || d.width < 1
      || d.height < 1 || !d.data || ((uintptr_t) d.data | d.pitch) % 2)
    return false;
  for (int i = 0; i < 3; i++)
    if (f[i]->bytes != 2 || f[i]->depth != d.depth || f[i]->shift != d.shift
        || f[i]->step != d.step || f[i]->width != d.width
        || f[i]->height != d.height || !f[i]->data
        || ((uintptr_t) f[i]->data | f[i]->pitch) % 2)
      return false;
  bits = (uintptr_t) d.data | (uintptr_t) (unsigned) d.pitch;
  for (int i = 0; i < 3; i++) {
    c->frame[i] = f[i]->data;
    c->pitch[i] = f[i]->pitch;
    bits |= (uintptr_t) f[i]->data | (uintptr_t) (unsigned) f[i]->pitch;
  }
  c->dst = d.data;
  c->dst_pitch = d.pitch;
  c->step = d.step;
  c->width = d.width;
  c->height = d.height;
  c->mask = (1u << d.depth) - 1;
  c->shift = d.shift;
  c->max = (int) c->mask;
  c->pair = d.step == 2 && bits % 4 == 0 ? OWNS_TWO_COLUMNS :
      OWNS_ONE_COLUMN;
  c->twin = 0;
  return true;
}

/* Whether components i and i + 1 are twins for yadif: both taken by
 * comp16 (), the two of one plane of step 4 at bytes 0 and 2 (P010's U
 * and V), every plane and pitch 4-byte aligned, at most
 * YADIF_LANES_MAX_DEPTH bits */
bool
twins (const CfxDeintComponent * comps, int n_comps, int i)
{
  Comp16 u, v;

  if (i + 1 >= n_comps || !comp16 (comps[i], &u)
      || !comp16 (comps[i + 1], &v) || u.step != 4 || v.step != 4
      || u.mask != v.mask || u.shift != v.shift || u.width != v.width
      || u.height != v.height || !yadif_lanes_fit (u)
      || v.dst != u.dst + 2 || v.dst_pitch != u.dst_pitch
      || ((uintptr_t) u.dst | (uintptr_t) (unsigned) u.dst_pitch) % 4)
    return false;
  for (int f = 0; f < 3; f++)
    if (v.frame[f] != u.frame[f] + 2 || v.pitch[f] != u.pitch[f]
        || ((uintptr_t) u.frame[f] | (uintptr_t) (unsigned) u.pitch[f]) % 4)
      return false;
  return true;
}

/* A component's threads across a row */
int
threads_across (const Comp16 & c)
{
  return c.twin ? 0 : c.pair == OWNS_TWO_COLUMNS ? (c.width + 1) / 2 :
      c.width;
}

bool
field16 (const CfxDeintField & in, Field16 * f)
{
  f->method = in.method;
  f->parity = in.parity & 1;
  f->tff = in.tff ? 1 : 0;
  f->spatial_check = in.spatial_check;
  f->intra_only = in.intra_only;
  return in.method == CFX_DEINT_BWDIF || in.method == CFX_DEINT_YADIF
      || in.method == CFX_DEINT_ELA || in.method == CFX_DEINT_LINEAR;
}

/* The kernel's window: yadif's, bwdif's (not its intra fields) or none */
int
window_of (const Field16 & f)
{
  if (f.method == CFX_DEINT_YADIF)
    return CFX_DEINT_YADIF;
  if (f.method == CFX_DEINT_BWDIF && !f.intra_only)
    return CFX_DEINT_BWDIF;
  return -1;
}

/* Which kernel a launch runs */
enum Variant
{
  PAIRED,                       /* the elements' kernels: windows, two
                                 * columns a thread where the component
                                 * allows (yadif: up to 13 bits, and only
                                 * where every component allows) */
  ONE_COLUMN,                   /* windows, one column a thread */
  WINDOWLESS,                   /* one column a thread, every stencil row
                                 * from memory */
  TWO_COLUMNS,                  /* windows, two columns a thread where the
                                 * component allows, yadif too when
                                 * another component cannot */
  ELEMENTS,                     /* PAIRED, and yadif's long strips split
                                 * for two waves (YADIF_TWO_WAVES_STRIP) */
};

}                               /* namespace */

/* bwdif's two-byte reach: an intra row y <= 5 takes y + 1 as its "three
 * above", which must exist when y is the last row, so 7 rows at least
 * (FFmpeg reads outside the picture below that) */
extern "C" void
cfx_deinterlace16_min_size (CfxDeintMethod method, int *min_width,
    int *min_height)
{
  cfx_deinterlace_min_size (method, min_width, min_height);
  if (method == CFX_DEINT_BWDIF)
    *min_height = 7;
}

/* Blocks of the launch with strips of @strip rows */
static long
count_blocks (Launch16 * L, int strip)
{
  long blocks = 0;

  for (int i = 0; i < L->n_comps; i++) {
    int strips = (L->comp[i].height + strip - 1) / strip;

    L->blocks_x[i] = (threads_across (L->comp[i]) + BLOCK_X - 1) / BLOCK_X;
    blocks += (long) L->blocks_x[i] * ((strips + BLOCK_Y - 1) / BLOCK_Y);
  }
  return blocks;
}

/* Fills the launch for @target_threads threads and at most @max_blocks
 * blocks (while strips can grow): the shortest even strips that fit;
 * @pairs: two columns a thread where the component allows, and yadif's
 * twins. Returns the number of blocks, or -1 for components the kernel
 * cannot take. */
static long
setup_launch (Launch16 * L, const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, bool pairs, long target_threads,
    long max_blocks)
{
  long columns_rows = 0, blocks, strip;
  int max_h = 1, min_w, min_h;

  memset (L, 0, sizeof (*L));
  if (!comps || !field || n_comps < 1 || n_comps > CFX_DEINT_MAX_COMPONENTS
      || !field16 (*field, &L->f) || target_threads < 1)
    return -1;
  cfx_deinterlace16_min_size (field->method, &min_w, &min_h);
  L->n_comps = n_comps;
  for (int i = 0; i < n_comps; i++) {
    Comp16 *c = &L->comp[i];

    if (!comp16 (comps[i], c) || c->width < min_w || c->height < min_h)
      return -1;
    if (!pairs || (L->f.method == CFX_DEINT_YADIF && !yadif_pairs (*c)))
      c->pair = OWNS_ONE_COLUMN;
    max_h = c->height > max_h ? c->height : max_h;
  }
  for (int i = 0; pairs && L->f.method == CFX_DEINT_YADIF && i < n_comps;
      i++)
    if (twins (comps, n_comps, i)) {
      L->comp[i].pair = OWNS_TWINS;
      L->comp[++i].twin = 1;
    }
  for (int i = 0; i < n_comps; i++)
    columns_rows += (long) threads_across (L->comp[i]) * L->comp[i].height;
  strip = (columns_rows + target_threads - 1) / target_threads;
  strip = strip < 2 ? 2 : strip > max_h ? max_h : strip;
  strip += strip & 1;
  while ((blocks = count_blocks (L, (int) strip)) > max_blocks
      && strip < max_h)
    strip += 2;
  if (blocks > INT_MAX)
    return -1;
  L->strip = (int) strip;
  L->first_block[0] = 0;
  for (int i = 0; i < n_comps; i++) {
    int strips = (L->comp[i].height + L->strip - 1) / L->strip;

    L->first_block[i + 1] = L->first_block[i] +
        L->blocks_x[i] * ((strips + BLOCK_Y - 1) / BLOCK_Y);
  }
  return blocks;
}

/* The kernel of @window (-1: every stencil row from memory), two columns
 * a thread where @pairs */
template < int M > static cudaError_t
launch16 (bool pairs, const Launch16 & L, long blocks, cudaStream_t stream)
{
  if (M >= 0 && pairs)
    return cfx_launch (deinterlace16 < M, (M >= 0) >, (int) blocks,
        dim3 (BLOCK_X, BLOCK_Y), 0, stream, L);
  return cfx_launch (deinterlace16 < M, false >, (int) blocks,
      dim3 (BLOCK_X, BLOCK_Y), 0, stream, L);
}

/* Blocks of the kernel that the current device holds at once */
static cudaError_t
wave_blocks (int window, bool pairs, long *wave)
{
  static int cache[5][CFX_WAVE_MAX_DEVICES];

  if (window == CFX_DEINT_YADIF)
    return pairs ? cfx_wave_blocks (deinterlace16 < CFX_DEINT_YADIF, true >,
        THREADS, cache[0], wave) : cfx_wave_blocks (deinterlace16 <
        CFX_DEINT_YADIF, false >, THREADS, cache[1], wave);
  if (window == CFX_DEINT_BWDIF)
    return pairs ? cfx_wave_blocks (deinterlace16 < CFX_DEINT_BWDIF, true >,
        THREADS, cache[2], wave) : cfx_wave_blocks (deinterlace16 <
        CFX_DEINT_BWDIF, false >, THREADS, cache[3], wave);
  return cfx_wave_blocks (deinterlace16 < -1, false >, THREADS, cache[4],
      wave);
}

/* The window and pairing of @variant for @field; false for a method the
 * kernel does not know */
static bool
variant_kernel (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int variant, int *window, bool *pairs)
{
  Field16 f;

  if (!field || !field16 (*field, &f))
    return false;
  *window = variant == WINDOWLESS ? -1 : window_of (f);
  *pairs = *window >= 0 && variant != ONE_COLUMN;
  /* The elements' yadif takes pairs (two columns or twins) only where
   * every component can (H100, 2026-11-27, before the pointer steps: P010,
   * whose UV plane took one column then, 23.6 us against 20.1 at 1080i
   * with pairs on its luma) */
  if (*window == CFX_DEINT_YADIF && *pairs && variant != TWO_COLUMNS)
    for (int i = 0; comps && i < n_comps
        && i < CFX_DEINT_MAX_COMPONENTS; i++) {
      Comp16 c;

      if (twins (comps, n_comps, i))
        i++;
      else if (comp16 (comps[i], &c) && !yadif_pairs (c))
        *pairs = false;
    }
  return true;
}

/* The elements' yadif (one column a thread) takes strips for two waves
 * where one wave's strips would be longer than this many rows. Measured
 * (2026-11-27, `cudafx-bench deinterlace`, 2 waves against 1): 2160i
 * I420_10LE 69.5 against 77.5 us on an H100, 68.7 against 76.8 on an
 * H200 (P010 on the H100: 65.7 against 74.6), where one wave's strips
 * are about 100 rows; 1080i (about 26 rows) 22.1 against 21.4 on the
 * H100, 21.8 against 21.1 on the H200. bwdif and the 8-bit kernels gain
 * nothing from two waves (deinterlace.cu). */
#define YADIF_TWO_WAVES_STRIP 64

static cudaError_t
deinterlace16_frame (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int variant, double waves,
    cudaStream_t stream)
{
  Launch16 L;
  long wave = 0, blocks, target, max_blocks;
  int window;
  bool pairs;
  cudaError_t err;

  if (!variant_kernel (comps, n_comps, field, variant, &window, &pairs)
      || !(waves > 0 && waves <= 1024))
    return cudaErrorInvalidValue;
  err = wave_blocks (window, pairs, &wave);
  if (err != cudaSuccess)
    return err;
  if (!cfx_wave_shape (wave, THREADS, waves, &target, &max_blocks))
    return cudaErrorInvalidValue;
  blocks = setup_launch (&L, comps, n_comps, field, pairs, target,
      max_blocks);
  if (blocks >= 0 && variant == ELEMENTS && window == CFX_DEINT_YADIF
      && L.strip > YADIF_TWO_WAVES_STRIP
      && cfx_wave_shape (wave, THREADS, 2, &target, &max_blocks))
    blocks = setup_launch (&L, comps, n_comps, field, pairs, target,
        max_blocks);
  if (blocks < 0)
    return cudaErrorInvalidValue;
  if (window == CFX_DEINT_YADIF)
    return launch16 < CFX_DEINT_YADIF > (pairs, L, blocks, stream);
  if (window == CFX_DEINT_BWDIF)
    return launch16 < CFX_DEINT_BWDIF > (pairs, L, blocks, stream);
  return launch16 < -1 > (false, L, blocks, stream);
}

extern "C" cudaError_t
cfx_deinterlace16_frame (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, cudaStream_t stream)
{
  return deinterlace16_frame (comps, n_comps, field, ELEMENTS, 1, stream);
}

/* For the benchmark: the same output without the sliding windows (per
 * sample), with the windows over one or two columns a thread, or with
 * strips for other shares of a wave */
extern "C" cudaError_t
cfx_deinterlace16_frame_windowless (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, cudaStream_t stream)
{
  return deinterlace16_frame (comps, n_comps, field, WINDOWLESS, 1, stream);
}

extern "C" cudaError_t
cfx_deinterlace16_frame_columns (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int columns,
    cudaStream_t stream)
{
  if (columns != 1 && columns != 2)
    return cudaErrorInvalidValue;
  return deinterlace16_frame (comps, n_comps, field, columns == 1 ?
      ONE_COLUMN : TWO_COLUMNS, 1, stream);
}

extern "C" cudaError_t
cfx_deinterlace16_frame_spread (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, double waves,
    cudaStream_t stream)
{
  return deinterlace16_frame (comps, n_comps, field, PAIRED, waves, stream);
}

#ifdef CFX_DEINTERLACE16_EMULATE
/* Every thread of every block of the launch, in turn, on the CPU */
static void
emulate_launch (const Launch16 & L, long blocks, int window, bool pairs)
{
  for (long b = 0; b < blocks; b++)
    for (int ty = 0; ty < BLOCK_Y; ty++)
      for (int tx = 0; tx < BLOCK_X; tx++) {
        if (window == CFX_DEINT_YADIF && pairs)
          thread_strip < CFX_DEINT_YADIF, true > (L, (int) b, tx, ty);
        else if (window == CFX_DEINT_YADIF)
          thread_strip < CFX_DEINT_YADIF, false > (L, (int) b, tx, ty);
        else if (window == CFX_DEINT_BWDIF && pairs)
          thread_strip < CFX_DEINT_BWDIF, true > (L, (int) b, tx, ty);
        else if (window == CFX_DEINT_BWDIF)
          thread_strip < CFX_DEINT_BWDIF, false > (L, (int) b, tx, ty);
        else
          thread_strip < -1, false > (L, (int) b, tx, ty);
      }
}

/* The same work on the CPU, host planes in @comps: every thread of every
 * block of the launch of @variant (as for
 * cfx_deinterlace16_frame_emulate_waves), in turn; @target_threads sets
 * the strip length as the GPU's size does (no limit on the blocks).
 * Returns 0 where cfx_deinterlace16_frame () would refuse the
 * components. */
extern "C" int
cfx_deinterlace16_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant,
    int target_threads)
{
  Launch16 L;
  int window;
  bool pairs;
  long blocks;

  if (variant < PAIRED || variant > TWO_COLUMNS
      || !variant_kernel (comps, n_comps, field, variant, &window,
          &pairs))
    return 0;
  blocks = setup_launch (&L, comps, n_comps, field, pairs, target_threads,
      LONG_MAX);
  if (blocks < 0)
    return 0;
  emulate_launch (L, blocks, window, pairs);
  return 1;
}

/* The launch of @variant (0: the elements', 1: one column a thread, 2:
 * windowless, 3: two columns a thread, yadif too) for @waves waves, on a
 * GPU whose wave would be @wave blocks, the GPU's launch math throughout. Returns the blocks run, 0
 * where the GPU's call would refuse (cudaErrorInvalidValue). */
extern "C" long
cfx_deinterlace16_frame_emulate_waves (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant, long wave,
    double waves)
{
  Launch16 L;
  long blocks, target, max_blocks;
  int window;
  bool pairs;

  if (variant < PAIRED || variant > TWO_COLUMNS
      || !variant_kernel (comps, n_comps, field, variant, &window,
          &pairs)
      || !cfx_wave_shape (wave, THREADS, waves, &target, &max_blocks))
    return 0;
  blocks = setup_launch (&L, comps, n_comps, field, pairs, target,
      max_blocks);
  if (blocks < 0)
    return 0;
  emulate_launch (L, blocks, window, pairs);
  return blocks;
}
#endif
