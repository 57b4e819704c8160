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

/* 16-bit words (little-endian) to GRAY16: the depth significant bits,
 * found shift bits up in each word (the rest of the word ignored), spread
 * over 16 bits by repeating the value's top bits below it: the largest
 * value becomes 65535, 0 stays 0. */
void
cfx_ref_luma16 (uint16_t * dst, int dst_stride, const uint8_t * src,
    int src_stride, int src_step, int width, int height, int depth,
    int shift)
{
  int x, y;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      const uint8_t *p = src + (long) y * src_stride + (long) x * src_step;
      unsigned word = p[0] | (unsigned) p[1] << 8;
      unsigned v = (word >> shift) & ((1u << depth) - 1);
      unsigned out = v << (16 - depth);
      int filled;

      /* the value again, lower and lower, until 16 bits are filled */
      for (filled = depth; filled < 16; filled += depth)
        out |= (v << (16 - depth)) >> filled;
      dst[(long) y * dst_stride + x] = (uint16_t) out;
    }
  }
}
