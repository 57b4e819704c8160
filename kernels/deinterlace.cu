/* Deinterlacing: yadif, bwdif (bit-exact with FFmpeg 5.1's CPU filters),
 * ELA and linear, per kernels/deinterlace.md.
 *
 * Floor: an output frame reads, of the previous, current and next frames,
 * only the rows it needs, and writes one frame. yadif and bwdif: all of C,
 * all of the bracketing frame (P for the first field, N for the second)
 * and half of the other one (td1/td2 read its copied-parity rows), so
 * 2.5 frames read + 1 written; ELA, linear and bwdif's intra fields: 1
 * read + 1 written. Over the copy bandwidth: 4K I420 bwdif, 43.5 MB,
 * about 15 us on an H100; 4K UYVY, 58 MB, about 20 us.
 *
 * Access pattern: one launch covers every plane (a flat block range per
 * plane). A thread owns one 32-bit word (4 bytes) of a row and walks down
 * a strip of row pairs; a warp covers 128 contiguous bytes of each row it
 * loads or stores, a block 32 words by 4 strips. Each row pair is one
 * interpolated row and one copied row; the rows the stencils share (C's
 * copied field, A and B of the other field, P and N) stay in registers,
 * already reduced to what the stencils use (byte pairs, means, absolute
 * differences), as a window that slides two rows per step, so in the
 * interior each needed row of each frame is loaded once per strip (bwdif:
 * C, A, B, P and N, one word each per step) and the copied row is stored
 * from the window. Each step's new rows are loaded a step (intra-field
 * methods: several steps) ahead, so that their latency hides behind the
 * arithmetic; the temporal windows rotate through sets of registers
 * (bwdif five steps a loop, yadif three), so that sliding copies nothing.
 * Rows within the stencil's reach of the top or bottom take a slow path
 * that loads its rows by the page's edge rules. Horizontal neighbours
 * (yadif's direction search, ELA) come from the neighbouring words of the
 * row (L1 hits), loaded once per row.
 *
 * Launch shape: the strips are as short as one wave of blocks allows (the
 * runtime's occupancy for the kernel times the SMs), never more blocks
 * than one wave: a second, partial wave would double the time.
 *
 * Arithmetic is SIMD within a register, exact throughout: per byte (four
 * samples an instruction) for |a - b|, floor and rounded means; in 16-bit
 * lanes (two samples a register: even bytes, odd bytes) for everything
 * signed or wider than a byte, on sm_90's native 16x2 add, min, max and
 * 3-input min/max (DPX; emulated on older GPUs); bwdif's cubic filters as
 * two-way 16x8-bit dot products (dp2a) on byte pairs. Choices (yadif's
 * direction search, ELA's direction, bwdif's cubic or spatial predictor)
 * are per-byte masks and bitwise blends: no divergence.
 *
 * Packed layouts: byte i of a word belongs to a fixed component (4 is a
 * multiple of every layout's pattern), so the vertical stencils ignore
 * layouts, and a horizontal neighbour k samples away is a compile-time
 * byte permutation of the neighbouring words (each component its own
 * step); each component is filtered exactly as a planar channel.
 *
 * Warps with a column whose words may need an edge rule (a neighbour
 * outside the row, yadif's x < 3 or x >= w - 3, ELA's clamping) run the
 * same window with the edge masks (MODE_EDGE below): a few instructions a
 * step more, no divergence, so that the blocks that hold the row's ends
 * take no longer than the others (the kernel waits for its slowest
 * block). Planes that are not 4-byte aligned take a path that loads every
 * row of each pair and checks every access (byte loads, stores that stop
 * at the row's end; the same per-word code, with the edge masks). The
 * rare paths are calls, so that their registers do not weigh on the hot
 * loops'.
 *
 * Every function below the kernels' __global__ wrappers is __host__
 * __device__, so the per-thread work can be run on a CPU too (see
 * tests/kernels/test-deinterlace-emulated.c). */
#include <limits.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cudafx-testing.h"
#include "kernel-helpers.h"

#define CFX_HD __host__ __device__ __forceinline__
/* rare paths (edge rows and columns, unaligned planes) as calls: their
 * registers do not weigh on the hot loops' allocation */
#define CFX_HD_RARE __host__ __device__ __noinline__
#define CFX_HDC __host__ __device__ constexpr

/* the host copies of the functions (CPU emulation) need no unrolling */
#ifdef __CUDA_ARCH__
#define UNROLL _Pragma ("unroll")
#define NO_UNROLL _Pragma ("unroll 1")
#else
#define UNROLL
#define NO_UNROLL
#endif

#define BLOCK_X 32              /* words across: one warp */
#define BLOCK_Y 4               /* strips down */
#define THREADS (BLOCK_X * BLOCK_Y)
/* Blocks per SM each method's registers allow without spilling (65536
 * registers an SM; the launch bound): bwdif 7 (72 registers, 28 warps),
 * yadif 6 (its direction search: 80 registers, 24 warps), the others 8
 * (they need fewer: 45 to 52 registers, 9 or 10 blocks). The launch asks
 * the runtime how many fit. */
#define MB_BWDIF 7
#define MB_YADIF 6
/* The intra-field methods read one row a step: rows loaded that many
 * steps ahead keep enough bytes in flight. The temporal ones load each
 * step's five to eleven words one step ahead, behind 4 to 8 times the
 * arithmetic. */
#define PREFETCH 6
#define ELA_PREFETCH 4
/* planes of one launch (the block ranges of the flat grid) */
#define MAX_PLANES 3

namespace
{

typedef uint32_t u32;

enum
{
  M_BWDIF,
  M_BWDIF_INTRA,
  M_YADIF,
  M_ELA,
  M_LINEAR,
};

/* What the bytes of a plane's rows hold; the host derives it from the
 * steps and offsets of the plane's components. Every component is
 * deinterlaced as its own channel, exactly as a planar plane would be:
 *   PLANAR  one component, step 1 (Y, U, V planes, GRAY8)
 *   PAIRS   two components, step 2 each (NV12's and NV21's UV plane)
 *   UYVY    packed 4:2:2, luma at the odd bytes (step 2), chroma at bytes
 *           0 and 2 of each pair (step 4): UYVY, VYUY
 *   YUY2    packed 4:2:2, luma at the even bytes, chroma at bytes 1 and 3:
 *           YUY2, YVYU */
enum
{
  LAYOUT_PLANAR,
  LAYOUT_PAIRS,
  LAYOUT_UYVY,
  LAYOUT_YUY2,
};

struct PlaneArgs
{
  const uint8_t *prev, *cur, *next;
  uint8_t *dst;
  int pitch_prev, pitch_cur, pitch_next, pitch_dst;
  int row_bytes;                /* bytes of a row that hold samples */
  int height;
  int width;                    /* planar / pairs / packed luma samples */
  int cwidth;                   /* packed chroma samples */
  int layout;
  int words;                    /* 32-bit words per row */
  int blocks_x;                 /* blocks across a row */
  int strip_pairs;              /* row pairs per thread */
  int strips;                   /* strips per column */
  int aligned;                  /* 32-bit loads and stores allowed */
};

struct LaunchArgs
{
  PlaneArgs plane[MAX_PLANES];
  int block_end[MAX_PLANES];
  int parity, tff, spatial_check;
};

/* ---- SIMD within a register --------------------------------------------- */

/* PRMT: bytes of (b:a) picked by the selector's nibbles; a nibble with bit
 * 3 set replicates the sign of its byte */
CFX_HD u32
prmt (u32 a, u32 b, u32 sel)
{
#ifdef __CUDA_ARCH__
  u32 d;
  asm ("prmt.b32 %0, %1, %2, %3;":"=r" (d):"r" (a), "r" (b), "r" (sel));
  return d;
#else
  uint64_t v = ((uint64_t) b << 32) | a;
  u32 d = 0;
  for (int i = 0; i < 4; i++) {
    u32 n = (sel >> (4 * i)) & 0xf;
    u32 byte = (u32) (v >> (8 * (n & 7))) & 0xff;
    if (n & 8)
      byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d;
#endif
}

/* per byte: |a - b| */
CFX_HD u32
absdiff4 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vabsdiffu4 (a, b);
#else
  u32 r = 0;
  for (int k = 0; k < 32; k += 8) {
    int x = (a >> k) & 0xff, y = (b >> k) & 0xff;
    r |= (u32) (x > y ? x - y : y - x) << k;
  }
  return r;
#endif
}

/* per byte: (a + b) >> 1 */
CFX_HD u32
hadd4 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vhaddu4 (a, b);
#else
  return (a & b) + (((a ^ b) >> 1) & 0x7f7f7f7fu);
#endif
}

/* per byte: (a + b + 1) >> 1 */
CFX_HD u32
avg4 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vavgu4 (a, b);
#else
  return (a | b) - (((a ^ b) >> 1) & 0x7f7f7f7fu);
#endif
}

/* 16-bit lanes, signed (all values here fit: |v| < 2^15); the host's
 * versions of the lane instructions use these */
#ifndef __CUDA_ARCH__
CFX_HD int
lane (u32 x, int i)
{
  return (int16_t) (uint16_t) (x >> (16 * i));
}

CFX_HD u32
lanes (int lo, int hi)
{
  return (u32) (uint16_t) lo | (u32) (uint16_t) hi << 16;
}
#endif

CFX_HD u32
add2 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vadd2 (a, b);
#else
  return lanes (lane (a, 0) + lane (b, 0), lane (a, 1) + lane (b, 1));
#endif
}

CFX_HD u32
sub2 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vsub2 (a, b);
#else
  return lanes (lane (a, 0) - lane (b, 0), lane (a, 1) - lane (b, 1));
#endif
}

CFX_HDC int
imax (int a, int b)
{
  return a > b ? a : b;
}

CFX_HDC int
imin (int a, int b)
{
  return a < b ? a : b;
}

CFX_HD u32
max2 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vmaxs2 (a, b);
#else
  return lanes (imax (lane (a, 0), lane (b, 0)), imax (lane (a, 1), lane (b,
              1)));
#endif
}

CFX_HD u32
min2 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vmins2 (a, b);
#else
  return lanes (imin (lane (a, 0), lane (b, 0)), imin (lane (a, 1), lane (b,
              1)));
#endif
}

CFX_HD u32
max3 (u32 a, u32 b, u32 c)
{
#ifdef __CUDA_ARCH__
  return __vimax3_s16x2 (a, b, c);
#else
  return max2 (max2 (a, b), c);
#endif
}

CFX_HD u32
min3 (u32 a, u32 b, u32 c)
{
#ifdef __CUDA_ARCH__
  return __vimin3_s16x2 (a, b, c);
#else
  return min2 (min2 (a, b), c);
#endif
}

/* max (a, b, 0) */
CFX_HD u32
max_relu (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vimax_s16x2_relu (a, b);
#else
  return max2 (max2 (a, b), 0);
#endif
}

/* unsigned 16-bit lanes */
CFX_HD u32
minu2 (u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
  return __vminu2 (a, b);
#else
  u32 lo = imin (a & 0xffff, b & 0xffff), hi = imin (a >> 16, b >> 16);
  return lo | hi << 16;
#endif
}

/* (x >> 1) per lane, for lanes in [0, 2^15) */
CFX_HD u32
half2 (u32 x)
{
  return (x >> 1) & 0x7fff7fffu;
}

/* coef.lo * bytes[0 or 2] + coef.hi * bytes[1 or 3] + acc: 16-bit signed
 * coefficients, unsigned bytes (IDP.2A) */
CFX_HD int
dot2 (u32 coef, u32 bytes, bool hi, int acc)
{
#ifdef __CUDA_ARCH__
  int d;
  if (hi)
    asm ("dp2a.hi.s32.u32 %0, %1, %2, %3;":"=r" (d):"r" (coef), "r" (bytes),
        "r" (acc));
  else
    asm ("dp2a.lo.s32.u32 %0, %1, %2, %3;":"=r" (d):"r" (coef), "r" (bytes),
        "r" (acc));
  return d;
#else
  int s = hi ? 16 : 0;
  return acc + lane (coef, 0) * (int) ((bytes >> s) & 0xff)
      + lane (coef, 1) * (int) ((bytes >> (s + 8)) & 0xff);
#endif
}

CFX_HD u32
blend (u32 mask, u32 a, u32 b)
{
  return (a & mask) | (b & ~mask);
}

/* A word's four samples as two registers of 16-bit lanes: e holds bytes
 * 0 and 2, o bytes 1 and 3 */
struct Half
{
  u32 e, o;
};

CFX_HD Half
unpack (u32 w)
{
  Half h = { prmt (w, 0, 0x4240), prmt (w, 0, 0x4341) };
  return h;
}

/* the low bytes of the lanes back into a word */
CFX_HD u32
pack (const Half & h)
{
  return prmt (h.e, h.o, 0x6240);
}

/* 0xffff in the lanes that are negative */
CFX_HD u32
neg_lanes (u32 t)
{
  return prmt (t, 0, 0xbb99);
}

/* 0xff in the bytes whose sample's lane is negative */
CFX_HD u32
neg_bytes (const Half & t)
{
  return prmt (t.e, t.o, 0xfbd9);
}

/* byte pairs of two words: {a0, b0, a1, b1} and {a2, b2, a3, b3}; sample k
 * is in pair word k / 2, half k & 1 (dot2's lo or hi) */
struct Pairs
{
  u32 w[2];
};

CFX_HD Pairs
pairs (u32 a, u32 b)
{
  Pairs p = { {prmt (a, b, 0x5140), prmt (a, b, 0x7362)} };
  return p;
}

/* 16-bit lanes of (c, c) */
CFX_HDC u32
coef (int c)
{
  return (u32) (uint16_t) c * 0x00010001u;
}

/* 16-bit lanes of (a, b) */
CFX_HDC u32
coef2 (int a, int b)
{
  return (u32) (uint16_t) a | (u32) (uint16_t) b << 16;
}

/* the four samples' results (ints that fit 16 bits) as lanes */
CFX_HD Half
lanes_of (const int v[4])
{
  Half h = { prmt ((u32) v[0], (u32) v[2], 0x5410),
    prmt ((u32) v[1], (u32) v[3], 0x5410)
  };
  return h;
}

/* ---- layouts: a component's neighbour k samples away ---------------------- */

/* distance in bytes between neighbouring samples of byte i's component */
CFX_HDC int
step_of (int layout, int i)
{
  return layout == LAYOUT_PLANAR ? 1 :
      layout == LAYOUT_PAIRS ? 2 :
      layout == LAYOUT_UYVY ? ((i & 1) ? 2 : 4) : ((i & 1) ? 4 : 2);
}

/* neighbour words each side that samples up to 3 away can come from */
CFX_HDC int
reach_of (int layout)
{
  return layout == LAYOUT_PLANAR ? 1 :
      layout == LAYOUT_PAIRS ? 2 : 3;
}

CFX_HDC int
floor4 (int s)
{
  return s >= 0 ? s / 4 : -((-s + 3) / 4);
}

/* where byte i of the word shifted by K samples comes from: word q
 * (relative), byte r */
template < int LAYOUT, int K > struct Shift
{
  static CFX_HDC int src (int i)
  {
    return i + K * step_of (LAYOUT, i);
  }
  static CFX_HDC int q (int i)
  {
    return floor4 (src (i));
  }
  static CFX_HDC int r (int i)
  {
    return src (i) - 4 * q (i);
  }
  static CFX_HDC int qmin ()
  {
    return imin (imin (q (0), q (1)), imin (q (2), q (3)));
  }
  static CFX_HDC int qmax ()
  {
    return imax (imax (q (0), q (1)), imax (q (2), q (3)));
  }
  /* a third word between the two (packed 4:2:2, |K| = 3) */
  static CFX_HDC bool has_mid ()
  {
    return (q (0) != qmin () && q (0) != qmax ())
        || (q (1) != qmin () && q (1) != qmax ())
        || (q (2) != qmin () && q (2) != qmax ())
        || (q (3) != qmin () && q (3) != qmax ());
  }
  static CFX_HDC int qmid ()
  {
    return (q (0) != qmin () && q (0) != qmax ())? q (0) :
        (q (1) != qmin () && q (1) != qmax ())? q (1) :
        (q (2) != qmin () && q (2) != qmax ())? q (2) : q (3);
  }
  /* one PRMT over words lo and hi: byte i from lo's or hi's byte r (i),
   * or kept from lo's byte i (keep_lo) */
  static CFX_HDC u32 nibble (int i, int lo, int hi, bool keep)
  {
    return q (i) == lo ? (u32) r (i) : q (i) == hi ? (u32) (4 + r (i)) :
        (u32) (keep ? i : 0);
  }
  static CFX_HDC u32 sel (int lo, int hi, bool keep)
  {
    return nibble (0, lo, hi, keep) | nibble (1, lo, hi, keep) << 4
        | nibble (2, lo, hi, keep) << 8 | nibble (3, lo, hi, keep) << 12;
  }
};

/* The word shifted by K samples of each byte's component, from the
 * neighbour words W[0 .. 2R] (W[R]: the thread's word) */
template < int LAYOUT, int K, int R > CFX_HD u32
shifted (const u32 * W)
{
  typedef Shift < LAYOUT, K > S;
  if constexpr (K == 0) {
    return W[R];
  } else if constexpr (S::qmin () == S::qmax ()
      && S::sel (S::qmin (), S::qmax (), false) == 0x3210) {
    return W[R + S::qmin ()];   /* whole words */
  } else if constexpr (!S::has_mid ()) {
    return prmt (W[R + S::qmin ()], W[R + S::qmax ()],
        S::sel (S::qmin (), S::qmax (), false));
  } else {
    u32 t = prmt (W[R + S::qmin ()], W[R + S::qmid ()],
        S::sel (S::qmin (), S::qmid (), false));
    return prmt (t, W[R + S::qmax ()], S::sel (-100, S::qmax (), true));
  }
}

/* column of byte b (of the row) in its component */
CFX_HD int
sample_x (int layout, int b)
{
  return b / step_of (layout, b & 3);
}

CFX_HD int
width_of (int layout, int i, const PlaneArgs & pa)
{
  return step_of (layout, i) == 4 ? pa.cwidth : pa.width;
}

/* 0xff in the bytes of word @word whose sample has lo <= x < width - hi */
CFX_HD u32
inside_mask (int layout, int word, const PlaneArgs & pa, int lo, int hi)
{
  u32 m = 0;
  for (int i = 0; i < 4; i++) {
    int x = sample_x (layout, 4 * word + i);
    if (x >= lo && x < width_of (layout, i, pa) - hi)
      m |= 0xffu << (8 * i);
  }
  return m;
}

/* ---- memory ------------------------------------------------------------- */

/* p, hidden from the compiler's reassociation: a row's address is then
 * one wide multiply-add (row * pitch + the thread's column), not a
 * multiply-add and two 64-bit adds (it would add the column to the
 * product, then the frame's base) */
template < typename T > CFX_HD T *
opaque (T * p)
{
#ifdef __CUDA_ARCH__
  asm volatile ("mov.b64 %0, %0;":"+l" (p));
#endif
  return p;
}

/* What one thread sees of a plane */
struct View
{
  const uint8_t *f[5];          /* P, C, N, A, B */
  const uint8_t *col[5];        /* the same at the thread's word */
  int pitch[5];
  uint8_t *dst, *dst_col;
  int pitch_dst;
  int height, row_bytes, words, wb, aligned;
  int nb[7];                    /* MODE_CLAMP: byte offsets of the words
                                 * -3 .. 3 words away, clamped into the row */
};

/* How a thread's column loads its rows (yadif and ELA read neighbour
 * words of C's rows; the other methods only the thread's own word):
 *   MODE_FAST   aligned plane, every neighbour word inside the row, no
 *               sample under an edge rule: no checks
 *   MODE_EDGE   aligned plane, a warp with a column near the row's ends,
 *               on the window: the edge masks take the samples whose
 *               neighbours fall outside the row out of the search, so a
 *               neighbour word outside the row may hold anything; it is
 *               loaded from where it would be (the end of the row above,
 *               or past the row's end): the window reads C's rows 1 ..
 *               h - 2 only and the pitch is at least 4 * reach, so that
 *               stays inside the plane
 *   MODE_CLAMP  the same warps' rows near the top and bottom: neighbour
 *               words clamped into the row
 *   MODE_SLOW   unaligned planes (and aligned ones too narrow for
 *               MODE_EDGE): every access checked (byte loads, stores that
 *               stop at the row's end), one pair at a time
 * The 32 columns of a warp share FAST or EDGE, so that a warp never runs
 * two loops one after the other. */
enum
{
  MODE_FAST,
  MODE_EDGE,
  MODE_CLAMP,
  MODE_SLOW,
};

enum
{
  FP, FC, FN, FA, FB
};

CFX_HD u32
load32 (const uint8_t * p)
{
#ifdef __CUDA_ARCH__
  return __ldg ((const unsigned int *) p);
#else
  u32 w;
  memcpy (&w, p, 4);
  return w;
#endif
}

/* the word at byte off of a row: zero outside the row's words; unaligned
 * planes by bytes, zero past the row's samples (a call: rare paths) */
CFX_HD_RARE u32
load_checked (const uint8_t * r, int off, int words, int row_bytes,
    int aligned)
{
  u32 w = 0;

  if (off < 0 || off >= 4 * words)
    return 0;
  if (aligned)
    return load32 (r + off);
  for (int i = 0; i < 4; i++)
    if (off + i < row_bytes)
      w |= (u32) r[off + i] << (8 * i);
  return w;
}

CFX_HD_RARE void
store_bytes (uint8_t * r, u32 w, int n)
{
  for (int i = 0; i < 4; i++)
    if (i < n)
      r[i] = (uint8_t) (w >> (8 * i));
}

/* The word k words right of the thread's in row y of frame F (MODE_SLOW:
 * zero outside the row) */
template < int MODE > CFX_HD u32
ld (const View & v, int F, int y, int k = 0)
{
  const uint8_t *r = v.f[F] + (size_t) y * v.pitch[F];

  if constexpr (MODE == MODE_FAST || MODE == MODE_EDGE)
    return load32 (v.col[F] + (long long) y * v.pitch[F] + 4 * k);
  else if constexpr (MODE == MODE_CLAMP)
    return load32 (r + (k == 0 ? v.wb : v.nb[k + 3]));
  else
    return load_checked (r, v.wb + 4 * k, v.words, v.row_bytes, v.aligned);
}

/* stores the thread's word of row y (unaligned: never past the row) */
template < int MODE > CFX_HD void
st (const View & v, int y, u32 w)
{
  uint8_t *r = v.dst + (size_t) y * v.pitch_dst + v.wb;

  if (MODE != MODE_SLOW)
    *(u32 *) (v.dst_col + (long long) y * v.pitch_dst) = w;
  else if (v.aligned)
    *(u32 *) r = w;
  else
    store_bytes (r, w, v.row_bytes - v.wb);
}

/* row y of C: the thread's word and R neighbour words each side */
template < int R, int MODE > CFX_HD void
c_words (const View & v, int y, u32 * W)
{
UNROLL
  for (int k = -R; k <= R; k++)
    W[k + R] = ld < MODE > (v, FC, y, k);
}

/* ---- shared by yadif and bwdif -------------------------------------------- */

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

/* ---- ELA ---------------------------------------------------------------- */

/* C's rows y - 1 and y + 1 at x - 1, x, x + 1 (clamped into the row) */
CFX_HD u32
ela_word (const u32 * cm, const u32 * cp)
{
  Half c0 = unpack (absdiff4 (cm[1], cp[1]));
  Half cl = unpack (absdiff4 (cm[0], cp[2]));   /* j = -1 */
  Half cr = unpack (absdiff4 (cm[2], cp[0]));   /* j = +1 */
  Half l, r;

  /* ties to j = 0, then to -1 */
  l.e = sub2 (cl.e, c0.e);
  l.o = sub2 (cl.o, c0.o);
  r.e = sub2 (cr.e, min2 (c0.e, cl.e));
  r.o = sub2 (cr.o, min2 (c0.o, cl.o));

  u32 ml = neg_bytes (l), mr = neg_bytes (r);
  u32 a = blend (mr, cm[2], blend (ml, cm[0], cm[1]));
  u32 b = blend (mr, cp[0], blend (ml, cp[2], cp[1]));

  return avg4 (a, b);
}

/* ---- one thread: a word column over a strip of row pairs ------------------ */

/* mirror for the intra-field modes: -1 -> 1, h -> h - 2 */
CFX_HD int
mirror_row (int y, int h)
{
  return y < 0 ? -y : y >= h ? 2 * h - 2 - y : y;
}

/* FIRST: the output field is the first of the frame (A = P, B = C), else
 * the second (A = C, B = N): a template parameter, so that A and B are
 * the same registers as the frames they are */
template < bool FIRST > CFX_HD View
view_of (const PlaneArgs & pa, int word)
{
  View v;

  v.f[FP] = pa.prev;
  v.pitch[FP] = pa.pitch_prev;
  v.f[FC] = pa.cur;
  v.pitch[FC] = pa.pitch_cur;
  v.f[FN] = pa.next;
  v.pitch[FN] = pa.pitch_next;
  /* the frames whose opposite field brackets the output instant */
  v.f[FA] = FIRST ? pa.prev : pa.cur;
  v.pitch[FA] = FIRST ? pa.pitch_prev : pa.pitch_cur;
  v.f[FB] = FIRST ? pa.cur : pa.next;
  v.pitch[FB] = FIRST ? pa.pitch_cur : pa.pitch_next;
  v.dst = pa.dst;
  v.pitch_dst = pa.pitch_dst;
  v.height = pa.height;
  v.row_bytes = pa.row_bytes;
  v.words = pa.words;
  v.wb = 4 * word;
  v.aligned = pa.aligned;
  v.col[FP] = opaque (v.f[FP] + v.wb);
  v.col[FC] = opaque (v.f[FC] + v.wb);
  v.col[FN] = opaque (v.f[FN] + v.wb);
  v.col[FA] = FIRST ? v.col[FP] : v.col[FC];
  v.col[FB] = FIRST ? v.col[FC] : v.col[FN];
  v.dst_col = opaque (v.dst + v.wb);
  for (int k = 0; k < 7; k++)
    v.nb[k] = 4 * imax (0, imin (word + k - 3, pa.words - 1));
  return v;
}

/* A strip: pairs k0 .. k1 - 1 (pair k: interpolated row 2k + 1 - par,
 * copied row 2k + par; either may be past the end on odd heights). The
 * pairs fa .. fb - 1 have every row of the method's stencil inside the
 * frame (lo <= y, y + hi <= h) and run on the sliding window; the others
 * take the slow path. fa = -1: none. The window lives only during the
 * run, so the slow path's registers do not add to it. */
struct Strip
{
  int k0, k1, fa, fb, par;
};

CFX_HD Strip
strip_of (const LaunchArgs & L, const PlaneArgs & pa, int strip, int lo,
    int hi)
{
  Strip s;
  int h = pa.height, n;

  s.par = L.parity;
  s.k0 = strip * pa.strip_pairs;
  s.k1 = imin (s.k0 + pa.strip_pairs, (h + 1) / 2);
  /* y >= lo: k >= (lo - 1 + par) / 2 rounded up; y + hi <= h:
   * k <= (h - hi - 1 + par) / 2 rounded down */
  n = h - hi - 1 + s.par;
  s.fa = imax (s.k0, (lo + s.par) / 2);
  s.fb = imin (s.k1, n >= 0 ? n / 2 + 1 : 0);
  if (s.fa >= s.fb)
    s.fa = -1;
  return s;
}

/* a copied row on the slow path */
template < int MODE > CFX_HD void
copy_row (const View & v, int yc)
{
  if (yc < v.height)
    st < MODE > (v, yc, ld < MODE > (v, FC, yc));
}

/* |X - C| at row r as lanes, C's word given */
template < int MODE > CFX_HD Half
against_c (const View & v, int F, int r, u32 c)
{
  return unpack (absdiff4 (ld < MODE > (v, F, r), c));
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
    /* edge rows: the page's mirrored m and p, no cubic */
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
  copy_row < MODE > (v, 2 * k + par);
}

/* bwdif's first and last fields: the window over 3 <= y, y + 4 <= h */
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

template < int MODE > CFX_HD void
bwdif_intra_slow (int par, const View & v, int k)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h) {
    int m = y > 0 ? y - 1 : y + 1, p = y + 1 < h ? y + 1 : y - 1;
    int m3 = y > 2 ? y - 3 : y + 1, p3 = y + 3 < h ? y + 3 : y - 1;

    st < MODE > (v, y, bwdif_intra_word (ld < MODE > (v, FC, m3),
            ld < MODE > (v, FC, m), ld < MODE > (v, FC, p),
            ld < MODE > (v, FC, p3)));
  }
  copy_row < MODE > (v, 2 * k + par);
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
      st < MODE > (v, y, yadif_word < LAYOUT, MODE != MODE_FAST, true > (e, inside));
    } else {
      st < MODE > (v, y, yadif_word < LAYOUT, MODE != MODE_FAST, false > (e, inside));
    }
  }
  copy_row < MODE > (v, 2 * k + par);
}

/* C's words of a row at x - 1, x, x + 1; EDGE: clamped into the row */
template < int LAYOUT, int MODE > CFX_HD void
ela_shifts (const u32 * W, u32 * s, u32 left_edge, u32 right_edge)
{
  s[0] = shifted < LAYOUT, -1, 1 > (W);
  s[1] = W[1];
  s[2] = shifted < LAYOUT, 1, 1 > (W);
  if (MODE != MODE_FAST) {
    s[0] = blend (left_edge, s[1], s[0]);
    s[2] = blend (right_edge, s[1], s[2]);
  }
}

template < int LAYOUT, int MODE > CFX_HD void
ela_row (const View & v, int y, u32 * s, u32 left_edge, u32 right_edge)
{
  u32 W[3];

  c_words < 1, MODE > (v, y, W);
  ela_shifts < LAYOUT, MODE > (W, s, left_edge, right_edge);
}

/* ELA and linear: the window over 1 <= y, y + 2 <= h */
template < int LAYOUT, int MODE > CFX_HD void
ela_run (const Strip & s, const View & v, u32 left_edge, u32 right_edge)
{
  const int par = s.par, last = v.height - 1 - (MODE == MODE_EDGE);
  int k = s.fa, y = 2 * k + 1 - par;
  u32 cm[3], cp[3];
  /* q[i]: C's row y + 1 + 2i, loads in flight */
  u32 q[ELA_PREFETCH][3];

  ela_row < LAYOUT, MODE > (v, y - 1, cp, left_edge, right_edge);
UNROLL
  for (int i = 0; i < ELA_PREFETCH; i++)
    c_words < 1, MODE > (v, imin (y + 1 + 2 * i, last), q[i]);
NO_UNROLL
  for (;;) {
    cm[0] = cp[0];
    cm[1] = cp[1];
    cm[2] = cp[2];
    ela_shifts < LAYOUT, MODE > (q[0], cp, left_edge, right_edge);
    st < MODE > (v, y, ela_word (cm, cp));
    st < MODE > (v, y - 1 + 2 * par, par ? cp[1] : cm[1]);
    if (++k == s.fb)
      return;
    y += 2;
UNROLL
    for (int i = 0; i < ELA_PREFETCH - 1; i++) {
      q[i][0] = q[i + 1][0];
      q[i][1] = q[i + 1][1];
      q[i][2] = q[i + 1][2];
    }
    c_words < 1, MODE > (v, imin (y - 1 + 2 * ELA_PREFETCH, last),
        q[ELA_PREFETCH - 1]);
  }
}

/* the intra-field modes' edge rows: mirrored rows */
template < int LAYOUT, int MODE > CFX_HD void
ela_slow (int par, const View & v, int k, u32 left_edge, u32 right_edge)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h) {
    u32 cm[3], cp[3];

    ela_row < LAYOUT, MODE > (v, mirror_row (y - 1, h), cm, left_edge,
        right_edge);
    ela_row < LAYOUT, MODE > (v, mirror_row (y + 1, h), cp, left_edge,
        right_edge);
    st < MODE > (v, y, ela_word (cm, cp));
  }
  copy_row < MODE > (v, 2 * k + par);
}

template < int MODE > CFX_HD void
linear_run (const Strip & s, const View & v)
{
  const int par = s.par, last = v.height - 1;
  int k = s.fa, y = 2 * k + 1 - par;
  /* q[i]: C's row y - 1 + 2i; the rows after y + 1 are loads in flight */
  u32 q[2 + PREFETCH];

UNROLL
  for (int i = 0; i < 2 + PREFETCH; i++)
    q[i] = ld < MODE > (v, FC, imin (y - 1 + 2 * i, last));
NO_UNROLL
  for (;;) {
    st < MODE > (v, y, avg4 (q[0], q[1]));
    st < MODE > (v, y - 1 + 2 * par, par ? q[1] : q[0]);
    if (++k == s.fb)
      return;
    y += 2;
UNROLL
    for (int i = 0; i < 1 + PREFETCH; i++)
      q[i] = q[i + 1];
    q[1 + PREFETCH] = ld < MODE > (v, FC, imin (y + 1 + 2 * PREFETCH, last));
  }
}

template < int MODE > CFX_HD void
linear_slow (int par, const View & v, int k)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h)
    st < MODE > (v, y, avg4 (ld < MODE > (v, FC, mirror_row (y - 1, h)),
            ld < MODE > (v, FC, mirror_row (y + 1, h))));
  copy_row < MODE > (v, 2 * k + par);
}

/* ---- a thread's strip: runs, rare pairs, rare columns ------------------- */

/* rows a method's window needs above (lo <= y) and below (y + hi <= h);
 * MODE_EDGE reads C's rows 1 .. h - 2 only */
CFX_HDC int
reach_up (int m, int mode)
{
  return m == M_BWDIF ? 4 : m == M_BWDIF_INTRA ? 3 : m == M_YADIF ? 2 :
      mode == MODE_EDGE ? 2 : 1;
}

CFX_HDC int
reach_down (int m, int mode)
{
  return reach_up (m, mode) + 1;
}

/* yadif: where the search runs; ELA: the samples whose x - 1 or x + 1
 * falls outside the row */
struct Edges
{
  u32 inside, left, right;
};

template < int M, int LAYOUT, int MODE > CFX_HD Edges
edges_of (const PlaneArgs & pa, int word)
{
  Edges e = { ~0u, 0, 0 };

  if (MODE != MODE_FAST && M == M_YADIF)
    e.inside = inside_mask (LAYOUT, word, pa, 3, 3);
  if (MODE != MODE_FAST && M == M_ELA) {
    e.left = ~inside_mask (LAYOUT, word, pa, 1, 0);
    e.right = ~inside_mask (LAYOUT, word, pa, 0, 1);
  }
  return e;
}

/* the column needs no edge rule and no neighbour word outside the row */
template < int M, int LAYOUT > CFX_HD bool
column_inside (const PlaneArgs & pa, int word)
{
  if constexpr (M == M_YADIF) {
    constexpr int R = reach_of (LAYOUT);
    return word >= R && word + R < pa.words
        && inside_mask (LAYOUT, word, pa, 3, 3) == ~0u;
  } else if constexpr (M == M_ELA) {
    return word >= 1 && word + 1 < pa.words
        && inside_mask (LAYOUT, word, pa, 1, 1) == ~0u;
  }
  return true;
}

/* The mode of the warp that holds column @word (a warp: 32 consecutive
 * words of a row). Columns inside are contiguous, so the warp's first and
 * last say for all. */
template < int M, int LAYOUT > CFX_HD int
column_mode (const PlaneArgs & pa, int word)
{
  int w0 = word - word % BLOCK_X, w1 = imin (w0 + BLOCK_X - 1, pa.words - 1);

  if (!pa.aligned)
    return MODE_SLOW;
  if (column_inside < M, LAYOUT > (pa, w0)
      && column_inside < M, LAYOUT > (pa, w1))
    return MODE_FAST;
  return pa.pitch_cur >= 4 * reach_of (LAYOUT) ? MODE_EDGE : MODE_SLOW;
}

/* One pair with every row loaded for it, by the page's rules for its
 * rows and columns */
template < int M, int LAYOUT, int MODE > CFX_HD void
slow_pair (const LaunchArgs & L, const View & v, const Edges & e, int k)
{
  const int par = L.parity;

  if constexpr (M == M_BWDIF)
    bwdif_slow < MODE > (par, v, k);
  else if constexpr (M == M_BWDIF_INTRA)
    bwdif_intra_slow < MODE > (par, v, k);
  else if constexpr (M == M_YADIF)
    yadif_slow < LAYOUT, MODE > (par, v, k, L.spatial_check != 0, e.inside);
  else if constexpr (M == M_ELA)
    ela_slow < LAYOUT, MODE > (par, v, k, e.left, e.right);
  else
    linear_slow < MODE > (par, v, k);
}

/* Rows within the stencil's reach of the top or bottom of a column that
 * runs on the window: a call (rare), given only scalars (the view is
 * rebuilt) */
template < int M, int LAYOUT, bool FIRST, int MODE > CFX_HD_RARE void
rare_pair (const LaunchArgs & L, int plane, int word, int k)
{
  const PlaneArgs & pa = L.plane[plane];

  slow_pair < M, LAYOUT, MODE > (L, view_of < FIRST > (pa, word),
      edges_of < M, LAYOUT, MODE > (pa, word), k);
}

/* A strip: the slow pairs before fa and from fb on, then the run on the
 * window (fa .. fb - 1), last, so that nothing lives across it. (Not one
 * loop with the run inside: the compiler would hoist the run's set-up out
 * of it and keep it live throughout.) MODE_FAST or MODE_EDGE. */
template < int M, int LAYOUT, bool FIRST, int MODE > CFX_HD void
strip_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* the rare pairs of edge warps clamp their neighbour words */
  constexpr int RARE = MODE == MODE_EDGE ? MODE_CLAMP : MODE;
  const PlaneArgs & pa = L.plane[plane];
  const Strip s = strip_of (L, pa, strip, reach_up (M, MODE),
      reach_down (M, MODE));
  const int head = s.fa >= 0 ? s.fa : s.k1;

NO_UNROLL
  for (int k = s.k0; k < head; k++)
    rare_pair < M, LAYOUT, FIRST, RARE > (L, plane, word, k);
  if (s.fa < 0)
    return;
NO_UNROLL
  for (int k = s.fb; k < s.k1; k++)
    rare_pair < M, LAYOUT, FIRST, RARE > (L, plane, word, k);

  const View v = view_of < FIRST > (pa, word);
  const Edges e = edges_of < M, LAYOUT, MODE > (pa, word);

  if constexpr (M == M_BWDIF)
    bwdif_run < MODE > (s, v);
  else if constexpr (M == M_BWDIF_INTRA)
    bwdif_intra_run < MODE > (s, v);
  else if constexpr (M == M_YADIF) {
    /* the spatial check or not: one loop each */
    if (L.spatial_check)
      yadif_run < LAYOUT, MODE, true > (s, v, e.inside);
    else
      yadif_run < LAYOUT, MODE, false > (s, v, e.inside);
  }
  else if constexpr (M == M_ELA)
    ela_run < LAYOUT, MODE > (s, v, e.left, e.right);
  else
    linear_run < MODE > (s, v);
}

/* A column of an unaligned plane: every pair on its own, every load and
 * store checked. Rare: a call. */
template < int M, int LAYOUT, bool FIRST > CFX_HD_RARE void
rare_strip (const LaunchArgs & L, int plane, int word, int strip)
{
  const PlaneArgs & pa = L.plane[plane];
  const Strip s = strip_of (L, pa, strip, 0, 0);
  const View v = view_of < FIRST > (pa, word);
  const Edges e = edges_of < M, LAYOUT, MODE_SLOW > (pa, word);

NO_UNROLL
  for (int k = s.k0; k < s.k1; k++)
    slow_pair < M, LAYOUT, MODE_SLOW > (L, v, e, k);
}

template < int M, int LAYOUT, bool FIRST > CFX_HD void
column_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* only the horizontal stencils have edge columns */
  if constexpr (M == M_YADIF || M == M_ELA) {
    switch (column_mode < M, LAYOUT > (L.plane[plane], word)) {
      case MODE_FAST:
        strip_thread < M, LAYOUT, FIRST, MODE_FAST > (L, plane, word, strip);
        break;
      case MODE_EDGE:
        strip_thread < M, LAYOUT, FIRST, MODE_EDGE > (L, plane, word, strip);
        break;
      default:
        rare_strip < M, LAYOUT, FIRST > (L, plane, word, strip);
        break;
    }
  } else {
    if (L.plane[plane].aligned)
      strip_thread < M, LAYOUT, FIRST, MODE_FAST > (L, plane, word, strip);
    else
      rare_strip < M, LAYOUT, FIRST > (L, plane, word, strip);
  }
}

template < int M, int LAYOUT > CFX_HD void
layout_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* only the temporal methods read A and B */
  if constexpr (M == M_BWDIF || M == M_YADIF) {
    if (L.parity ^ L.tff) {
      column_thread < M, LAYOUT, true > (L, plane, word, strip);
      return;
    }
  }
  column_thread < M, LAYOUT, false > (L, plane, word, strip);
}

template < int M > CFX_HD void
deint_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* only the horizontal stencils care about the layout */
  if constexpr (M == M_YADIF || M == M_ELA) {
    switch (L.plane[plane].layout) {
      case LAYOUT_PLANAR:
        layout_thread < M, LAYOUT_PLANAR > (L, plane, word, strip);
        break;
      case LAYOUT_PAIRS:
        layout_thread < M, LAYOUT_PAIRS > (L, plane, word, strip);
        break;
      case LAYOUT_UYVY:
        layout_thread < M, LAYOUT_UYVY > (L, plane, word, strip);
        break;
      default:
        layout_thread < M, LAYOUT_YUY2 > (L, plane, word, strip);
        break;
    }
  } else {
    layout_thread < M, LAYOUT_PLANAR > (L, plane, word, strip);
  }
}

/* Where thread (tx, ty) of block @block of the flat grid works: plane,
 * word column, strip */
CFX_HD bool
block_work (const LaunchArgs & L, int block, int tx, int ty, int *plane,
    int *word, int *strip)
{
  int pl = block < L.block_end[0] ? 0 : block < L.block_end[1] ? 1 : 2;
  int local = block - (pl ? L.block_end[pl - 1] : 0);
  const PlaneArgs & pa = L.plane[pl];
  int by = local / pa.blocks_x;

  *plane = pl;
  *word = (local - by * pa.blocks_x) * BLOCK_X + tx;
  *strip = by * BLOCK_Y + ty;
  return *word < pa.words && *strip < pa.strips;
}

}                               /* namespace */

constexpr int
min_blocks (int m)
{
  return m == M_BWDIF ? MB_BWDIF : m == M_YADIF ? MB_YADIF : 8;
}

template < int M > __global__ void __launch_bounds__ (THREADS, min_blocks (M))
deinterlace_kernel (const __grid_constant__ LaunchArgs L)
{
  int plane, word, strip;

  if (block_work (L, blockIdx.x, threadIdx.x, threadIdx.y, &plane, &word,
          &strip))
    deint_thread < M > (L, plane, word, strip);
}

/* ---- host ------------------------------------------------------------------ */

extern "C" void
cfx_deinterlace_min_size (CfxDeintMethod method, int *min_width,
    int *min_height)
{
  switch (method) {
    case CFX_DEINT_BWDIF:
      *min_width = 3;
      *min_height = 4;
      break;
    case CFX_DEINT_YADIF:
      *min_width = 3;
      *min_height = 3;
      break;
    default:
      *min_width = 1;
      *min_height = 2;
      break;
  }
}

/* Sets the strips of @strip pairs; returns the number of blocks */
static int
count_blocks (LaunchArgs * L, int n_planes, int strip)
{
  int blocks = 0;

  for (int i = 0; i < MAX_PLANES; i++) {
    if (i < n_planes) {
      PlaneArgs *pa = &L->plane[i];
      int pairs = (pa->height + 1) / 2;

      pa->strip_pairs = strip;
      pa->strips = (pairs + strip - 1) / strip;
      blocks += pa->blocks_x * ((pa->strips + BLOCK_Y - 1) / BLOCK_Y);
    }
    L->block_end[i] = blocks;
  }
  return blocks;
}

/* ---- host: the components' planes ---------------------------------------- */

/* Frame j of a component: 0 prev, 1 cur, 2 next, 3 dst */
static const CfxPlane *
frame_of (const CfxDeintComponent * c, int j)
{
  return j == 0 ? &c->prev : j == 1 ? &c->cur : j == 2 ? &c->next : &c->dst;
}

/* The first byte of the rows of a component's plane */
static const uint8_t *
row_start (const CfxPlane * p)
{
  return p->data - p->offset;
}

/* A plane of the launch: the components that share it (indices into the
 * caller's array), its layout and its width (PLANAR: samples, PAIRS:
 * pairs, packed: the luma's samples, i.e. pixels) */
struct HostPlane
{
  int comp[3], n;
  int layout, width;
};

/* A component's four frames agree on everything but where they are, and
 * hold 8-bit samples */
static bool
component_ok (const CfxDeintComponent * c)
{
  for (int j = 0; j < 4; j++) {
    const CfxPlane *p = frame_of (c, j);

    if (!p->data || p->bytes != 1 || p->step < 1 || p->offset < 0
        || p->width != c->cur.width || p->height != c->cur.height
        || p->step != c->cur.step || p->offset != c->cur.offset)
      return false;
  }
  return true;
}

/* The layout of a plane from its components' steps and offsets (the
 * table at cfx_deinterlace_frame () in deinterlace.h); false for any
 * other arrangement */
static bool
plane_layout (const CfxDeintComponent * comps, HostPlane * hp)
{
  const CfxPlane *a = &comps[hp->comp[0]].cur;

  if (hp->n == 1 && a->step == 1) {
    hp->layout = LAYOUT_PLANAR;
    hp->width = a->width;
    return true;
  }
  if (hp->n == 2) {
    const CfxPlane *b = &comps[hp->comp[1]].cur;

    /* both bytes of a pair are processed alike: U and V in either order */
    if (a->step != 2 || b->step != 2 || a->offset + b->offset != 1
        || a->width != b->width || a->height != b->height)
      return false;
    hp->layout = LAYOUT_PAIRS;
    hp->width = a->width;
    return true;
  }
  if (hp->n == 3) {
    const CfxPlane *luma = NULL;
    int chroma = 0;             /* bit k: a chroma component at offset k */

    for (int i = 0; i < 3; i++) {
      const CfxPlane *p = &comps[hp->comp[i]].cur;

      if (p->step == 2 && !luma)
        luma = p;
      else if (p->step == 4 && p->offset < 4)
        chroma |= 1 << p->offset;
      else
        return false;
    }
    /* luma at the odd bytes, chroma at 0 and 2; or at the even bytes,
     * chroma at 1 and 3 (which chroma is U does not matter) */
    if (!luma || luma->offset > 1 || chroma != (luma->offset ? 0x5 : 0xa))
      return false;
    for (int i = 0; i < 3; i++) {
      const CfxPlane *p = &comps[hp->comp[i]].cur;

      if (p->height != luma->height || (p != luma
              && p->width != (luma->width + 1) / 2))
        return false;
    }
    hp->layout = luma->offset ? LAYOUT_UYVY : LAYOUT_YUY2;
    hp->width = luma->width;
    return true;
  }
  return false;
}

/* Groups the components into planes: components whose rows start at the
 * same byte with the same pitch (in the current frame) share one, and
 * must then share it in every frame. Returns the number of planes, or -1
 * for components the kernel cannot take. */
static int
find_planes (const CfxDeintComponent * comps, int n_comps, HostPlane * planes)
{
  int n = 0;

  if (n_comps < 1 || n_comps > CFX_DEINT_MAX_COMPONENTS)
    return -1;
  for (int i = 0; i < n_comps; i++) {
    const CfxPlane *c = &comps[i].cur;
    int k;

    if (!component_ok (&comps[i]))
      return -1;
    for (k = 0; k < n; k++) {
      const CfxPlane *o = &comps[planes[k].comp[0]].cur;

      if (row_start (c) == row_start (o) && c->pitch == o->pitch)
        break;
    }
    if (k == n) {
      if (n == MAX_PLANES)
        return -1;
      planes[n++].n = 0;
    }
    if (planes[k].n == 3)
      return -1;
    planes[k].comp[planes[k].n++] = i;
  }
  for (int k = 0; k < n; k++) {
    const CfxDeintComponent *first = &comps[planes[k].comp[0]];

    for (int i = 1; i < planes[k].n; i++)
      for (int j = 0; j < 4; j++) {
        const CfxPlane *p = frame_of (&comps[planes[k].comp[i]], j);
        const CfxPlane *q = frame_of (first, j);

        if (row_start (p) != row_start (q) || p->pitch != q->pitch)
          return -1;
      }
    if (!plane_layout (comps, &planes[k]))
      return -1;
  }
  return n;
}

/* Where a plane's bytes start in frame j: its rows (a planar component
 * may sit anywhere in its rows) */
static uint8_t *
plane_data (const CfxDeintComponent * comps, const HostPlane * hp, int j)
{
  const CfxPlane *p = frame_of (&comps[hp->comp[0]], j);

  return hp->layout == LAYOUT_PLANAR ? p->data : (uint8_t *) row_start (p);
}

/* Fills the launch description; returns the number of blocks, or -1 for
 * components the method cannot take. */
static int
setup_launch (LaunchArgs * L, const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, long target_threads, long max_blocks)
{
  HostPlane planes[MAX_PLANES];
  long total = 0;
  int blocks = 0, i, min_w, min_h, max_pairs = 1;
  int n_planes = find_planes (comps, n_comps, planes);

  if (n_planes < 1)
    return -1;
  cfx_deinterlace_min_size (field->method, &min_w, &min_h);
  memset (L, 0, sizeof (*L));
  L->parity = field->parity ? 1 : 0;
  L->tff = field->tff ? 1 : 0;
  L->spatial_check = field->spatial_check ? 1 : 0;

  for (i = 0; i < n_planes; i++) {
    const HostPlane *hp = &planes[i];
    const CfxDeintComponent *s = &comps[hp->comp[0]];
    PlaneArgs *pa = &L->plane[i];
    int w = hp->width, h = s->cur.height;

    pa->layout = hp->layout;
    pa->width = w;
    pa->cwidth = w;
    switch (hp->layout) {
      case LAYOUT_PLANAR:
        pa->row_bytes = w;
        break;
      case LAYOUT_PAIRS:
        pa->row_bytes = 2 * w;
        break;
      case LAYOUT_UYVY:
      case LAYOUT_YUY2:
        pa->cwidth = (w + 1) / 2;
        pa->row_bytes = 4 * pa->cwidth;
        break;
      default:
        return -1;
    }
    if (pa->cwidth < min_w || w < min_w || h < min_h)
      return -1;
    pa->height = h;
    pa->prev = plane_data (comps, hp, 0);
    pa->cur = plane_data (comps, hp, 1);
    pa->next = plane_data (comps, hp, 2);
    pa->dst = plane_data (comps, hp, 3);
    pa->pitch_prev = s->prev.pitch;
    pa->pitch_cur = s->cur.pitch;
    pa->pitch_next = s->next.pitch;
    pa->pitch_dst = s->dst.pitch;
    pa->words = (pa->row_bytes + 3) / 4;
    /* words may run into the row padding, never past the pitch */
    pa->aligned = cfx_aligned (pa->prev, pa->pitch_prev, 1, 4)
        && cfx_aligned (pa->cur, pa->pitch_cur, 1, 4)
        && cfx_aligned (pa->next, pa->pitch_next, 1, 4)
        && cfx_aligned (pa->dst, pa->pitch_dst, 1, 4)
        && pa->pitch_prev >= 4 * pa->words && pa->pitch_cur >= 4 * pa->words
        && pa->pitch_next >= 4 * pa->words && pa->pitch_dst >= 4 * pa->words;
    pa->blocks_x = (pa->words + BLOCK_X - 1) / BLOCK_X;
    total += (long) pa->words * ((h + 1) / 2);
    max_pairs = imax (max_pairs, (h + 1) / 2);
  }

  /* Strip length: long strips load each window row once, short ones
   * fill the GPU. The shortest strips that give target_threads threads at
   * most, in no more than max_blocks blocks (one wave: blocks past it
   * would run in a second wave after the first, doubling the time). */
  long strip = (total + target_threads - 1) / target_threads;

  strip = strip < 1 ? 1 : strip > max_pairs ? max_pairs : strip;
  while ((blocks = count_blocks (L, n_planes, (int) strip)) > max_blocks
      && strip < max_pairs)
    strip++;
  return blocks;
}

template < int M > static cudaError_t
launch (const LaunchArgs & L, int blocks, cudaStream_t stream)
{
  deinterlace_kernel < M > <<< blocks, dim3 (BLOCK_X, BLOCK_Y), 0,
      stream >>> (L);
  return cudaGetLastError ();
}

static int
kernel_of (const CfxDeintField * field)
{
  switch (field->method) {
    case CFX_DEINT_BWDIF:
      return field->intra_only ? M_BWDIF_INTRA : M_BWDIF;
    case CFX_DEINT_YADIF:
      return M_YADIF;
    case CFX_DEINT_ELA:
      return M_ELA;
    case CFX_DEINT_LINEAR:
      return M_LINEAR;
  }
  return -1;
}

template < int M > static cudaError_t
blocks_per_sm (int *n)
{
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor (n,
      deinterlace_kernel < M >, THREADS, 0);
}

/* Blocks of kernel m that the current device holds at once (one wave),
 * asked once per device and kernel */
static cudaError_t
wave_blocks (int m, long *wave)
{
  enum
  { MAX_DEVICES = 64 };
  static int cache[MAX_DEVICES][M_LINEAR + 1];  /* 0: not asked yet */
  int device, sms = 0, per_sm = 0, known;
  cudaError_t err = cudaGetDevice (&device);

  if (err != cudaSuccess)
    return err;
  if (device >= 0 && device < MAX_DEVICES) {
    known = __atomic_load_n (&cache[device][m], __ATOMIC_RELAXED);
    if (known > 0) {
      *wave = known;
      return cudaSuccess;
    }
  }
  err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess)
    return err;
  switch (m) {
    case M_BWDIF:
      err = blocks_per_sm < M_BWDIF > (&per_sm);
      break;
    case M_BWDIF_INTRA:
      err = blocks_per_sm < M_BWDIF_INTRA > (&per_sm);
      break;
    case M_YADIF:
      err = blocks_per_sm < M_YADIF > (&per_sm);
      break;
    case M_ELA:
      err = blocks_per_sm < M_ELA > (&per_sm);
      break;
    default:
      err = blocks_per_sm < M_LINEAR > (&per_sm);
      break;
  }
  if (err != cudaSuccess)
    return err;
  *wave = (long) imax (sms, 1) * imax (per_sm, 1);
  if (device >= 0 && device < MAX_DEVICES)
    __atomic_store_n (&cache[device][m], (int) *wave, __ATOMIC_RELAXED);
  return cudaSuccess;
}

extern "C" cudaError_t
cfx_deinterlace_frame (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, cudaStream_t stream)
{
  LaunchArgs L;
  int blocks, m = kernel_of (field);
  long wave = 0;
  cudaError_t err;

  if (m < 0)
    return cudaErrorInvalidValue;
  err = wave_blocks (m, &wave);
  if (err != cudaSuccess)
    return err;

  blocks = setup_launch (&L, comps, n_comps, field, wave * THREADS, wave);
  if (blocks < 0)
    return cudaErrorInvalidValue;
  if (blocks == 0)
    return cudaSuccess;

  switch (m) {
    case M_BWDIF:
      return launch < M_BWDIF > (L, blocks, stream);
    case M_BWDIF_INTRA:
      return launch < M_BWDIF_INTRA > (L, blocks, stream);
    case M_YADIF:
      return launch < M_YADIF > (L, blocks, stream);
    case M_ELA:
      return launch < M_ELA > (L, blocks, stream);
    default:
      return launch < M_LINEAR > (L, blocks, stream);
  }
}

#ifdef CFX_DEINTERLACE_EMULATE
/* The kernel's per-thread work run on the CPU, thread by thread (host
 * pointers): what tests/kernels/test-deinterlace-emulated.c checks on
 * hosts without a GPU. target_threads sets the strip length as the GPU's
 * size does (with no limit on the blocks). Declared in cudafx-testing.h. */
extern "C" int
cfx_deinterlace_frame_emulate (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int target_threads)
{
  LaunchArgs L;
  int blocks = setup_launch (&L, comps, n_comps, field, target_threads,
      LONG_MAX);

  if (blocks < 0)
    return -1;
  for (int b = 0; b < blocks; b++)
    for (int ty = 0; ty < BLOCK_Y; ty++)
      for (int tx = 0; tx < BLOCK_X; tx++) {
        int plane, word, strip;

        if (!block_work (L, b, tx, ty, &plane, &word, &strip))
          continue;
        switch (field->method) {
          case CFX_DEINT_BWDIF:
            if (field->intra_only)
              deint_thread < M_BWDIF_INTRA > (L, plane, word, strip);
            else
              deint_thread < M_BWDIF > (L, plane, word, strip);
            break;
          case CFX_DEINT_YADIF:
            deint_thread < M_YADIF > (L, plane, word, strip);
            break;
          case CFX_DEINT_ELA:
            deint_thread < M_ELA > (L, plane, word, strip);
            break;
          default:
            deint_thread < M_LINEAR > (L, plane, word, strip);
            break;
        }
      }
  return 0;
}
#endif
