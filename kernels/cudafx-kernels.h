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

/* ---- luma.cu ---------------------------------------------------------- */

/* Packed 4:2:2 (UYVY: y_first = 0, YUY2: y_first = 1) to its luma plane.
 * dst and src have the same width and height (pixels). */
cudaError_t cfx_luma_from_packed422 (CfxPlane dst, CfxPlane src, int y_first,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CUDAFX_KERNELS_H */
