/* temporal degrain kernels: part of cudafx-kernels.h (include that, not
 * this).
 *
 * The motion-compensated temporal mean of tests/reference/temporal.c
 * (kernels/temporal.md: the plan and its bytes), for every component of a
 * frame: luma searches the motion and decides the weights, chroma follows
 * luma's vectors (scaled by its subsampling) and weights. The spatial
 * stage that follows is cfx_degrain() of the mean, its thresholds
 * multiplied by the noise left (cfx_temporal_noise_scale_device()).
 *
 * A frame's search image (sums of 3x3 windows and two levels of 2x2 sums)
 * is made once, when the frame enters the history, into one of the
 * scratch's slots, and serves every output it is a neighbour of. */
#ifndef CUDAFX_TEMPORAL_H
#define CUDAFX_TEMPORAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CFX_TEMPORAL_MAX_RADIUS 3
#define CFX_TEMPORAL_MAX_CHANNELS 3
/* search-image slots: a window's frames and one to spare */
#define CFX_TEMPORAL_SLOTS (2 * CFX_TEMPORAL_MAX_RADIUS + 2)
#define CFX_TEMPORAL_BLOCK 8            /* motion blocks: 8x8 samples */

typedef struct _CfxTemporalScratch CfxTemporalScratch;

/* cudaMalloc's the scratch on the current device (once per caps) for
 * frames of these component sizes (component 0 is luma) and up to @radius
 * neighbours on each side */
cudaError_t cfx_temporal_scratch_new (CfxTemporalScratch ** scratch,
    int n_channels, const int *widths, const int *heights, int radius);
void cfx_temporal_scratch_free (CfxTemporalScratch * scratch);
size_t cfx_temporal_scratch_bytes (const CfxTemporalScratch * scratch);

/* The search image of a frame's luma into @slot (0 .. slots - 1) */
cudaError_t cfx_temporal_prepare (CfxTemporalScratch * scratch, int slot,
    const CfxPlane * luma, cudaStream_t stream);

/* The slots of the search images of @n frames (their lumas, each named by
 * a key: equal keys are the same content), made where the scratch holds
 * none; the images of frames not among them are let go. @restart forgets
 * every image (a new stream). @n < CFX_TEMPORAL_SLOTS. */
cudaError_t cfx_temporal_search_images (CfxTemporalScratch * scratch,
    const uint64_t * keys, const CfxPlane * const *lumas, int n, int restart,
    int *slot_of, cudaStream_t stream);

/* One neighbour: its components and the slot of its search image */
typedef struct
{
  const CfxPlane *frame;
  int slot;
} CfxTemporalNeighbour;

typedef struct
{
  /* past[k - 1]: the k-th frame before the current one; future[k - 1] the
   * k-th after; only frames the stream really has */
  int n_past, n_future;
  CfxTemporalNeighbour past[CFX_TEMPORAL_MAX_RADIUS];
  CfxTemporalNeighbour future[CFX_TEMPORAL_MAX_RADIUS];
  /* luma noise sigma in 8-bit units; <= 0: no neighbour is used */
  float sigma;
} CfxTemporalParams;

/* The temporal mean of the n_channels components @cur (search image in
 * @cur_slot) into the scratch's mean planes, which have @cur's sample
 * layout (cfx_temporal_mean_planes), and the noise scale for the spatial
 * stage on the device */
cudaError_t cfx_temporal_mean (const CfxPlane * cur, int cur_slot,
    int n_channels, const CfxTemporalParams * params,
    CfxTemporalScratch * scratch, cudaStream_t stream);

/* Descriptions of the mean planes for components like @cur's (bytes,
 * depth and shift as @cur's, planar) */
void cfx_temporal_mean_planes (const CfxTemporalScratch * scratch,
    const CfxPlane * cur, int n_channels, CfxPlane * planes);

/* Device float: the root of the mean over the luma of the temporal mean's
 * noise variance, relative to the input's (1: no neighbour used) */
const float *cfx_temporal_noise_scale_device (const CfxTemporalScratch *
    scratch);

#ifdef __cplusplus
}
#endif
#endif
