/* degrain kernels: part of cudafx-kernels.h (include that, not this).
 *
 * The undecimated ("a trous") wavelet degrain of kernels/degrain.md,
 * defined exactly by tests/reference/degrain.c (cfx_ref_degrain_plane and
 * cfx_ref_degrain_estimate_sigma): one fused kernel per level for all the
 * components (CfxPlane, bytes 1) of a frame, float32 intermediates in a
 * scratch allocated once. */
#ifndef CUDAFX_DEGRAIN_H
#define CUDAFX_DEGRAIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CFX_DEGRAIN_MAX_CHANNELS 3
#define CFX_DEGRAIN_MAX_LEVELS 8
#define CFX_DEGRAIN_WIENER_RADIUS 4     /* the window is 9x9 */
#define CFX_DEGRAIN_EST_TILE 32         /* noise estimate tiles: 32x32 */

typedef enum
{
  CFX_DEGRAIN_WIENER = 0,       /* local Wiener gain over a 9x9 window */
  CFX_DEGRAIN_SOFT = 1,         /* soft threshold */
  CFX_DEGRAIN_IDENTITY = 2,     /* no shrinkage: exact reconstruction (tests) */
} CfxDegrainShrink;

typedef struct
{
  CfxDegrainShrink shrink;
  int levels;                   /* 1 .. CFX_DEGRAIN_MAX_LEVELS */
  float amount;                 /* 0 .. 1: blend of result and input */
  int output_noise;             /* 1: write clip (round (in - blended) + 128) */
  /* per channel: the noise sigma (8-bit units) and its multiplier; the
   * threshold of band (level, b) is strength * sigma * gain (level, b) */
  float sigma[CFX_DEGRAIN_MAX_CHANNELS];
  float strength[CFX_DEGRAIN_MAX_CHANNELS];
  /* 1: estimate each channel's noise from this frame's level-0 HH band, on
   * the way; the result is at cfx_degrain_estimate_device() once the
   * stream has run */
  int estimate;
  /* NULL, or a device float multiplying every threshold, read when the
   * kernels run: the temporal degrain's noise left after its mean
   * (cfx_temporal_noise_scale_device), which the host never waits for */
  const float *sigma_scale;
} CfxDegrainParams;

/* Device scratch for frames of fixed channel sizes: two float images per
 * channel for the low band (ping-pong), one for the sum of the shrunk
 * bands, the per-tile noise medians and the estimate. 12 bytes per sample. */
typedef struct _CfxDegrainScratch CfxDegrainScratch;

/* cudaMalloc's the scratch on the current device (a synchronising call:
 * once per caps, never per frame). Widths and heights of 0 are allowed. */
cudaError_t cfx_degrain_scratch_new (CfxDegrainScratch ** scratch,
    int n_channels, const int *widths, const int *heights);
void cfx_degrain_scratch_free (CfxDegrainScratch * scratch);
size_t cfx_degrain_scratch_bytes (const CfxDegrainScratch * scratch);

/* Degrains n_channels (1..3) components of one frame, each with its own
 * params->sigma[c] and params->strength[c]. dst[c] and src[c] have the
 * sizes the scratch was made for, and 8-bit samples or 16-bit words of
 * 9 to 16 bits (depth, shift), the same in dst[c] as in src[c]
 * (cudaErrorInvalidValue otherwise); sigma stays in 8-bit units at every
 * depth. Only the samples of dst[c] are written, unused bits 0 (components
 * of a packed plane leave the bytes between them alone, and the padding
 * byte of an odd-width packed 4:2:2 row). dst must not overlap src. */
cudaError_t cfx_degrain (const CfxPlane * dst, const CfxPlane * src,
    int n_channels, const CfxDegrainParams * params,
    CfxDegrainScratch * scratch, cudaStream_t stream);

/* Only the noise estimate of each component (the level-0 pass without
 * shrinkage, then the percentile over the tiles): for a first frame that
 * must know its own noise before it is processed. */
cudaError_t cfx_degrain_estimate (const CfxPlane * src, int n_channels,
    CfxDegrainScratch * scratch, cudaStream_t stream);

/* Device address of the last estimate: n_channels ints, each the
 * 10th-percentile tile median M of |16 * HH0| (tests/reference/
 * degrain-estimator.md), -1 where no tile counted. Copy it out
 * asynchronously; cfx_degrain_sigma_from_median() turns M into sigma. */
const int *cfx_degrain_estimate_device (const CfxDegrainScratch * scratch);

/* sigma = M / 16 / 0.6745 / gain (0, HH) * 1.07 in 8-bit units; 0 for M < 0 */
double cfx_degrain_sigma_from_median (int median);

#ifdef __cplusplus
}
#endif
#endif
