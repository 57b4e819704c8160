/* blur kernels: part of cudafx-kernels.h (include that, not this).
 *
 * Gaussian and box blur of 8-bit components (CfxPlane: a planar plane, or
 * one component of a packed or semi-planar plane), with the borders
 * mirrored ("reflect without repeating the edge", any radius, any size
 * down to 1x1). field_step 2 blurs the even rows and the odd rows of each
 * component as two separate images (interlaced fields); 1 the whole frame.
 * dst and src must not overlap; bytes of dst between the component's
 * samples (other components of a packed plane, and the padding byte of an
 * odd-width packed 4:2:2 row) are never written.
 *
 * The _multi functions blur several components (the planes of a frame) in
 * one launch per kernel: small chroma planes share the GPU with the luma
 * plane instead of running after it.
 *
 * Gaussian: the reference is the exact Gaussian in double precision,
 * truncated at radius ceil(3 sigma) and normalised, rounded to nearest.
 * On an axis of n samples the mirrored image repeats every 2 (n - 1)
 * samples, so the kernel folds exactly onto radius min(ceil(3 sigma),
 * n - 1).
 *   - folded radius <= 48 on both axes (sigma <= 16): one fused separable
 *     kernel on the tensor cores (blur-direct.cu); every output within 1
 *     of the reference (error before rounding below 0.2).
 *   - otherwise: decimation by a power of two f per axis with first
 *     moments, a small exact Gaussian on the coarse grid, cubic B-spline
 *     upsampling (blur-coarse.cu): time independent of sigma. Measured
 *     against the reference (tests/check/test-blur.c) within 1 on random,
 *     natural, edge, line and stripe images; the bound the tests hold it
 *     to is the issue's: max error 2, mean under 0.5.
 * Box: the exact mean of the (2 rx + 1) x (2 ry + 1) box, integer running
 * sums, rounded half up (blur-box.cu); equal to the reference.
 * 16-bit components (bytes 2: 9 to 16 significant bits at any shift; their
 * unused bits are ignored and written 0): the same Gaussian and box in
 * units of the component's depth (blur16.cu), direct sums in double
 * precision (every output within 1 of the reference) and in integers
 * (exact), slower than the 8-bit paths and growing with the blur's size.
 *
 * The single-component calls and the path and scratch queries that only
 * tests and the benchmark use are in cudafx-testing.h. */
#ifndef CUDAFX_BLUR_H
#define CUDAFX_BLUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest sigma on either axis (decimation factors up to 128) */
#define CFX_BLUR_MAX_SIGMA 1000.0
/* Most components one _multi call takes */
#define CFX_BLUR_MAX_CHANNELS 4

/* One component of a _multi call: sigmas for the Gaussian, radii for the
 * box (<= 0: that axis is left alone) */
typedef struct
{
  CfxPlane dst, src;
  double sigma_x, sigma_y;
  int radius_x, radius_y;
} CfxBlurChannel;

/* Scratch bytes enough for every Gaussian with sigma_x = s / x_div,
 * sigma_y = s / y_div for s in (0, sigma_max], and every box, on a
 * component of this size: what an element allocates once per caps. The
 * bounds of the components of a _multi call add up. */
size_t cfx_blur_scratch_bound (int width, int height, double x_div,
    double y_div, int field_step, double sigma_max);

/* Scratch bytes enough for any blur of a 16-bit component of this size */
size_t cfx_blur16_scratch_bound (int width, int height, int field_step);

/* Blurs @n <= CFX_BLUR_MAX_CHANNELS components, each src into its dst
 * (same width, height and sample layout: bytes 1, or bytes 2 with the
 * same depth and shift). scratch: device memory of at least
 * the components' scratch sizes added up (their cfx_blur_scratch_bound ()
 * is enough), used only on @stream (so stream order protects it).
 * sigma <= 0 or radius <= 0 leaves that axis alone. Returns
 * cudaErrorInvalidValue for bad arguments, else the launch error. */
cudaError_t cfx_blur_gaussian_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream);
cudaError_t cfx_blur_box_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
