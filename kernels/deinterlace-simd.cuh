/* Deinterlace kernels, part 1 of 5: arithmetic on four 8-bit samples in
 * one 32-bit register, and the plane layouts (which byte of a word holds
 * which component, and where a neighbour k samples away comes from).
 * Included by deinterlace.cu (and the files it includes), whose top
 * comment says how the pieces fit, and by deinterlace16.cu (through
 * deinterlace16-memory.cuh), whose yadif works two 16-bit samples at once
 * in the 16-bit lanes. */
#ifndef CFX_DEINTERLACE_SIMD_CUH
#define CFX_DEINTERLACE_SIMD_CUH

#include <stdint.h>
#include <string.h>

#include "kernel-helpers.h"

namespace
{

typedef uint32_t u32;

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

/* ---- layouts: a component's neighbour k samples away -------------------- */

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

}                               /* namespace */
#endif
