/* gst-cudafx CPU reference of the motion-compensated deinterlacer
 * (kernels/deinterlace-mc.md): plain C99, no GStreamer, no CUDA. */
#ifndef CFX_DEINTERLACE_MC_H
#define CFX_DEINTERLACE_MC_H

#include "cfx-reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One frame of up to 4 planes in host memory. depth 8: data are uint8_t;
 * depth 9..16: uint16_t samples, LSB-aligned. Plane 0 is luma (the
 * search runs on it); a plane's subsampling is found from its size against
 * plane 0's (width[0] rounded up over 2^s; s = 0, 1, 2). */
typedef struct
{
  int n_planes;                 /* 1..4 */
  int depth;                    /* 8..16 */
  void *data[4];
  int stride[4];                /* in samples */
  int width[4];
  int height[4];
} CfxRefMcFrame;

/* What one call decided, for tests and the harness (may be NULL). */
typedef struct
{
  int cut[2];                   /* side prev, next: another shot */
  int used[2];                  /* side prev, next: searched and used */
  int mean_cost[2];             /* the side's mean block cost, 1/16 units
                                 * of the 3x3 mean per sample */
} CfxRefMcInfo;

/* One output field, every plane: rows with (y & 1) == parity copied from
 * cur, the others bwdif's estimate pulled towards the motion-compensated
 * one. prev / next: NULL at the stream's first / last frame. tff: the
 * current frame's field order. bwdif_intra_only: passed to bwdif as
 * cfx_ref_deinterlace_plane's intra_only (its first and last output
 * fields). All frames alike in planes, sizes and depth. */
void cfx_ref_deinterlace_mc (const CfxRefMcFrame * dst,
    const CfxRefMcFrame * prev, const CfxRefMcFrame * cur,
    const CfxRefMcFrame * next, int parity, int tff, int bwdif_intra_only,
    CfxRefMcInfo * info);

/* cfx_ref_deinterlace_plane (or its 16-bit twin) on every plane of a
 * frame, spatial check on (prev and next must be frames here) */
void cfx_ref_deinterlace_frame (const CfxRefMcFrame * dst,
    const CfxRefMcFrame * prev, const CfxRefMcFrame * cur,
    const CfxRefMcFrame * next, int parity, int tff,
    CfxRefDeintMethod method, int intra_only);

#ifdef __cplusplus
}
#endif
#endif /* CFX_DEINTERLACE_MC_H */
