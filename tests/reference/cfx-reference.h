/* gst-cudafx CPU references: plain, obviously-correct, slow implementations
 * of every algorithm, written from the algorithm descriptions
 * (kernels/deinterlace.md, kernels/degrain.md) and the issues, never from
 * the CUDA code.
 * They are the oracle the GPU tests compare against.
 *
 * No GStreamer, no CUDA: plain C99 on 8-bit planes in host memory. */
#ifndef CFX_REFERENCE_H
#define CFX_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One 8-bit image plane in host memory. */
typedef struct
{
  uint8_t *data;
  int stride;                   /* bytes from one row to the next */
  int width;                    /* samples per row */
  int height;                   /* rows */
} CfxRefPlane;

/* One plane of 9- to 16-bit samples (LSB-aligned, 0..(1 << depth) - 1). */
typedef struct
{
  uint16_t *data;
  int stride;                   /* samples from one row to the next */
  int width;                    /* samples per row */
  int height;                   /* rows */
} CfxRefPlane16;

/* Mirror index ("reflect without repeating the edge"): -1 -> 1, n -> n-2,
 * repeated as often as needed; n == 1 always gives 0. */
int cfx_ref_mirror (int i, int n);

/* ---- luma (luma.c) ---------------------------------------------------- */

/* Packed 4:2:2 to luma. y_first: 1 for YUY2 (Y0 U Y1 V), 0 for UYVY
 * (U Y0 V Y1). src->width is the pixel width (odd allowed: the last pair
 * is half used). */
void cfx_ref_luma_from_packed422 (const CfxRefPlane * dst,
    const CfxRefPlane * src, int y_first);

/* 16-bit words of @depth significant bits @shift bits up (P010: 10, 6;
 * I420_10LE: 10, 0) to 16-bit samples of the full range (GRAY16_LE).
 * Strides and step in bytes for src, in samples for dst. */
void cfx_ref_luma16 (uint16_t * dst, int dst_stride, const uint8_t * src,
    int src_stride, int src_step, int width, int height, int depth,
    int shift);

/* ---- blur (blur.c) ---------------------------------------------------- */

/* Exact Gaussian in double precision, kernel truncated at radius
 * ceil(3 * sigma) per axis, normalised to sum 1, separable, mirror borders,
 * result rounded to nearest. field_step 1: the frame as one image;
 * field_step 2: each field (even rows, odd rows) blurred as its own image
 * (rows of the other field are never read). */
void cfx_ref_gaussian_blur (const CfxRefPlane * dst, const CfxRefPlane * src,
    double sigma_x, double sigma_y, int field_step);

/* Exact mean over a (2*radius_x+1) x (2*radius_y+1) box, mirror borders,
 * rounded to nearest; radius 0 on an axis leaves that axis alone. */
void cfx_ref_box_blur (const CfxRefPlane * dst, const CfxRefPlane * src,
    int radius_x, int radius_y, int field_step);

/* Sharpening: the unsharp mask of a blur, from the blur's rounded output
 * @blurred (b) and the source @src (x), per sample:
 *   out = clamp (floor (x + a (x - b) + 1/2), 0, 255)
 * with a = amount / 256 (amount an integer, 256: 2 x - b). dst may be src
 * or blurred. */
void cfx_ref_unsharp (const CfxRefPlane * dst, const CfxRefPlane * src,
    const CfxRefPlane * blurred, int amount);
/* A sharpening strength as the integer amount above: s * 256 rounded to
 * nearest (halves up) */
int cfx_ref_sharpen_amount (double strength);

/* blur.c's helpers, shared with blur16.c: malloc that aborts on failure;
 * rows of field f of a frame of h rows; field_step as 1 or 2; normalised
 * Gaussian weights w[0 .. 2r] for offsets -r .. r, r = ceil (3 sigma)
 * returned (sigma <= 0: r 0, w[0] 1; free with free ()) */
void *cfx_ref_blur_xmalloc (size_t size);
int cfx_ref_blur_field_rows (int h, int step, int f);
int cfx_ref_blur_field_step (int field_step);
int cfx_ref_blur_gaussian_weights (double sigma, double **weights);

/* ---- blur on 16-bit words (blur16.c) ---------------------------------- */

/* One component of 16-bit words in host memory, as the formats store it
 * (CfxRefPlane16 above is a different thing: LSB-aligned samples, stride
 * in samples). Words are little-endian uint16; a sample's value is
 * (word >> shift) & ((1 << depth) - 1) (P010: depth 10, shift 6;
 * I420_10LE: depth 10, shift 0; 16-bit formats: depth 16, shift 0;
 * depth + shift <= 16). Strides and step in bytes (step: bytes from one
 * sample of the component to the next in a row: 2 planar, 4 for P010's
 * interleaved U/V; data points at the component's first word, e.g. UV + 2
 * for P010's V). Outputs are written as value << shift (the other bits of
 * the word 0); only the words of the component are written. */
typedef struct
{
  uint8_t *data;
  int stride;                   /* bytes from one row to the next */
  int step;                     /* bytes from one sample to the next, >= 2 */
  int width;                    /* samples per row */
  int height;                   /* rows */
  int depth;                    /* significant bits, 1..16 */
  int shift;                    /* bits the value sits above bit 0 */
} CfxRefWordPlane;

/* cfx_ref_gaussian_blur and cfx_ref_box_blur in units of the sample's own
 * depth: the same kernels, mirror borders and field_step; results rounded
 * the same way and clamped to 0..2^depth - 1; box sums in 64 bits. src's
 * width and height are the image's; dst and src must have the same depth
 * (shift, step and stride may differ); bad depth/shift/step abort. All of
 * src is read before dst is written, so dst may be src. At depth 8 they
 * give exactly what the 8-bit functions give. */
void cfx_ref_gaussian_blur16 (const CfxRefWordPlane * dst,
    const CfxRefWordPlane * src, double sigma_x, double sigma_y,
    int field_step);
void cfx_ref_box_blur16 (const CfxRefWordPlane * dst,
    const CfxRefWordPlane * src, int radius_x, int radius_y, int field_step);
/* cfx_ref_unsharp in units of the sample's own depth (clamped to
 * 0..2^depth - 1); the three planes have the same depth. dst may be src
 * or blurred. */
void cfx_ref_unsharp16 (const CfxRefWordPlane * dst,
    const CfxRefWordPlane * src, const CfxRefWordPlane * blurred,
    int amount);

/* ---- deinterlace (deinterlace.c) -------------------------------------- */

typedef enum
{
  CFX_REF_DEINT_BWDIF,
  CFX_REF_DEINT_YADIF,
  CFX_REF_DEINT_ELA,
  CFX_REF_DEINT_LINEAR,
} CfxRefDeintMethod;

/* Which FFmpeg's bwdif to follow where its versions differ
 * (kernels/deinterlace.md, "FFmpeg versions"): the first and last
 * output fields of a stream, and the reach of the two-byte edge rules. */
typedef enum
{
  CFX_REF_BWDIF_FFMPEG_6_1,     /* 6.1 to 8.x: the default */
  CFX_REF_BWDIF_FFMPEG_5_1,     /* 5.1 */
  CFX_REF_BWDIF_FFMPEG_9,       /* 9.x */
} CfxRefBwdifRules;

/* One output field of one plane (kernels/deinterlace.md).
 * prev/cur/next: P, C, N of the page (the caller passes cur as prev for the
 * first frame and as next for the last). parity: rows with (y & 1) ==
 * parity are copied from cur, the others interpolated. tff: 1 if the
 * current frame is top field first. spatial_check: yadif only (0: the
 * *_nospatial behaviour). intra_only: bwdif only, the first output field
 * and the last output field of the stream (FFmpeg 6.1 to 8.x: the intra
 * filter except on rows y < 3 and y + 3 >= h). bwdif as FFmpeg 6.1 to 8.x
 * computes it; the _as variants follow @rules. */
void cfx_ref_deinterlace_plane (const CfxRefPlane * dst,
    const CfxRefPlane * prev, const CfxRefPlane * cur,
    const CfxRefPlane * next, int parity, int tff, CfxRefDeintMethod method,
    int spatial_check, int intra_only);
void cfx_ref_deinterlace_plane_as (const CfxRefPlane * dst,
    const CfxRefPlane * prev, const CfxRefPlane * cur,
    const CfxRefPlane * next, int parity, int tff, CfxRefDeintMethod method,
    int spatial_check, int intra_only, CfxRefBwdifRules rules);

/* The same on depth-bit samples (9..16), bit-exact with FFmpeg's 16-bit C
 * yadif and bwdif: results clipped to (1 << depth) - 1, and bwdif's rows
 * near the top and bottom chosen as FFmpeg up to 8.x does for two-byte
 * samples (kernels/deinterlace.md, "High bit depth"). */
void cfx_ref_deinterlace_plane16 (const CfxRefPlane16 * dst,
    const CfxRefPlane16 * prev, const CfxRefPlane16 * cur,
    const CfxRefPlane16 * next, int depth, int parity, int tff,
    CfxRefDeintMethod method, int spatial_check, int intra_only);
void cfx_ref_deinterlace_plane16_as (const CfxRefPlane16 * dst,
    const CfxRefPlane16 * prev, const CfxRefPlane16 * cur,
    const CfxRefPlane16 * next, int depth, int parity, int tff,
    CfxRefDeintMethod method, int spatial_check, int intra_only,
    CfxRefBwdifRules rules);

/* ---- degrain (degrain.c) ---------------------------------------------- */

typedef enum
{
  CFX_REF_SHRINK_WIENER,
  CFX_REF_SHRINK_SOFT,
  CFX_REF_SHRINK_IDENTITY,      /* no shrinkage: tests exact reconstruction */
} CfxRefShrink;

typedef struct
{
  CfxRefShrink shrink;
  int levels;                   /* 1..8 */
  float sigma;                  /* noise sigma in 8-bit units (already known) */
  float strength;               /* multiplies sigma */
  float amount;                 /* 0..1 blend of result and input */
  int output_noise;             /* 1: write clip(round(in - result) + 128) */
  int wiener_radius;            /* window half size: 4 for 9x9 */
} CfxRefDegrainParams;

/* Noise gain of band (level, band) with band 0 = LH, 1 = HL, 2 = HH,
 * computed from a unit impulse (kernels/degrain.md). */
double cfx_ref_degrain_band_gain (int level, int band);

/* The float transform alone: forward, shrink, sum. in/out are w*h floats. */
void cfx_ref_degrain_float (float *out, const float *in, int w, int h,
    const CfxRefDegrainParams * p);

/* 8-bit plane in, 8-bit plane out (rounded to nearest, clipped). */
void cfx_ref_degrain_plane (const CfxRefPlane * dst, const CfxRefPlane * src,
    const CfxRefDegrainParams * p);

/* Automatic noise sigma of one plane from the level-0 HH band. */
float cfx_ref_degrain_estimate_sigma (const CfxRefPlane * src);

/* The same two on depth-bit samples (9..16): the samples are read in 8-bit
 * units (v / 2^(depth - 8)), so sigma stays in 8-bit units; the result goes
 * back times 2^(depth - 8), rounded, clipped to (1 << depth) - 1
 * (output_noise: centred on 128 * 2^(depth - 8)). The estimate rounds
 * |16 * HH0| in 8-bit units to nearest, and a clipped sample is 0 or the
 * maximum. */
void cfx_ref_degrain_plane16 (const CfxRefPlane16 * dst,
    const CfxRefPlane16 * src, int depth, const CfxRefDegrainParams * p);
float cfx_ref_degrain_estimate_sigma16 (const CfxRefPlane16 * src,
    int depth);

/* ---- temporal degrain (temporal.c) ------------------------------------ */

/* Frame @t of a clip of @n 8-bit luma frames (w x h, rows w bytes apart),
 * denoised with its neighbours t - radius .. t + radius (motion
 * compensated, robust weights, then the spatial degrain fed the noise
 * left): into @dst (w x h). sigma <= 0: estimated on frame t. */
void cfx_ref_temporal_degrain (uint8_t * dst, const uint8_t * const *frames,
    int n, int t, int w, int h, int radius, float sigma);

/* Its first stages alone: the temporal mean rounded to 8 bits into @mean,
 * with the known @sigma (> 0; <= 0 uses no neighbour); returns the sigma
 * the spatial stage is given (sigma times the root of the mean relative
 * variance left) */
float cfx_ref_temporal_mean (uint8_t * mean, const uint8_t * const *frames,
    int n, int t, int w, int h, int radius, float sigma);

#ifdef __cplusplus
}
#endif
#endif /* CFX_REFERENCE_H */
