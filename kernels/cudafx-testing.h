/* gst-cudafx kernels: entry points that only tests and the benchmark call
 * (elements include cudafx-kernels.h alone; the blur's are in
 * blur-testing.h, the degrain's in degrain-testing.h). Plain C, no
 * GStreamer. */
#ifndef CUDAFX_TESTING_H
#define CUDAFX_TESTING_H

#include <stddef.h>

#include "cudafx-kernels.h"
#include "degrain-testing.h"

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

/* ---- deinterlace -------------------------------------------------------- */

/* The kernel's per-thread work run on the CPU, thread by thread, on host
 * memory; target_threads sets the strip length as the GPU's size does.
 * Returns 0, or -1 where cfx_deinterlace_frame () would refuse the
 * components. Defined only where kernels/deinterlace.cu is compiled with
 * CFX_DEINTERLACE_EMULATE (tests/kernels/deinterlace-emulate.cu). */
int cfx_deinterlace_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int target_threads);

/* The same work for @waves waves on a GPU whose wave would be @wave
 * blocks, the launch math of cfx_deinterlace_frame_spread () throughout:
 * returns the blocks run, or -1 where that call would refuse the
 * arguments (cudaErrorInvalidValue). */
long cfx_deinterlace_frame_emulate_waves (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, long wave, double waves);

/* The 16-bit kernel's output made without its sliding windows (yadif and
 * bwdif read every stencil row from memory, as the edge rows do, one
 * sample a thread): what the benchmark holds the windows against */
cudaError_t cfx_deinterlace16_frame_windowless (const CfxDeintComponent *
    comps, int n_comps, const CfxDeintField * field, cudaStream_t stream);

/* The 16-bit kernel with its windows over @columns (1 or 2) sample
 * columns a thread wherever a component allows (the elements' launch
 * takes two for bwdif, one for yadif): what the benchmark holds the
 * elements' choice against */
cudaError_t cfx_deinterlace16_frame_columns (const CfxDeintComponent *
    comps, int n_comps, const CfxDeintField * field, int columns,
    cudaStream_t stream);

/* cfx_deinterlace_frame () and cfx_deinterlace16_frame () with strips
 * sized for @waves waves' worth of threads (1: what the elements run;
 * below 1, e.g. 0.5, 0.25: fewer threads, longer strips; above 1, e.g. 2,
 * 4: more threads, shorter strips, in up to that many waves of blocks),
 * for the benchmark's sweep of the launch shape. At least one thread;
 * strips stay whole row pairs. cudaErrorInvalidValue for waves <= 0, NaN
 * or past 1024. */
cudaError_t cfx_deinterlace_frame_spread (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, double waves,
    cudaStream_t stream);
cudaError_t cfx_deinterlace16_frame_spread (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, double waves,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
