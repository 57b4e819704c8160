/* Box blur of 16-bit components: the exact mean of the (2 rx + 1) x
 * (2 ry + 1) box in integers (32-bit row sums, 64-bit column sums),
 * rounded half up, in two passes through a scratch plane of w * h 32-bit
 * row sums.
 *
 * A thread owns a run of BOX_RUN outputs along its axis: the first sums
 * its 2 r + 1 neighbours, each next one adds the sample entering the box
 * and drops the one leaving it (exact integers), so an output costs about
 * two loads whatever the radius.
 *
 * Floor: read the component once and write it once (4K 16-bit luma:
 * 33 MB, 11 us at 2.9 TB/s), plus a write and a read of 4 bytes a sample
 * for the row sums. Access: the row pass has each thread walk its own run
 * of a row (through L1); in the column pass the threads of a warp take
 * 32 neighbouring columns, so each row of sums is one coalesced load.
 * Sharpening (blur.h) is the column pass's: it reads the source sample of
 * each output it writes. */
#include "blur16-samples.cuh"

#define BOX_RUN 32

__global__ void
box_rows (CfxPlane src, int *dst, int r)
{
  const int x0 = (blockIdx.x * BLOCK_X + threadIdx.x) * BOX_RUN;
  const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
  const int n = src.width;
  int k, x, sum = 0;

  if (x0 >= n || y >= src.height)
    return;
  for (k = -r; k <= r; k++)
    sum += load_sample (src, mirror (x0 + k, n), y);
  dst[(size_t) y * n + x0] = sum;
  for (x = x0 + 1; x < x0 + BOX_RUN && x < n; x++) {
    sum += load_sample (src, mirror (x + r, n), y) -
        load_sample (src, mirror (x - r - 1, n), y);
    dst[(size_t) y * n + x] = sum;
  }
}

__global__ void
box_columns (const int *__restrict__ src, CfxPlane dst, int rx, int ry,
    CfxPlane in, int amount)
{
  const int x = blockIdx.x * BLOCK_X + threadIdx.x;
  const int y0 = (blockIdx.y * BLOCK_Y + threadIdx.y) * BOX_RUN;
  const int n = dst.height, pitch = dst.width;
  const long long count = (2LL * rx + 1) * (2LL * ry + 1);
  long long sum = 0;
  int k, y;

  if (x >= dst.width || y0 >= n)
    return;
  for (k = -ry; k <= ry; k++)
    sum += src[(size_t) mirror (y0 + k, n) * pitch + x];
  /* n is odd: no exact half, rounding half up is rounding to nearest */
  store_sample (dst, x, y0, (sum + count / 2) / count, in, amount);
  for (y = y0 + 1; y < y0 + BOX_RUN && y < n; y++) {
    sum += src[(size_t) mirror (y + ry, n) * pitch + x] -
        src[(size_t) mirror (y - ry - 1, n) * pitch + x];
    store_sample (dst, x, y, (sum + count / 2) / count, in, amount);
  }
}

extern "C" cudaError_t
cfx_blur16_box_launch (const CfxBlur16 * s, cudaStream_t stream)
{
  const dim3 block (BLOCK_X, BLOCK_Y);
  const dim3 rows ((s->src.width + BLOCK_X * BOX_RUN - 1) /
      (BLOCK_X * BOX_RUN), (s->src.height + BLOCK_Y - 1) / BLOCK_Y);
  const dim3 columns ((s->src.width + BLOCK_X - 1) / BLOCK_X,
      (s->src.height + BLOCK_Y * BOX_RUN - 1) / (BLOCK_Y * BOX_RUN));
  cudaError_t err;

  err = cfx_launch (box_rows, rows, block, 0, stream, s->src,
      (int *) s->plane, s->rx);
  if (err != cudaSuccess)
    return err;
  return cfx_launch (box_columns, columns, block, 0, stream,
      (const int *) s->plane, s->dst, s->rx, s->ry, s->src, s->amount);
}
