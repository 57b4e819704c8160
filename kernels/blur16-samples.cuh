/* Between the blur16-*.cu kernels: reading and writing 16-bit samples
 * (9 to 16 significant bits at any shift in their word), and the
 * Gaussian's taps. Only those files include this. */
#ifndef CUDAFX_BLUR16_SAMPLES_CUH
#define CUDAFX_BLUR16_SAMPLES_CUH

#include "blur-internal.h"

#include <math.h>

/* Blocks of the kernels that take one output a thread */
#define BLOCK_X 32
#define BLOCK_Y 8

/* Its functions are CFX_HD (host too): the fused Gaussian's phases run on
 * the CPU in a test */

CFX_HD int
load_sample (const CfxPlane & p, int x, int y)
{
  uint16_t w = *(const uint16_t *) (p.data + (size_t) y * p.pitch +
      (size_t) x * p.step);

  return (w >> p.shift) & ((1 << p.depth) - 1);
}

/* The sample a blur writes at (x, y) from its value @b (rounded and
 * clipped): @b itself, or with @amount (not CFX_BLUR_NO_SHARPEN) the
 * unsharp mask against @src's sample there */
CFX_HD int
sharpened (const CfxPlane & src, int x, int y, int b, int amount, int top)
{
  return amount == CFX_BLUR_NO_SHARPEN ? b :
      cfx_unsharp (load_sample (src, x, y), b, amount, top);
}

/* @v clipped to the depth's range, sharpened (sharpened ()) and stored */
__device__ __forceinline__ void
store_sample (const CfxPlane & p, int x, int y, long long v,
    const CfxPlane & src, int amount)
{
  const long long top = (1LL << p.depth) - 1;

  v = v < 0 ? 0 : v > top ? top : v;
  v = sharpened (src, x, y, (int) v, amount, (int) top);
  *(uint16_t *) (p.data + (size_t) y * p.pitch + (size_t) x * p.step) =
      (uint16_t) (v << p.shift);
}

/* @v rounded to nearest (halves up) and clipped, as store_sample does
 * with floor (v + 0.5), in float: v is far from the integer limits; then
 * sharpened as store_sample does */
CFX_HD void
store_rounded (const CfxPlane & p, int x, int y, float v,
    const CfxPlane & src, int amount)
{
  const float top = (float) ((1u << p.depth) - 1);
  const float r = fminf (fmaxf (floorf (v + 0.5f), 0.f), top);
  const int b = sharpened (src, x, y, (int) r, amount, (int) top);

  *(uint16_t *) (p.data + (size_t) y * p.pitch + (size_t) x * p.step) =
      (uint16_t) ((unsigned) b << p.shift);
}

/* Float conversions with full-rate float arithmetic instead of the
 * conversion unit (a quarter of the rate): 2^23 + n has n as its mantissa.
 *
 * The component of @p in the low (@high 0) or high 16 bits of @w, as a
 * float: the word's bits of the component, under 2^23's exponent, times
 * 2^-shift, less 2^(23 - shift) (one rounding of an exact result) */
CFX_HD float
word_to_float (unsigned w, int high, const CfxPlane & p, unsigned mask)
{
#ifdef __CUDA_ARCH__
  const unsigned bits = mask << p.shift;
  const float scale = __uint_as_float ((127u - p.shift) << 23);
  const unsigned t = high ? __byte_perm (w, 0x4b000000u, 0x7632) &
      (bits | 0xffff0000u) : (w & bits) | 0x4b000000u;

  return fmaf (__uint_as_float (t), scale, -8388608.f * scale);
#else
  return (float) ((w >> (16 * high) & 0xffffu) >> p.shift & mask);
#endif
}

/* floor (v) for v in [0, 2^23), in the low 23 bits (the bits above are
 * 2^23's exponent: callers keep the low 16) */
CFX_HD unsigned
small_floor (float v)
{
#ifdef __CUDA_ARCH__
  return __float_as_uint (__fadd_rd (v, 8388608.f));
#else
  return (unsigned) floorf (v);
#endif
}

/* Tap @k of a Gaussian of radius @r before normalising: exp (-k^2 / (2
 * sigma^2)); r 0 (sigma <= 0): the identity */
CFX_HD double
gaussian_weight (int k, int r, double sigma)
{
  return r ? exp (-((double) k * k) / (2.0 * sigma * sigma)) : 1.0;
}

#endif
