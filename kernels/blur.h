/* blur kernels: part of cudafx-kernels.h (include that, not this).
 *
 * Gaussian and box blur of 8-bit components (CfxPlane: a planar plane, or
 * one component of a packed or semi-planar plane), with the borders
 * mirrored ("reflect without repeating the edge", any radius, any size
 * down to 1x1). field_step 2 blurs the even rows and the odd rows of each
 * component as two separate images (interlaced fields); 1 the whole frame.
 * dst and src must not overlap; bytes of dst between the component's
 * samples (other components of a packed plane, and the padding byte of an
 * odd-width packed 4:2:2 row) are never written.
 *
 * The calls blur several components (the planes of a frame) in one launch
 * per 8-bit kernel: small chroma planes share the GPU with the luma plane
 * instead of running after it.
 *
 * Gaussian: the reference is the exact Gaussian in double precision,
 * truncated at radius ceil(3 sigma) and normalised, rounded to nearest.
 * On an axis of n samples the mirrored image repeats every 2 (n - 1)
 * samples, so the kernel folds exactly onto radius min(ceil(3 sigma),
 * n - 1).
 *   - folded radius <= 48 on both axes (sigma <= 16): one fused separable
 *     kernel on the tensor cores (blur-direct.cu); every output within 1
 *     of the reference (error before rounding below 0.2).
 *   - otherwise: decimation by a power of two f per axis with first
 *     moments, a small exact Gaussian on the coarse grid, cubic B-spline
 *     upsampling (blur-coarse.cu): time independent of sigma. Measured
 *     against the reference (tests/check/test-blur.c) within 1 on random,
 *     natural, edge, line and stripe images; the bound the tests hold it
 *     to is the issue's: max error 2, mean under 0.5.
 * Box: the exact mean of the (2 rx + 1) x (2 ry + 1) box, integer running
 * sums, rounded half up (blur-box.cu); equal to the reference.
 * Sharpening (a channel's sharpen): the unsharp mask of either blur, in
 * the last kernel's write (no pass more): with b the blur's sample as it
 * would be written (rounded and clamped) and x the source's,
 *   out = clamp (x + floor ((amount (x - b) + 128) / 256), 0, 2^depth - 1)
 * in integers (amount in 1/256 steps; 256: 2 x - b), so the epilogue is
 * exact: the box's unsharp mask equals the reference's, the Gaussian's is
 * within ceil (amount / 256) of it (its b within 1).
 * 16-bit components (bytes 2: 9 to 16 significant bits at any shift; their
 * unused bits are ignored and written 0): the same Gaussian and box in
 * units of the component's depth, direct sums in float or double
 * precision (every output within 1 of the reference; blur16-fused.cu up
 * to radius 16, blur16-passes.cu beyond) and in integers (blur16-box.cu,
 * exact), slower than the 8-bit paths and growing with the blur's size.
 * Every call takes both depths and picks the kernels by each component's
 * bytes.
 *
 * The single-component calls, the calls on a scratch of the caller's and
 * the path and scratch queries that only tests and the benchmark use are
 * in blur-testing.h. */
#ifndef CUDAFX_BLUR_H
#define CUDAFX_BLUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest sigma on either axis (decimation factors up to 128) */
#define CFX_BLUR_MAX_SIGMA 1000.0
/* Most components one call takes */
#define CFX_BLUR_MAX_CHANNELS 4
/* A sharpening amount of 1 (the unsharp mask 2 x - blur), and the
 * largest (16: amount (x - b) stays below 2^31 at 16 bits) */
#define CFX_BLUR_AMOUNT_ONE 256
#define CFX_BLUR_MAX_AMOUNT (16 * CFX_BLUR_AMOUNT_ONE)

/* One component of a call: sigmas for the Gaussian, radii for the
 * box (<= 0: that axis is left alone); sharpen 0 writes the blur, 1 its
 * unsharp mask of strength amount / CFX_BLUR_AMOUNT_ONE (0 ..
 * CFX_BLUR_MAX_AMOUNT) */
typedef struct
{
  CfxPlane dst, src;
  double sigma_x, sigma_y;
  int radius_x, radius_y;
  int sharpen, amount;
} CfxBlurChannel;

/* The channel of component @src into @dst for a blur given in luma
 * pixels (a frame's sigma, or box radius), the component's samples @sub_x
 * and @sub_y luma pixels apart (field rows: twice its sub_y): sigma /
 * sub, and radius max (1, (radius + sub / 2) / sub) (radius itself where
 * sub is 1), so the blur looks the same on every component */
CfxBlurChannel cfx_blur_channel (CfxPlane dst, CfxPlane src, double sigma,
    int radius, int sub_x, int sub_y);

/* A blur's state: its device scratch (coarse grids, box sums, the 16-bit
 * passes' planes), which it owns. */
typedef struct _CfxBlur CfxBlur;

/* A blur with no scratch yet (NULL if out of memory) */
CfxBlur *cfx_blur_new (void);
/* Frees the scratch (cudaFree on the current device, which waits for the
 * blurs still queued) and @blur. NULL: nothing. */
void cfx_blur_free (CfxBlur * blur);

/* One component of the frames a blur will take: its size in samples, its
 * significant bits (up to 8: bytes, 9 to 16: 16-bit words), and how many
 * luma pixels apart its samples are along x and y (its channels' sigmas
 * are the frame's divided by them) */
typedef struct
{
  int width, height;
  int depth;
  int sub_x, sub_y;
} CfxBlurComponent;

/* Scratch bytes enough for every Gaussian of frame sigma up to
 * @sigma_max and every box on frames of these @n components, blurred as
 * frames (field_step 1) and, with @max_field_step 2, field by field too
 * (vertical sigma halved) */
size_t cfx_blur_scratch_bytes (const CfxBlurComponent * comps, int n,
    int max_field_step, double sigma_max);

/* Makes @blur's scratch at least @bytes: allocates (cudaMalloc on the
 * current device, a synchronising call: once per caps, never per frame)
 * only when the scratch it has is smaller, after freeing that one; on
 * failure it has none. */
cudaError_t cfx_blur_reserve (CfxBlur * blur, size_t bytes);

/* Blurs @n <= CFX_BLUR_MAX_CHANNELS components, each src into its dst
 * (same width, height and sample layout: bytes 1, or bytes 2 with the
 * same depth and shift), with @blur's scratch (only on @stream, so stream
 * order protects it: one blur's calls must all be on one stream).
 * sigma <= 0 or radius <= 0 leaves that axis alone. Returns
 * cudaErrorInvalidValue for bad arguments (an amount out of range among
 * them) or a scratch too small (not
 * reserved for these components), else the launch error. */
cudaError_t cfx_blur_gaussian_frame (CfxBlur * blur,
    const CfxBlurChannel * channels, int n, int field_step,
    cudaStream_t stream);
cudaError_t cfx_blur_box_frame (CfxBlur * blur,
    const CfxBlurChannel * channels, int n, int field_step,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
