/* blur kernels: part of cudafx-kernels.h (include that, not this).
 *
 * Gaussian and box blur of 8-bit channels (CfxChannel: a planar plane, or
 * one component of a packed or semi-planar plane), with the borders
 * mirrored ("reflect without repeating the edge", any radius, any size
 * down to 1x1). field_step 2 blurs the even rows and the odd rows of each
 * channel as two separate images (interlaced fields); 1 the whole frame.
 * dst and src must not overlap; samples of dst between the channel's
 * samples (other components of a packed plane) are never written.
 *
 * The _multi functions blur several channels (the planes of a frame) in
 * one launch per kernel: small chroma planes share the GPU with the luma
 * plane instead of running after it.
 *
 * Gaussian: the reference is the exact Gaussian in double precision,
 * truncated at radius ceil(3 sigma) and normalised, rounded to nearest.
 * On an axis of n samples the mirrored image repeats every 2 (n - 1)
 * samples, so the kernel folds exactly onto radius min(ceil(3 sigma),
 * n - 1).
 *   - folded radius <= CFX_BLUR_DIRECT_MAX_RADIUS on both axes: one fused
 *     separable kernel on the tensor cores (blur-direct.cu); every output
 *     within 1 of the reference (error before rounding below 0.2).
 *   - otherwise: decimation by a power of two f per axis with first
 *     moments, a small exact Gaussian on the coarse grid, cubic B-spline
 *     upsampling (blur-coarse.cu): time independent of sigma. Measured
 *     against the reference (tests/check/test-blur.c) within 1 on random,
 *     natural, edge, line and stripe images; the bound the tests hold it
 *     to is the issue's: max error 2, mean under 0.5.
 * Box: the exact mean of the (2 rx + 1) x (2 ry + 1) box, integer running
 * sums, rounded half up (blur-box.cu); equal to the reference. */
#ifndef CUDAFX_BLUR_H
#define CUDAFX_BLUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest folded radius the direct Gaussian takes (sigma <= 16) */
#define CFX_BLUR_DIRECT_MAX_RADIUS 48
/* Largest sigma on either axis (decimation factors up to 128) */
#define CFX_BLUR_MAX_SIGMA 1000.0
/* Most channels one _multi call takes */
#define CFX_BLUR_MAX_CHANNELS 4

typedef enum
{
  CFX_BLUR_PATH_DIRECT,
  CFX_BLUR_PATH_DECIMATED,
} CfxBlurPath;

/* One channel of a _multi call: sigmas for the Gaussian, radii for the
 * box (<= 0: that axis is left alone) */
typedef struct
{
  CfxChannel dst, src;
  double sigma_x, sigma_y;
  int radius_x, radius_y;
} CfxBlurChannel;

/* Which Gaussian path a width x height channel blurred with these sigmas
 * takes (with field_step 2, both fields take it) */
CfxBlurPath cfx_blur_gaussian_path (int width, int height, double sigma_x,
    double sigma_y, int field_step);

/* Decimation factor of one axis of the decimated path: 1 (that axis is
 * blurred exactly, at full resolution) for sigma <= 8, else the largest
 * power of two f with 4 f <= sigma */
int cfx_blur_decimation (double sigma);

/* Scratch bytes that cfx_blur_gaussian / cfx_blur_box need for a channel
 * of this size, both fields included (0: none) */
size_t cfx_blur_gaussian_scratch_size (int width, int height, double sigma_x,
    double sigma_y, int field_step);
size_t cfx_blur_box_scratch_size (int width, int height, int radius_x,
    int radius_y, int field_step);

/* Scratch bytes enough for every Gaussian with sigma_x = s / x_div,
 * sigma_y = s / y_div for s in (0, sigma_max], and every box, on a channel
 * of this size: what an element allocates once per caps. The bounds of
 * the channels of a _multi call add up. */
size_t cfx_blur_scratch_bound (int width, int height, double x_div,
    double y_div, int field_step, double sigma_max);

/* Blur @src into @dst (same width and height). scratch: device memory of
 * at least the size above, used only on @stream (so stream order protects
 * it). sigma <= 0 or radius <= 0 leaves that axis alone. Returns
 * cudaErrorInvalidValue for bad arguments, else the launch error. */
cudaError_t cfx_blur_gaussian (CfxChannel dst, CfxChannel src,
    double sigma_x, double sigma_y, int field_step, void *scratch,
    size_t scratch_size, cudaStream_t stream);
cudaError_t cfx_blur_box (CfxChannel dst, CfxChannel src, int radius_x,
    int radius_y, int field_step, void *scratch, size_t scratch_size,
    cudaStream_t stream);

/* The same for @n <= CFX_BLUR_MAX_CHANNELS channels at once; scratch at
 * least the sum of the channels' sizes */
cudaError_t cfx_blur_gaussian_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream);
cudaError_t cfx_blur_box_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream);

#ifdef CFX_BLUR_INTERNAL

/* ---- between blur.cu (planning) and the blur-*.cu kernels ------------- */

#define CFX_BLUR_MAX_TAPS (2 * CFX_BLUR_DIRECT_MAX_RADIUS + 1)
/* sub-channels of one launch: every channel's fields */
#define CFX_BLUR_MAX_SUBS (2 * CFX_BLUR_MAX_CHANNELS)

/* One sub-channel of a direct launch: its taps w[k + radius] for offsets
 * -radius .. radius (folded onto the channel), each exactly representable
 * in fp16, and their sums (not exactly 1) */
typedef struct
{
  CfxChannel dst, src;
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
  CfxChannel dst, src;
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
  CfxChannel dst, src;
  int rx, ry;
  void *scratch;
} CfxBlurBox;

/* scratch bytes of one sub-channel (vertical sums) */
size_t cfx_blur_box_sums_bytes (int width, int height, int radius_y);
cudaError_t cfx_blur_box_launch (const CfxBlurBox * subs, int n,
    cudaStream_t stream);
#endif

#ifdef __cplusplus
}
#endif

#if defined (CFX_BLUR_INTERNAL) && defined (__CUDACC__)
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
#endif
#endif
