/* gst-cudafx kernels: the whole interface between elements and CUDA code.
 * Plain C, no GStreamer. Every function enqueues its work on the stream it
 * is given, never synchronises, and returns the launch error. */
#ifndef CUDAFX_KERNELS_H
#define CUDAFX_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One plane of 8-bit samples in device memory. width is in samples of the
 * plane's own layout: for packed 4:2:2 planes, bytes per row / 2 rounded
 * as the format does, i.e. the picture width in pixels. */
typedef struct
{
  uint8_t *data;
  int pitch;                    /* bytes from one row to the next */
  int width;
  int height;
} CfxPlane;

/* One component of a plane: its samples are `step` bytes apart in a row
 * (1: a planar plane; 2: NV12's U or V, packed 4:2:2 luma; 4: packed 4:2:2
 * U or V). data points at the first sample; width counts samples. */
typedef struct
{
  uint8_t *data;
  int pitch;
  int width;
  int height;
  int step;
} CfxChannel;

/* ---- luma.cu ---------------------------------------------------------- */

/* Packed 4:2:2 (UYVY: y_first = 0, YUY2: y_first = 1) to its luma plane.
 * dst and src have the same width and height (pixels). */
cudaError_t cfx_luma_from_packed422 (CfxPlane dst, CfxPlane src, int y_first,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* Each element's kernels declare their launch functions beside them */
#include "blur.h"
#include "deinterlace.h"
#include "degrain.h"

#endif /* CUDAFX_KERNELS_H */
