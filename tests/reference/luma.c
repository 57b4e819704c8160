/* Luma of packed 4:2:2: every pixel's Y byte, nothing else. */
#include "cfx-reference.h"

void
cfx_ref_luma_from_packed422 (const CfxRefPlane * dst, const CfxRefPlane * src,
    int y_first)
{
  int x, y;

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = src->data + (long) y * src->stride;
    uint8_t *out = dst->data + (long) y * dst->stride;

    /* pixel x sits in pair x / 2, at byte 1 (UYVY) or 0 (YUY2) of its half */
    for (x = 0; x < src->width; x++)
      out[x] = in[(x / 2) * 4 + (x & 1) * 2 + (y_first ? 0 : 1)];
  }
}
