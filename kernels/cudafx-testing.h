/* gst-cudafx kernels: what tests and the benchmark call beyond
 * cudafx-kernels.h (which elements include alone): the degrain's test-only
 * entry points and the deinterlacer's benchmark launches, and a helper for
 * 8-bit components. The blur's test-only entry points are in
 * blur-testing.h; the deinterlacer's emulation in
 * tests/kernels/deinterlace-emulate.h. Plain C, no GStreamer. */
#ifndef CUDAFX_TESTING_H
#define CUDAFX_TESTING_H

#include <stddef.h>

#include "cudafx-kernels.h"
#include "degrain-testing.h"
/* the deinterlacer's launches for the benchmark */
#include "deinterlace-bench.h"

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

#ifdef __cplusplus
}
#endif
#endif
