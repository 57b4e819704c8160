/* Gaussian of 16-bit components in two passes through a scratch plane of
 * w * h floats: horizontal, then vertical, each output the sum of its
 * 2 r + 1 mirrored neighbours. What the Gaussians the fused kernel
 * (blur16-fused.cu) does not take run: radii past 16, and planes that are
 * not 16-bit words at 16-byte aligned rows (P010's interleaved chroma,
 * odd pitches).
 *
 * The taps are normalised in double on the GPU (a taps kernel before the
 * passes: up to 601 doubles an axis, too many for kernel parameters). Up
 * to radius 64 the sums are float: values stay under 2^16, where a
 * float's half ulp is 2^-9, and an output takes 2 r + 1 rounded
 * operations a pass, so the two passes move it by at most about
 * 2 (2 r + 1) x 2^-9 (0.5 at r = 64), inside the promise of 1 against the
 * double-precision reference, and float math runs at twice the rate of
 * double without the conversions that made the double version
 * compute-bound. Above radius 64 the sums stay double.
 *
 * Floor: read the component once and write it once (4K 16-bit luma:
 * 33 MB, 11 us at 2.9 TB/s), plus a write and a read of 4 bytes a sample
 * for the scratch plane; the direct sums cost 2 r + 1 operations an
 * output a pass (time grows with sigma). Access: up to radius 64
 * (sigma 21) the passes stage a tile and its mirrored halo in shared
 * memory with coalesced loads (rows: 256 x 4 outputs a block, a planar
 * row's interior read as 16-byte vectors of 8 samples; columns: 32 x 64)
 * and sum from there, each thread keeping its outputs side by side so
 * that a tap is read once for all of them; above, each tap is a load of
 * its own (threads of a warp take 32 neighbouring columns, so a vertical
 * tap is one coalesced load; border columns and rows mirror, the others
 * skip the mirror arithmetic).
 *
 * Sharpening (blur.h) is the vertical pass's: it reads the source sample
 * of each output it writes.
 *
 * What the 8-bit kernels do to stay at memory speed (tensor-core products
 * of exact fp16 samples, decimation above sigma 16, running box sums)
 * does not carry over unchanged: fp16 holds integers exactly only up to
 * 2048. */
#include "blur16-samples.cuh"

/* w[k] for k = 0 .. r: gaussian_weight over the sum of all 2 r + 1 taps.
 * Block 0 makes the rows' taps, block 1 the columns'. */
__global__ void
gaussian_taps (double *wx, int rx, double sigma_x, double *wy, int ry,
    double sigma_y)
{
  __shared__ double part[256];
  double *w = blockIdx.x ? wy : wx;
  const int r = blockIdx.x ? ry : rx;
  const double sigma = blockIdx.x ? sigma_y : sigma_x;
  double s = 0.0, total;
  int k, n;

  for (k = threadIdx.x; k <= r; k += blockDim.x) {
    double e = gaussian_weight (k, r, sigma);

    w[k] = e;
    s += k ? 2.0 * e : e;
  }
  part[threadIdx.x] = s;
  __syncthreads ();
  for (n = blockDim.x / 2; n > 0; n /= 2) {
    if ((int) threadIdx.x < n)
      part[threadIdx.x] += part[threadIdx.x + n];
    __syncthreads ();
  }
  total = part[0];
  for (k = threadIdx.x; k <= r; k += blockDim.x)
    w[k] /= total;
}

__global__ void
gaussian_rows (CfxPlane src, float *dst, const double *__restrict__ w, int r)
{
  const int x = blockIdx.x * BLOCK_X + threadIdx.x;
  const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
  const int n = src.width;
  double acc;
  int k;

  if (x >= n || y >= src.height)
    return;
  acc = w[0] * load_sample (src, x, y);
  if (x >= r && x + r < n)
    for (k = 1; k <= r; k++)
      acc += w[k] * (load_sample (src, x - k, y) + load_sample (src, x + k,
              y));
  else
    for (k = 1; k <= r; k++)
      acc += w[k] * (load_sample (src, mirror (x - k, n), y) +
          load_sample (src, mirror (x + k, n), y));
  dst[(size_t) y * n + x] = (float) acc;
}

__global__ void
gaussian_columns (const float *__restrict__ src, CfxPlane dst,
    const double *__restrict__ w, int r, CfxPlane in, int amount)
{
  const int x = blockIdx.x * BLOCK_X + threadIdx.x;
  const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
  const int n = dst.height, pitch = dst.width;
  double acc;
  int k;

  if (x >= dst.width || y >= n)
    return;
  acc = w[0] * src[(size_t) y * pitch + x];
  if (y >= r && y + r < n)
    for (k = 1; k <= r; k++)
      acc += w[k] * ((double) src[(size_t) (y - k) * pitch + x] +
          src[(size_t) (y + k) * pitch + x]);
  else
    for (k = 1; k <= r; k++)
      acc += w[k] * ((double) src[(size_t) mirror (y - k, n) * pitch + x] +
          src[(size_t) mirror (y + k, n) * pitch + x]);
  store_sample (dst, x, y, (long long) floor (acc + 0.5), in, amount);
}

/* Tiled versions for radii up to TILE_MAX_RADIUS (sigma <= 21): a block
 * stages its tile and the tile's halo (mirrored as it loads) in shared
 * memory, with coalesced loads, and sums from there. */
#define TILE_MAX_RADIUS 64
#define ROWS_W 256              /* outputs a row tile: 256 columns... */
#define ROWS_H 4                /* ... of 4 rows */
#define COLS_H 64               /* outputs a column tile: 32 columns x 64 */
#define ORIGIN TILE_MAX_RADIUS  /* a row tile's first output sample */

/* The taps as floats in shared memory, for a block's sums */
__device__ __forceinline__ void
taps_to_shared (float *s_w, const double *__restrict__ w, int r)
{
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;

  for (int k = tid; k <= r; k += blockDim.x * blockDim.y)
    s_w[k] = (float) w[k];
  __syncthreads ();
}

__global__ void __launch_bounds__ (ROWS_W)
gaussian_rows_tiled (CfxPlane src, float *dst, const double *__restrict__ w,
    int r)
{
  /* sample x0 + i of a row at column ORIGIN + i: the interior starts
   * 16-byte aligned whatever r */
  __shared__ __align__ (16) float tile[ROWS_H][ROWS_W + 2 * TILE_MAX_RADIUS];
  __shared__ float s_w[TILE_MAX_RADIUS + 1];
  const int x0 = blockIdx.x * ROWS_W, y0 = blockIdx.y * ROWS_H;
  const int n = src.width;
  const bool vectors = src.step == 2 && x0 + ROWS_W <= n
      && ((uintptr_t) src.data & 15) == 0 && (src.pitch & 15) == 0;
  int i, j, k;

  if (vectors) {
    /* the interior as 16-byte vectors of 8 samples, the halos one sample
     * a thread (mirrored) */
    const int per_row = ROWS_W / 8;
    const unsigned mask = (1u << src.depth) - 1;

    for (i = threadIdx.x; i < ROWS_H * per_row; i += ROWS_W) {
      const int jj = i / per_row, v = i % per_row;

      if (y0 + jj < src.height) {
        const uint4 q = __ldg ((const uint4 *) (src.data + (size_t) (y0 +
                    jj) * src.pitch + (size_t) x0 * 2) + v);
        const unsigned word[4] = { q.x, q.y, q.z, q.w };
        float f[8];

#pragma unroll
        for (int m = 0; m < 8; m++)
          f[m] = (float) ((word[m / 2] >> (16 * (m % 2)) & 0xffffu) >>
              src.shift & mask);
        ((float4 *) & tile[jj][ORIGIN + 8 * v])[0] =
            make_float4 (f[0], f[1], f[2], f[3]);
        ((float4 *) & tile[jj][ORIGIN + 8 * v])[1] =
            make_float4 (f[4], f[5], f[6], f[7]);
      }
    }
    for (i = threadIdx.x; i < ROWS_H * 2 * r; i += ROWS_W) {
      const int jj = i / (2 * r), h = i % (2 * r);
      const int dx = h < r ? h - r : ROWS_W + h - r;

      if (y0 + jj < src.height)
        tile[jj][ORIGIN + dx] = load_sample (src, mirror (x0 + dx, n),
            y0 + jj);
    }
  } else {
    for (j = 0; j < ROWS_H && y0 + j < src.height; j++)
      for (i = threadIdx.x; i < ROWS_W + 2 * r; i += ROWS_W)
        tile[j][ORIGIN - r + i] = load_sample (src, mirror (x0 - r + i, n),
            y0 + j);
  }
  taps_to_shared (s_w, w, r);
  if (x0 + (int) threadIdx.x >= n)
    return;
  /* the thread's ROWS_H outputs side by side, each tap read once */
  {
    const int c = ORIGIN + threadIdx.x;
    float acc[ROWS_H];

#pragma unroll
    for (j = 0; j < ROWS_H; j++)
      acc[j] = s_w[0] * tile[j][c];
    for (k = 1; k <= r; k++) {
      const float wk = s_w[k];
#pragma unroll
      for (j = 0; j < ROWS_H; j++)
        acc[j] = fmaf (wk, tile[j][c - k] + tile[j][c + k], acc[j]);
    }
#pragma unroll
    for (j = 0; j < ROWS_H; j++)
      if (y0 + j < src.height)
        dst[(size_t) (y0 + j) * n + x0 + threadIdx.x] = acc[j];
  }
}

__global__ void __launch_bounds__ (BLOCK_X * BLOCK_Y)
gaussian_columns_tiled (const float *__restrict__ src, CfxPlane dst,
    const double *__restrict__ w, int r, CfxPlane in, int amount)
{
  __shared__ float tile[COLS_H + 2 * TILE_MAX_RADIUS][BLOCK_X];
  __shared__ float s_w[TILE_MAX_RADIUS + 1];
  const int x = blockIdx.x * BLOCK_X + threadIdx.x;
  const int y0 = blockIdx.y * COLS_H;
  const int n = dst.height, pitch = dst.width, span = COLS_H + 2 * r;
  int i, k;

  if (x < pitch)
    for (i = threadIdx.y; i < span; i += BLOCK_Y)
      tile[i][threadIdx.x] = src[(size_t) mirror (y0 - r + i, n) * pitch + x];
  taps_to_shared (s_w, w, r);
  if (x >= pitch)
    return;
  /* the thread's outputs (rows threadIdx.y + m * BLOCK_Y) side by side,
   * each tap read once */
  {
    float acc[COLS_H / BLOCK_Y];
    const int m_n = COLS_H / BLOCK_Y;
    int m;

#pragma unroll
    for (m = 0; m < m_n; m++)
      acc[m] = s_w[0] * tile[threadIdx.y + m * BLOCK_Y + r][threadIdx.x];
    for (k = 1; k <= r; k++) {
      const float wk = s_w[k];
#pragma unroll
      for (m = 0; m < m_n; m++) {
        const int j = threadIdx.y + m * BLOCK_Y + r;

        acc[m] = fmaf (wk, tile[j - k][threadIdx.x] + tile[j + k][threadIdx.x],
            acc[m]);
      }
    }
#pragma unroll
    for (m = 0; m < m_n; m++) {
      const int y = y0 + threadIdx.y + m * BLOCK_Y;

      if (y < n)
        store_rounded (dst, x, y, acc[m], in, amount);
    }
  }
}

extern "C" cudaError_t
cfx_blur16_passes_launch (const CfxBlur16 * s, cudaStream_t stream)
{
  const dim3 block (BLOCK_X, BLOCK_Y);
  const dim3 grid ((s->src.width + BLOCK_X - 1) / BLOCK_X,
      (s->src.height + BLOCK_Y - 1) / BLOCK_Y);
  cudaError_t err;

  err = cfx_launch (gaussian_taps, dim3 (2), dim3 (256), 0, stream, s->wx,
      s->rx, s->sigma_x, s->wy, s->ry, s->sigma_y);
  if (err != cudaSuccess)
    return err;
  if (s->rx <= TILE_MAX_RADIUS)
    err = cfx_launch (gaussian_rows_tiled, dim3 ((s->src.width + ROWS_W -
                1) / ROWS_W, (s->src.height + ROWS_H - 1) / ROWS_H),
        dim3 (ROWS_W), 0, stream, s->src, (float *) s->plane,
        (const double *) s->wx, s->rx);
  else
    err = cfx_launch (gaussian_rows, grid, block, 0, stream, s->src,
        (float *) s->plane, (const double *) s->wx, s->rx);
  if (err != cudaSuccess)
    return err;
  if (s->ry <= TILE_MAX_RADIUS)
    return cfx_launch (gaussian_columns_tiled, dim3 (grid.x,
            (s->src.height + COLS_H - 1) / COLS_H), block, 0, stream,
        (const float *) s->plane, s->dst, (const double *) s->wy, s->ry,
        s->src, s->amount);
  return cfx_launch (gaussian_columns, grid, block, 0, stream,
      (const float *) s->plane, s->dst, (const double *) s->wy, s->ry,
      s->src, s->amount);
}
