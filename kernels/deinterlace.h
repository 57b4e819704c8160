/* deinterlace kernels: part of cudafx-kernels.h (include that, not this).
 *
 * yadif, bwdif, ELA and linear deinterlacing of one output frame, all
 * planes in one launch (shared/algorithms/deinterlace.md). */
#ifndef CUDAFX_DEINTERLACE_H
#define CUDAFX_DEINTERLACE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CFX_DEINT_BWDIF,
  CFX_DEINT_YADIF,
  CFX_DEINT_ELA,
  CFX_DEINT_LINEAR,
} CfxDeintMethod;

/* What the bytes of a plane's rows hold. Every component is deinterlaced
 * as its own channel (CfxChannel), exactly as a planar plane would be:
 *   PLANAR  one component, step 1 (Y, U, V planes, GRAY8)
 *   PAIRS   two components, step 2 each (NV12's UV plane)
 *   UYVY    U Y V Y: Y step 2, U and V step 4
 *   YUY2    Y U Y V: Y step 2, U and V step 4 */
typedef enum
{
  CFX_DEINT_LAYOUT_PLANAR,
  CFX_DEINT_LAYOUT_PAIRS,
  CFX_DEINT_LAYOUT_UYVY,
  CFX_DEINT_LAYOUT_YUY2,
} CfxDeintLayout;

/* One plane of the previous, current and next input frames and of the
 * output. All four share width and height: width counts samples of one
 * component per row (PLANAR: samples, PAIRS: pairs, UYVY/YUY2: pixels;
 * their chroma channels are (width + 1) / 2 wide). For an odd packed width
 * the unused luma byte of the last pair is processed like one more luma
 * column (it is not part of the picture). */
typedef struct
{
  CfxPlane prev, cur, next, dst;
  CfxDeintLayout layout;
} CfxDeintPlane;

#define CFX_DEINT_MAX_PLANES 3

/* One output field (the page's terms): rows with (y & 1) == parity are
 * copied from cur, the others interpolated; tff: cur is top field first;
 * spatial_check: yadif only (0: FFmpeg's *_nospatial modes); intra_only:
 * bwdif only, the first and the last output field of a stream. */
typedef struct
{
  CfxDeintMethod method;
  int parity;
  int tff;
  int spatial_check;
  int intra_only;
} CfxDeintField;

/* Smallest plane the method accepts (per component channel: width is the
 * channel's own sample count). */
void cfx_deinterlace_min_size (CfxDeintMethod method, int *min_width,
    int *min_height);

/* Writes one whole output frame (copied and interpolated rows of every
 * plane) in one launch on @stream. Returns cudaErrorInvalidValue for planes
 * smaller than cfx_deinterlace_min_size() or more than
 * CFX_DEINT_MAX_PLANES planes. */
cudaError_t cfx_deinterlace_frame (const CfxDeintPlane * planes,
    int n_planes, const CfxDeintField * field, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
