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
 * the luma of any format into a GRAY8 plane. Any steps; a planar copy and
 * the luma of packed 4:2:2 (step 2, offset 0 or 1) are vectorised kernels
 * (planes they cannot align take a 2-D copy or a plain kernel). 16-bit words (bytes 2: 9 to 16 significant bits at
 * any shift) go into a GRAY16_LE plane, scaled to 16 bits by bit
 * replication; their unused bits are ignored. */
cudaError_t cfx_luma_copy (CfxPlane dst, CfxPlane src, cudaStream_t stream);

/* ---- v210.cu ---------------------------------------------------------- */

/* Bytes of a v210 row of @width pixels: groups of 6 pixels in 16 bytes,
 * padded to 128 bytes */
int cfx_v210_pitch (int width);

/* v210 rows at @src (16-byte aligned, @src_pitch a multiple of 16 holding
 * the row's groups) into three planes of 16-bit samples, 10 bits in the
 * low bits (I422_10LE: luma @width, chroma (@width + 1) / 2 samples a
 * row). Reads only the used slots; writes only the samples. */
cudaError_t cfx_v210_unpack (CfxPlane y, CfxPlane u, CfxPlane v,
    const uint8_t * src, int src_pitch, int width, int height,
    cudaStream_t stream);

/* The reverse, writing all @dst_pitch bytes of each row: samples masked to
 * 10 bits, unused bits, slots and row padding 0 */
cudaError_t cfx_v210_pack (uint8_t * dst, int dst_pitch, CfxPlane y,
    CfxPlane u, CfxPlane v, int width, int height, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* Each element's kernels declare their launch functions beside them */
#include "blur.h"
#include "deinterlace.h"
#include "degrain.h"
#include "temporal.h"

#endif /* CUDAFX_KERNELS_H */
