/* 16-bit deinterlace kernels, part 1 of 4: what a thread sees of a
 * component. The launch arguments (the components, the field, the strip
 * length), a thread's loads and stores of one sample (a 16-bit word) and
 * of a pair (two columns, or P010's U and V, as one 32-bit word),
 * significant bits only. deinterlace16.cu's top comment says how the
 * pieces fit. */
#ifndef CFX_DEINTERLACE16_MEMORY_CUH
#define CFX_DEINTERLACE16_MEMORY_CUH

#include <stdint.h>

#include "cudafx-kernels.h"
#include "kernel-helpers.h"
/* signed 16-bit lane arithmetic (and imax, imin), host versions included:
 * the two-column yadif works both columns at once */
#include "deinterlace-simd.cuh"

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

CFX_HD_INLINE int
iabs (int a)
{
  return a < 0 ? -a : a;
}

CFX_HD_INLINE int
clip (int v, int max)
{
  return v < 0 ? 0 : v > max ? max : v;
}

/* sample x of row y of frame f, its significant bits */
CFX_HD_INLINE int
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
CFX_HD_INLINE int
ab_sum (const Comp16 & c, int a, int b, int x, int r)
{
  return at (c, a, x, r) + at (c, b, x, r);
}

CFX_HD_INLINE void
store (const Comp16 & c, int x, int y, int v)
{
  *(uint16_t *) (c.dst + (size_t) y * c.dst_pitch + (size_t) x * c.step) =
      (uint16_t) ((unsigned) v << c.shift);
}

/* A 32-bit word from the input frames (read-only for the kernel's life) */
CFX_HD_INLINE unsigned
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
template < bool T > CFX_HD_INLINE size_t
pair_offset (int x)
{
  return (size_t) x * (T ? 4 : 2);
}

/* The word of the pair x of row y of frame f, as read */
template < bool T = false > CFX_HD_INLINE unsigned
word_at (const Comp16 & c, int f, int x, int y)
{
  return load_word (c.frame[f] + (size_t) y * c.pitch[f] +
      pair_offset < T > (x));
}

/* @v's lanes as the pair x of row y of the output */
template < bool T > CFX_HD_INLINE void
store_lanes (const Comp16 & c, int x, int y, unsigned v)
{
  *(unsigned *) (c.dst + (size_t) y * c.dst_pitch + pair_offset < T > (x)) =
      v << c.shift;
}

/* the pair x of row y of frame f, significant bits */
CFX_HD_INLINE void
at2 (const Comp16 & c, int f, int x, int y, int *v0, int *v1)
{
  unsigned word = word_at (c, f, x, y);

  *v0 = (int) (word >> c.shift & c.mask);
  *v1 = (int) (word >> (16 + c.shift) & c.mask);
}

template < bool T = false > CFX_HD_INLINE void
store2 (const Comp16 & c, int x, int y, int v0, int v1)
{
  store_lanes < T > (c, x, y, (unsigned) v0 | (unsigned) v1 << 16);
}

/* row y of C copied to the output at the pair x */
template < bool T = false > CFX_HD_INLINE void
copy2 (const Comp16 & c, int x, int y)
{
  unsigned keep = c.mask << c.shift;

  *(unsigned *) (c.dst + (size_t) y * c.dst_pitch + pair_offset < T > (x)) =
      word_at < T > (c, C, x, y) & (keep | keep << 16);
}

}                               /* namespace */

#endif
