/* deinterlace kernels: the launches the benchmark holds the elements'
 * against (tests/bench/bench-deinterlace.c; through cudafx-testing.h).
 * Plain C, no GStreamer. */
#ifndef CUDAFX_DEINTERLACE_BENCH_H
#define CUDAFX_DEINTERLACE_BENCH_H

#include "cudafx-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cfx_deinterlace_frame () with strips sized for @waves waves' worth of
 * threads (1: what the elements run, but for the 16-bit yadif's strips
 * for two waves; below 1, e.g. 0.5, 0.25: fewer threads, longer strips;
 * above 1, e.g. 2, 4: more threads, shorter strips, in up to that many
 * waves of blocks), for the benchmark's sweep of the launch shape. At
 * least one thread; strips stay whole row pairs. cudaErrorInvalidValue
 * for waves <= 0, NaN or past 1024. */
cudaError_t cfx_deinterlace_frame_spread (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, double waves,
    cudaStream_t stream);

/* The 16-bit kernel's output made without its sliding windows (yadif and
 * bwdif read every stencil row from memory, as the edge rows do, one
 * sample a thread): what the benchmark holds the windows against */
cudaError_t cfx_deinterlace16_frame_windowless (const CfxDeintComponent *
    comps, int n_comps, const CfxDeintField * field, cudaStream_t stream);

/* The 16-bit kernel with its windows over @columns (1 or 2) sample
 * columns a thread wherever a component allows (the elements' launch
 * takes two where it can, yadif only up to 13 bits and where every
 * component can): what the benchmark holds the elements' choice against */
cudaError_t cfx_deinterlace16_frame_columns (const CfxDeintComponent *
    comps, int n_comps, const CfxDeintField * field, int columns,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
