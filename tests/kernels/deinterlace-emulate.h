/* The deinterlace kernels' per-thread work run on the CPU, thread by
 * thread, on host memory: test-only entry points, defined by
 * deinterlace-emulate.cu and deinterlace16-emulate.cu (which compile
 * kernels/deinterlace.cu and kernels/deinterlace16.cu for the host) and
 * called by test-deinterlace-emulated.c and test-deinterlace16-emulated.c.
 * Plain C. */
#ifndef CFX_DEINTERLACE_EMULATE_H
#define CFX_DEINTERLACE_EMULATE_H

#include "cudafx-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 8-bit components: the launch's threads with strips sized for
 * @target_threads threads, as the GPU's size does (no limit on the
 * blocks). Returns 0, or -1 where cfx_deinterlace_frame () would refuse
 * the components. */
int cfx_deinterlace_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int target_threads);

/* The same work for @waves waves on a GPU whose wave would be @wave
 * blocks, the launch math of cfx_deinterlace_frame_spread () throughout:
 * returns the blocks run, or -1 where that call would refuse the
 * arguments (cudaErrorInvalidValue). */
long cfx_deinterlace_frame_emulate_waves (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, long wave, double waves);

/* 16-bit components, the kernel of @variant (0: the elements' (as
 * cfx_deinterlace_frame_spread () runs it), 1: one column a thread, 2:
 * windowless, 3: two columns a thread, yadif too): as
 * cfx_deinterlace_frame_emulate (), but returns 1, or 0 where the GPU's
 * call would refuse the components. */
int cfx_deinterlace16_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant,
    int target_threads);

/* As cfx_deinterlace_frame_emulate_waves () for 16-bit components and
 * the kernel of @variant; returns the blocks run, or 0 where the GPU's
 * call would refuse. */
long cfx_deinterlace16_frame_emulate_waves (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant, long wave,
    double waves);

#ifdef __cplusplus
}
#endif
#endif
