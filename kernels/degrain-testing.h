/* degrain kernels: entry points that only tests call (and degrain.cu,
 * which defines them). Elements take degrain.h alone, through
 * cudafx-kernels.h. Plain C, no GStreamer. */
#ifndef CUDAFX_DEGRAIN_TESTING_H
#define CUDAFX_DEGRAIN_TESTING_H

#include "cudafx-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
