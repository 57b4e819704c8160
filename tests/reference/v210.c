/* v210 <-> planar 4:2:2 10-bit, written from the layout described in
 * v210.h. Slow on purpose: one slot at a time through a table, so the
 * layout is stated once and both directions share it. */
#include <string.h>

#include "v210.h"

enum
{
  PLANE_Y,
  PLANE_U,
  PLANE_V
};

/* The 12 slots of a group in memory order (word = slot / 3, shift =
 * 10 * (slot % 3)): which plane, and which sample of that plane within the
 * group (0..5 for luma, 0..2 for chroma). */
static const struct
{
  uint8_t plane;
  uint8_t index;
} slots[12] = {
  {PLANE_U, 0}, {PLANE_Y, 0}, {PLANE_V, 0},
  {PLANE_Y, 1}, {PLANE_U, 1}, {PLANE_Y, 2},
  {PLANE_V, 1}, {PLANE_Y, 3}, {PLANE_U, 2},
  {PLANE_Y, 4}, {PLANE_V, 2}, {PLANE_Y, 5},
};

int
ref_v210_stride (int width)
{
  return ((width + 47) / 48) * 128;
}

static uint32_t
read_le32 (const uint8_t * p)
{
  return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16)
      | ((uint32_t) p[3] << 24);
}

static void
write_le32 (uint8_t * p, uint32_t w)
{
  p[0] = w & 0xff;
  p[1] = (w >> 8) & 0xff;
  p[2] = (w >> 16) & 0xff;
  p[3] = (w >> 24) & 0xff;
}

/* Column of the sample in slot s of group g, or -1 if that slot is unused
 * (past the end of a partial last group). */
static int
slot_column (int s, int g, int width, int chroma_width)
{
  int col;

  if (slots[s].plane == PLANE_Y) {
    col = 6 * g + slots[s].index;
    return col < width ? col : -1;
  }
  col = 3 * g + slots[s].index;
  return col < chroma_width ? col : -1;
}

void
ref_v210_unpack (const uint8_t * src, int src_stride, int width, int height,
    uint16_t * y, int y_stride, uint16_t * u, int u_stride, uint16_t * v,
    int v_stride)
{
  int chroma_width = (width + 1) / 2;
  int groups = (width + 5) / 6;
  int row, g, s;

  for (row = 0; row < height; row++) {
    const uint8_t *line = src + (long) row * src_stride;
    uint16_t *planes[3];

    planes[PLANE_Y] = y + (long) row * y_stride;
    planes[PLANE_U] = u + (long) row * u_stride;
    planes[PLANE_V] = v + (long) row * v_stride;

    for (g = 0; g < groups; g++) {
      for (s = 0; s < 12; s++) {
        int col = slot_column (s, g, width, chroma_width);
        uint32_t word;

        if (col < 0)
          continue;
        word = read_le32 (line + 16 * g + 4 * (s / 3));
        planes[slots[s].plane][col] = (word >> (10 * (s % 3))) & 0x3ff;
      }
    }
  }
}

void
ref_v210_pack (const uint16_t * y, int y_stride, const uint16_t * u,
    int u_stride, const uint16_t * v, int v_stride, int width, int height,
    uint8_t * dst, int dst_stride)
{
  int chroma_width = (width + 1) / 2;
  int groups = (width + 5) / 6;
  int row, g, s;

  for (row = 0; row < height; row++) {
    uint8_t *line = dst + (long) row * dst_stride;
    const uint16_t *planes[3];

    planes[PLANE_Y] = y + (long) row * y_stride;
    planes[PLANE_U] = u + (long) row * u_stride;
    planes[PLANE_V] = v + (long) row * v_stride;

    /* unused slots, bits 30-31 and the padding stay 0 */
    memset (line, 0, dst_stride);
    for (g = 0; g < groups; g++) {
      uint32_t words[4] = { 0, 0, 0, 0 };

      for (s = 0; s < 12; s++) {
        int col = slot_column (s, g, width, chroma_width);

        if (col < 0)
          continue;
        words[s / 3] |=
            (uint32_t) (planes[slots[s].plane][col] & 0x3ff) << (10 * (s % 3));
      }
      for (s = 0; s < 4; s++)
        write_le32 (line + 16 * g + 4 * s, words[s]);
    }
  }
}
