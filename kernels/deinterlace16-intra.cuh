/* 16-bit deinterlace kernels, part 3 of 4 (one per method family): ELA
 * and linear, which read the current frame alone: one output sample, its
 * rows mirrored at the edges and its columns clamped. */
#ifndef CFX_DEINTERLACE16_INTRA_CUH
#define CFX_DEINTERLACE16_INTRA_CUH

#include "deinterlace16-memory.cuh"

namespace
{

/* row r mirrored at the plane's edges (-1 -> 1, h -> h - 2) */
CFX_HD_INLINE int
mirror_row (int r, int h)
{
  return r < 0 ? (h > 1 ? 1 : 0) : r >= h ? (h > 1 ? h - 2 : 0) : r;
}

CFX_HD_INLINE int
intra (const Comp16 & c, int ela, int x, int y)
{
  int w = c.width, h = c.height;
  int up = mirror_row (y - 1, h), down = mirror_row (y + 1, h), j = 0;

  if (ela) {
    /* directions 0, -1, +1 in this order, each kept only if strictly
     * cheaper; columns clamped */
    int best = -1;

    for (int k = 0; k < 3; k++) {
      int dj = k == 0 ? 0 : k == 1 ? -1 : 1;
      int xu = imin (imax (x + dj, 0), w - 1), xd = imin (imax (x - dj, 0),
          w - 1);
      int cost = iabs (at (c, C, xu, up) - at (c, C, xd, down));

      if (best < 0 || cost < best) {
        best = cost;
        j = dj;
      }
    }
  }
  return (at (c, C, imin (imax (x + j, 0), w - 1), up) +
      at (c, C, imin (imax (x - j, 0), w - 1), down) + 1) >> 1;
}

}                               /* namespace */

#endif
