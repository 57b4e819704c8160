/* gst-cudafx kernels: entry points that only tests and the benchmark call
 * (elements include cudafx-kernels.h alone). Plain C, no GStreamer. */
#ifndef CUDAFX_TESTING_H
#define CUDAFX_TESTING_H

#include <stddef.h>

#include "cudafx-kernels.h"
/* the deinterlacer's launches for the benchmark */
#include "deinterlace-bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An 8-bit component: @data is its first sample, @offset bytes into its
 * plane's rows, @step bytes between samples (planar: 1, 0) */
static inline CfxPlane
cfx_plane_8bit (uint8_t * data, int pitch, int width, int height, int step,
    int offset)
{
  CfxPlane p;

  p.data = data;
  p.pitch = pitch;
  p.width = width;
  p.height = height;
  p.bytes = 1;
  p.depth = 8;
  p.shift = 0;
  p.step = step;
  p.offset = offset;
  return p;
}

/* ---- blur --------------------------------------------------------------- */

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

/* ---- degrain ------------------------------------------------------------ */

/* keep 1: from now on, the last level of cfx_degrain () on @scratch also
 * stores the float result (before the blend and the rounding) in the
 * scratch, where cfx_degrain_float_result () finds it */
void cfx_degrain_keep_float (CfxDegrainScratch * scratch, int keep);

/* The float result of component c kept by the last cfx_degrain () (pitch
 * in floats) */
cudaError_t cfx_degrain_float_result (const CfxDegrainScratch * scratch,
    int channel, const float **data, int *pitch);

/* Noise gain of band (level, band), band 0 = LH, 1 = HL, 2 = HH: the L2
 * norm of its response to a unit impulse (computed, not tabulated). */
double cfx_degrain_band_gain (int level, int band);

/* 0: 16-bit Gaussians of radii up to 16 (sigma <= 5.33) run as the two
 * tiled passes instead of the one fused kernel (blur16.cu) the elements
 * take, for the benchmark's comparison (process-wide; 1 again restores) */
void cfx_blur16_use_fused (int on);

#ifdef __cplusplus
}
#endif
#endif
