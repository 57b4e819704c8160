/* blur kernels: part of cudafx-kernels.h (include that, not this).
 *
 * Gaussian and box blur of one 8-bit channel (CfxChannel: a planar plane,
 * or one component of a packed or semi-planar plane), with the borders
 * mirrored ("reflect without repeating the edge", any radius, any size
 * down to 1x1). field_step 2 blurs the even rows and the odd rows of the
 * channel as two separate images (interlaced fields); 1 the whole frame.
 * dst and src must not overlap; samples of dst between the channel's
 * samples (other components of a packed plane) are never written.
 *
 * Gaussian: the reference is the exact Gaussian in double precision,
 * truncated at radius ceil(3 sigma) and normalised, rounded to nearest.
 *   - radius ceil(3 sigma) <= CFX_BLUR_DIRECT_MAX_RADIUS on both axes: one
 *     fused separable kernel on the tensor cores (blur-direct.cu); every
 *     output within 1 of the reference (worst-case error before rounding
 *     0.19, see there).
 *   - otherwise: decimation by a power of two f per axis with first
 *     moments, a small exact Gaussian on the coarse grid, cubic B-spline
 *     upsampling (blur-coarse.cu): time independent of sigma. Measured
 *     against the reference (tests/check/test-blur.c), error before
 *     rounding below 0.6 on random, natural, edge, line and stripe images
 *     (all periods and phases), so outputs within 1.
 * Box: the exact mean of the (2 rx + 1) x (2 ry + 1) box, integer running
 * sums, rounded half up (blur-box.cu); equal to the reference. */
#ifndef CUDAFX_BLUR_H
#define CUDAFX_BLUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest ceil(3 sigma) the direct Gaussian takes (sigma <= 8) */
#define CFX_BLUR_DIRECT_MAX_RADIUS 24
/* Largest sigma on either axis (decimation factors up to 128) */
#define CFX_BLUR_MAX_SIGMA 1000.0

typedef enum
{
  CFX_BLUR_PATH_DIRECT,
  CFX_BLUR_PATH_DECIMATED,
} CfxBlurPath;

/* Which Gaussian path a channel blurred with these sigmas takes */
CfxBlurPath cfx_blur_gaussian_path (double sigma_x, double sigma_y);

/* Decimation factor of one axis of the decimated path: 1 (that axis is
 * blurred exactly, at full resolution) for sigma <= 8, else the largest
 * power of two f with 4 f <= sigma */
int cfx_blur_decimation (double sigma);

/* Scratch bytes that cfx_blur_gaussian / cfx_blur_box need for a channel
 * of this size (0: none) */
size_t cfx_blur_gaussian_scratch_size (int width, int height, double sigma_x,
    double sigma_y, int field_step);
size_t cfx_blur_box_scratch_size (int width, int height, int radius_x,
    int radius_y, int field_step);

/* Scratch bytes enough for every Gaussian with sigma_x = s / x_div,
 * sigma_y = s / y_div for s in (0, sigma_max], and every box, on a channel
 * of this size: what an element allocates once per caps. */
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

#ifdef CFX_BLUR_INTERNAL
/* ---- between blur.cu (planning) and the blur-*.cu kernels ------------- */

#define CFX_BLUR_MAX_TAPS (2 * CFX_BLUR_DIRECT_MAX_RADIUS + 1)

/* Taps of a direct pass: w[k + radius] for offsets -radius .. radius, each
 * exactly representable in fp16 */
typedef struct
{
  int radius;
  float w[CFX_BLUR_MAX_TAPS];
} CfxBlurTaps;

/* offset: 128 * sum(wx) * sum(wy) + 0.5 (the kernel works on samples -128) */
cudaError_t cfx_blur_direct_launch (CfxChannel dst, CfxChannel src,
    const CfxBlurTaps * tx, const CfxBlurTaps * ty, float offset,
    cudaStream_t stream);

/* One axis of the decimated path. Coarse sample m averages the f fine
 * samples o + m f .. o + m f + f - 1 (mirrored); n coarse samples. */
typedef struct
{
  int f;                        /* power of two; 1: no decimation */
  int log2f;
  int r;                        /* coarse Gaussian radius */
  int o;                        /* -(r + 3) f */
  int n;                        /* (size - 1) / f + 2 r + 6 */
  float g[CFX_BLUR_MAX_TAPS];   /* coarse Gaussian, g[k + r] */
  float gd[CFX_BLUR_MAX_TAPS];  /* its derivative at k: -k g / sigma_c^2 */
} CfxBlurAxis;

/* Floats per row of the coarse images, and the five images' total bytes */
int cfx_blur_coarse_pitch (const CfxBlurAxis * ax);
size_t cfx_blur_coarse_bytes (const CfxBlurAxis * ax, const CfxBlurAxis * ay);

cudaError_t cfx_blur_coarse_launch (CfxChannel dst, CfxChannel src,
    const CfxBlurAxis * ax, const CfxBlurAxis * ay, float *scratch,
    cudaStream_t stream);

/* wide: the vertical sums need 32 bits (255 (2 ry + 1) > 65535) */
size_t cfx_blur_box_sums_bytes (int width, int height, int wide);
cudaError_t cfx_blur_box_launch (CfxChannel dst, CfxChannel src,
    int radius_x, int radius_y, void *scratch, cudaStream_t stream);
#endif

#ifdef __cplusplus
}
#endif
#endif
