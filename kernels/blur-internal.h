/* Between blur.cu (planning, for both depths) and the kernels of each
 * method, blur-*.cu (8-bit) and blur16-*.cu (16-bit): only those files
 * include this. Not part of the kernels' interface. */
#ifndef CUDAFX_BLUR_INTERNAL_H
#define CUDAFX_BLUR_INTERNAL_H

#include "cudafx-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest folded radius the direct Gaussian takes (sigma <= 16) */
#define CFX_BLUR_DIRECT_MAX_RADIUS 48
#define CFX_BLUR_MAX_TAPS (2 * CFX_BLUR_DIRECT_MAX_RADIUS + 1)
/* sub-channels of one launch: every channel's fields */
#define CFX_BLUR_MAX_SUBS (2 * CFX_BLUR_MAX_CHANNELS)

/* Every sub-channel's amount: -1 writes the blur, 0 ..
 * CFX_BLUR_MAX_AMOUNT its unsharp mask (blur.h, cfx_unsharp) */
#define CFX_BLUR_NO_SHARPEN (-1)

/* One sub-channel of a direct launch: its taps w[k + radius] for offsets
 * -radius .. radius (folded onto the channel), each exactly representable
 * in fp16, and their sums (not exactly 1) */
typedef struct
{
  CfxPlane dst, src;
  int amount;
  int rx, ry;
  float wx[CFX_BLUR_MAX_TAPS], wy[CFX_BLUR_MAX_TAPS];
  double sum_x, sum_y;
} CfxBlurDirect;

cudaError_t cfx_blur_direct_launch (const CfxBlurDirect * subs, int n,
    cudaStream_t stream);

/* One axis of the decimated path. Coarse sample m averages the f fine
 * samples o + m f .. o + m f + f - 1 (mirrored); n coarse samples. */
typedef struct
{
  int f;                        /* power of two; 1: no decimation */
  int log2f;
  int r;                        /* coarse Gaussian radius, <= 24 */
  int o;                        /* first fine sample, a multiple of f */
  int n;
  double sc;                    /* coarse sigma (coarse samples) */
} CfxBlurAxis;

/* One sub-channel of a decimated launch, and its part of the scratch */
typedef struct
{
  CfxPlane dst, src;
  int amount;
  CfxBlurAxis ax, ay;
  void *scratch;
} CfxBlurCoarse;

/* Coarse floats per row, and a sub-channel's scratch bytes */
int cfx_blur_coarse_pitch (const CfxBlurAxis * ax);
size_t cfx_blur_coarse_bytes (const CfxBlurAxis * ax, const CfxBlurAxis * ay);

cudaError_t cfx_blur_coarse_launch (const CfxBlurCoarse * subs, int n,
    cudaStream_t stream);

/* One sub-channel of a box launch */
typedef struct
{
  CfxPlane dst, src;
  int amount;
  int rx, ry;
  void *scratch;
} CfxBlurBox;

/* scratch bytes of one sub-channel (vertical sums) */
size_t cfx_blur_box_sums_bytes (int width, int height, int radius_y);
cudaError_t cfx_blur_box_launch (const CfxBlurBox * subs, int n,
    cudaStream_t stream);

/* One sub-channel of 16-bit samples: a Gaussian (sigmas, and their radii
 * ceil (3 sigma)) or a box (radii), and its parts of the scratch */
typedef struct
{
  CfxPlane dst, src;
  int amount;
  double sigma_x, sigma_y;
  int rx, ry;
  double *wx, *wy;              /* the two passes' taps, w[0 .. r] */
  void *plane;                  /* w * h floats, or the box's int row sums */
} CfxBlur16;

/* Gaussian, radii up to 16 on 16-bit words at 16-byte aligned rows: one
 * kernel (blur16-fused.cu), no scratch; whether it takes a sub-channel */
int cfx_blur16_fused_takes (const CfxPlane * src, int rx, int ry);
cudaError_t cfx_blur16_fused_launch (const CfxBlur16 * sub,
    cudaStream_t stream);
/* Gaussian, any radii: two passes through the scratch plane
 * (blur16-passes.cu) */
cudaError_t cfx_blur16_passes_launch (const CfxBlur16 * sub,
    cudaStream_t stream);
/* Box: two passes through the scratch plane (blur16-box.cu) */
cudaError_t cfx_blur16_box_launch (const CfxBlur16 * sub,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* ---- helpers shared by the blur-*.cu kernels --------------------------- */
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#include "kernel-helpers.h"

/* Two floats as fp16 bits (round to nearest), lo in the low half */
__device__ __forceinline__ uint32_t
pack_half2 (float lo, float hi)
{
  __half2 h = __floats2half2_rn (lo, hi);
  uint32_t u;
  memcpy (&u, &h, 4);
  return u;
}

/* The unsharp mask of source sample @x and its blur @b (as the blur
 * writes it: rounded, in 0 .. @top), amount >= 0 (blur.h's formula;
 * >> of a negative int is the floor division here, as in every CUDA and
 * host compiler we build with) */
CFX_HD int
cfx_unsharp (int x, int b, int amount, int top)
{
  const int v = x + ((amount * (x - b) + 128) >> 8);

  return v < 0 ? 0 : v > top ? top : v;
}

/* 16 blurred bytes @blurred of columns @x .. @x + 15 of a row (bytes past
 * @width are not read, nor used) sharpened against the source row @in:
 * 16 bytes a load where @vec (16-byte aligned row, step 1), else one at a
 * time, @step apart. The source is still in L2 (its rows were read
 * moments ago for the blur). */
__device__ __forceinline__ uint4
sharpen_bytes16 (uint4 blurred, const uint8_t * in, int x, int width,
    int step, bool vec, int amount)
{
  uint32_t b[4] = { blurred.x, blurred.y, blurred.z, blurred.w };
  uint32_t s[4] = { 0, 0, 0, 0 }, o[4] = { 0, 0, 0, 0 };

  if (vec && x + 16 <= width) {
    const uint4 q = *(const uint4 *) (in + x);
    s[0] = q.x;
    s[1] = q.y;
    s[2] = q.z;
    s[3] = q.w;
  } else {
#pragma unroll
    for (int k = 0; k < 16; k++)
      if (x + k < width)
        s[k / 4] |= (uint32_t) in[(size_t) (x + k) * step] << (8 * (k % 4));
  }
#pragma unroll
  for (int k = 0; k < 16; k++) {
    const int sh = 8 * (k % 4);
    o[k / 4] |= (uint32_t) cfx_unsharp ((s[k / 4] >> sh) & 0xff,
        (b[k / 4] >> sh) & 0xff, amount, 255) << sh;
  }
  return make_uint4 (o[0], o[1], o[2], o[3]);
}
#endif
#endif
