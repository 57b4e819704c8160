/* deinterlace kernels: part of cudafx-kernels.h (include that, not this).
 *
 * yadif, bwdif, ELA and linear deinterlacing of one output frame, all
 * components in one launch (kernels/deinterlace.md): 8-bit samples
 * (deinterlace.cu) or 16-bit words (deinterlace16.cu), picked by the
 * components' bytes. The motion-compensated method (kernels/
 * deinterlace-mc.md, deinterlace-mc.cu) has an entry point and a scratch
 * of its own, below. */
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
  CFX_DEINT_MC,                 /* cfx_deinterlace_mc () only */
} CfxDeintMethod;

/* One component of the previous, current and next input frames and of
 * the output; the four have the same width, height, bytes, step and
 * offset (16-bit: depth and shift too). Every component is deinterlaced
 * as a planar plane of its own would be. */
typedef struct
{
  CfxPlane prev, cur, next, dst;
} CfxDeintComponent;

#define CFX_DEINT_MAX_COMPONENTS 4

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

/* Smallest component the method accepts for samples of @bytes bytes (1
 * or 2; width: the component's own samples): the same for both, but
 * two-byte bwdif needs 7 rows. mc: bwdif's (its floor). */
void cfx_deinterlace_min_size (CfxDeintMethod method, int bytes,
    int *min_width, int *min_height);

/* Writes one whole output frame (copied and interpolated rows of every
 * component) in one launch on @stream, by the kernels of the components'
 * sample size: bytes 1 or 2, every component alike.
 *
 * 8-bit samples (bytes 1): the components may come in any order; those
 * that share a plane (equal data - offset and pitch) must make one of
 * these planes, at most three planes in all:
 *   - one component, step 1 (a planar plane: I420's Y, U or V, GRAY8)
 *   - two components, step 2, offsets 0 and 1 (NV12's or NV21's UV plane)
 *   - packed 4:2:2: a luma component of step 2 at offset 0 or 1 and
 *     two chroma components of step 4 at the other two even or odd
 *     offsets, (width + 1) / 2 wide (UYVY, VYUY, YUY2, YVYU)
 * For an odd packed width the padding byte of a row (the last pair's
 * second luma byte) may be written: the frame layer restores it.
 *
 * 16-bit words (bytes 2) of 9 to 16 significant bits at any shift
 * (I420_10LE, P010, Y444_16LE ...), any even step: yadif and bwdif as
 * FFmpeg's two-byte filters, ELA and linear as for 8-bit; unused bits
 * ignored in and 0 out. The four planes of a component share depth and
 * shift; their data and pitches are 2-byte aligned.
 *
 * Returns cudaErrorInvalidValue for any other arrangement, components
 * smaller than cfx_deinterlace_min_size (), other sample sizes, more
 * than CFX_DEINT_MAX_COMPONENTS components, or method CFX_DEINT_MC. */
cudaError_t cfx_deinterlace_frame (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, cudaStream_t stream);

/* ---- motion compensated (deinterlace-mc.cu) ---------------------------- */

/* The mc method's device state: the search images of the fields it has
 * seen (each field is searched against by up to four output fields),
 * the vectors and the scene-cut sums. One cudaMalloc. */
typedef struct _CfxDeintMc CfxDeintMc;

/* cudaMalloc's the state on the current device for frames whose luma
 * (component 0) is @luma_width x @luma_height (once per caps) */
cudaError_t cfx_deint_mc_new (CfxDeintMc ** mc, int luma_width,
    int luma_height);
/* cudaFree (waits for the work still queued); NULL: nothing */
void cfx_deint_mc_free (CfxDeintMc * mc);
size_t cfx_deint_mc_bytes (const CfxDeintMc * mc);

/* Where the output field sits in its stream */
typedef struct
{
  /* the stream really has the previous / next frame (at its ends the
   * components' prev / next stand in as cur, as for bwdif, and that side
   * is not used) */
  int has_prev, has_next;
  /* prev, cur, next: equal keys are the same content (the input's serial
   * number); the search images are kept by key and field parity */
  uint64_t keys[3];
  /* forget every image kept (a new stream) */
  int restart;
} CfxDeintMcWindow;

/* One output field of every component by tests/reference/deinterlace-mc.c
 * (cfx_ref_deinterlace_mc), bit for bit: bwdif (cfx_deinterlace_frame ()
 * with method bwdif and field->intra_only, the floor, every layout and
 * depth it takes), the luma motion search of the field against the
 * previous and next frames' fields of the same parity, then the missing
 * rows pulled towards the motion-compensated prediction. Components as
 * for cfx_deinterlace_frame () (component 0 is luma, of the size @mc was
 * made for); field->method is not read. Enqueued on @stream. */
cudaError_t cfx_deinterlace_mc (CfxDeintMc * mc,
    const CfxDeintComponent * comps, int n_comps, const CfxDeintField * field,
    const CfxDeintMcWindow * window, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
