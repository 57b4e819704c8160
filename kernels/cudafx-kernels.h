/* gst-cudafx kernels: the whole interface between elements and CUDA code.
 * Plain C, no GStreamer. Every function enqueues its work on the stream it
 * is given, never synchronises, and returns the launch error.
 *
 * This header holds only what elements call; tests and the benchmark also
 * include cudafx-testing.h. */
#ifndef CUDAFX_KERNELS_H
#define CUDAFX_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gstcudafxplane.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One component (Y, U, V or gray) of a frame in device memory: sample x
 * of row y is at data + y * pitch + x * step (gst/gstcudafxplane.h). The
 * kernels take 8-bit samples (bytes 1) unless they say otherwise; other
 * sizes are refused with cudaErrorInvalidValue. */
typedef GstCudaFxPlane CfxPlane;

/* ---- luma.cu ---------------------------------------------------------- */

/* Copies the samples of component @src into @dst (same width and height):
 * the luma of any format into a GRAY8 plane. Any steps; a planar copy is
 * one cudaMemcpy2DAsync, the luma of packed 4:2:2 (step 2, offset 0 or 1)
 * a vectorised kernel. 16-bit words (bytes 2: 9 to 16 significant bits at
 * any shift) go into a GRAY16_LE plane, scaled to 16 bits by bit
 * replication; their unused bits are ignored. */
cudaError_t cfx_luma_copy (CfxPlane dst, CfxPlane src, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* Each element's kernels declare their launch functions beside them */
#include "blur.h"
#include "deinterlace.h"
#include "degrain.h"

#endif /* CUDAFX_KERNELS_H */
