/* Deinterlace kernels, part 2 of 5: what one thread sees of a plane. The
 * launch arguments, a thread's view of the five frames (P, C, N and the
 * fields A and B around the output instant), its loads and stores in each
 * access mode, the strips of row pairs it walks. */
#ifndef CFX_DEINTERLACE_MEMORY_CUH
#define CFX_DEINTERLACE_MEMORY_CUH

#include "deinterlace-simd.cuh"

/* planes of one launch (the block ranges of the flat grid) */
#define MAX_PLANES 3

/* The intra-field methods read one row a step: rows loaded that many
 * steps ahead keep enough bytes in flight. The temporal ones load each
 * step's five to eleven words one step ahead, behind 4 to 8 times the
 * arithmetic. */
#define PREFETCH 6
#define ELA_PREFETCH 4

namespace
{

/* ---- launch arguments --------------------------------------------------- */

/* One plane of a launch (the host fills it from the plane's components) */
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

/* The whole launch: the planes, the last block of each, the field */
struct LaunchArgs
{
  PlaneArgs plane[MAX_PLANES];
  int block_end[MAX_PLANES];
  int parity, tff, spatial_check;
};

/* ---- where a byte's sample lies in its component ------------------------ */

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

/* ---- a thread's view of a plane, and its strip -------------------------- */

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

}                               /* namespace */
#endif
