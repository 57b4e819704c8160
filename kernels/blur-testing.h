/* blur kernels: entry points that only tests and the benchmark call (and
 * the kernel files that define them). Elements take blur.h alone,
 * through cudafx-kernels.h. Plain C, no GStreamer. */
#ifndef CUDAFX_BLUR_TESTING_H
#define CUDAFX_BLUR_TESTING_H

#include <stddef.h>

#include "cudafx-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CFX_BLUR_PATH_DIRECT,
  CFX_BLUR_PATH_DECIMATED,
} CfxBlurPath;

/* Which Gaussian path a width x height component blurred with these
 * sigmas takes (with field_step 2, both fields take it) */
CfxBlurPath cfx_blur_gaussian_path (int width, int height, double sigma_x,
    double sigma_y, int field_step);

/* Decimation factor of one axis of the decimated path: 1 (that axis is
 * blurred exactly, at full resolution) for sigma <= 8, else the largest
 * power of two f with 4 f <= sigma */
int cfx_blur_decimation (double sigma);

/* Scratch bytes that cfx_blur_gaussian / cfx_blur_box need for a
 * component of this size, both fields included (0: none) */
size_t cfx_blur_gaussian_scratch_size (int width, int height, double sigma_x,
    double sigma_y, int field_step);
size_t cfx_blur_box_scratch_size (int width, int height, int radius_x,
    int radius_y, int field_step);

/* One component: cfx_blur_gaussian_multi / cfx_blur_box_multi with n 1 */
cudaError_t cfx_blur_gaussian (CfxPlane dst, CfxPlane src, double sigma_x,
    double sigma_y, int field_step, void *scratch, size_t scratch_size,
    cudaStream_t stream);
cudaError_t cfx_blur_box (CfxPlane dst, CfxPlane src, int radius_x,
    int radius_y, int field_step, void *scratch, size_t scratch_size,
    cudaStream_t stream);

/* Scratch bytes enough for every Gaussian with sigma_x = s / x_div,
 * sigma_y = s / y_div for s in (0, sigma_max], and every box, on an 8-bit
 * component of this size (what cfx_blur_reserve adds up). */
size_t cfx_blur_scratch_bound (int width, int height, double x_div,
    double y_div, int field_step, double sigma_max);

/* cfx_blur_gaussian_frame / cfx_blur_box_frame on a scratch of the
 * caller's: device memory of at least the components' scratch sizes
 * added up (cfx_blur_gaussian_scratch_size, cfx_blur_box_scratch_size),
 * used only on @stream. cudaErrorInvalidValue where it is too small. */
cudaError_t cfx_blur_gaussian_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream);
cudaError_t cfx_blur_box_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream);

/* 0: 16-bit Gaussians of radii up to 16 (sigma <= 5.33) run as the two
 * tiled passes instead of the one fused kernel (blur16-fused.cu) the
 * elements take, for the benchmark's comparison (process-wide; 1 again
 * restores) */
void cfx_blur16_use_fused (int on);

/* The fused 16-bit Gaussian's phases run on the CPU, block by block and
 * thread by thread (host planes; taps wx[0 .. rx], wy[0 .. ry]
 * normalised as the two passes' taps kernel makes them), in runs of @run
 * rows (a multiple of 16; 0: the run a GPU of @wave resident blocks would
 * take). Returns 0 for the planes and radii the kernel does not take.
 * Defined only where kernels/blur16-fused.cu is compiled with
 * CFX_BLUR16_EMULATE (tests/kernels/blur16-emulate.cu). */
int cfx_blur16_fused_emulate (CfxPlane dst, CfxPlane src, int rx, int ry,
    const double *wx, const double *wy, int run, long wave);

#ifdef __cplusplus
}
#endif
#endif
