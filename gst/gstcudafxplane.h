/* gst-cudafx: the description of one component of a frame in device
 * memory. It is the one plane description of the project: the frame layer
 * (gstcudafxframe.h) fills it in from GstVideoFormatInfo, every kernel
 * takes it, and applications get it from a mapped frame.
 *
 * Plain C, no GStreamer: kernels/ includes it too. */
#ifndef __GST_CUDA_FX_PLANE_H__
#define __GST_CUDA_FX_PLANE_H__

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * GstCudaFxPlane:
 * @data: device address of the component's first sample (row 0)
 * @pitch: bytes from one row to the next
 * @width: samples of the component in a row
 * @height: rows
 * @bytes: bytes per sample: 1 for 8-bit formats, 2 for 9 to 16 bits
 * @depth: significant bits of a sample
 * @shift: bits the significant bits are shifted up in their sample (6 for
 *   P010: most significant bits; 0 for I420_10LE: least significant bits)
 * @step: bytes from one sample of the component to the next in a row:
 *   @bytes in a planar plane; more where components share a plane (2 for
 *   NV12's U and V and the luma of UYVY/YUY2, 4 for their U and V)
 * @offset: bytes from the start of the rows of the component's plane to
 *   its first sample: 0 in planar planes; U 0, Y 1, V 2 in UYVY.
 *   Components whose (@data - @offset) are equal share one plane.
 *
 * The samples of one colour component (Y, U, V or gray) of a frame in
 * device memory: sample x of row y is at @data + y * @pitch + x * @step.
 * In planar formats a component is a whole plane; in packed and semi-planar
 * formats its samples are interleaved with the other components of the
 * plane, and @step and @offset say how.
 */
typedef struct _GstCudaFxPlane
{
  uint8_t *data;
  int pitch;
  int width;
  int height;
  int bytes;
  int depth;
  int shift;
  int step;
  int offset;
} GstCudaFxPlane;

#ifdef __cplusplus
}
#endif
#endif
