/* Gaussian and box blur of 16-bit components (9 to 16 significant bits,
 * at any shift in their word), the same operations as the 8-bit kernels
 * in the units of the component's own depth.
 *
 * Two passes through a scratch plane of w * h values: horizontal, then
 * vertical. A fused kernel doing both passes in shared memory for radii
 * up to 16 (below, "both passes in one kernel") is exact but slower
 * (measured: see use_fused); only the benchmark runs it. Each output sums
 * its 2 r + 1 mirrored neighbours directly. The Gaussian's taps are
 * computed on the GPU and normalised in double. Up to radius 64 (the tiled kernels) the
 * sums are float: values stay under 2^16, where a float's half ulp is
 * 2^-9, and an output takes 2 r + 1 rounded operations a pass, so the two
 * passes move it by at most about 2 (2 r + 1) x 2^-9 (0.5 at r = 64),
 * inside the promise of 1 against the double-precision
 * reference, and float math runs at twice the rate of double without the
 * conversions that made the double version compute-bound (Nsight
 * Compute: 76% SM busy at sigma 1). Above radius 64 the sums stay double.
 * The box sums integers (32-bit row sums, 64-bit column sums, running
 * along runs of 32 outputs: exact).
 *
 * Floor: read the component once and write it once (4K 16-bit luma:
 * 33 MB, 11 us at 2.9 TB/s). These kernels are not near it: the scratch
 * plane adds a write and a read of 4 bytes a sample, and the Gaussian's
 * direct sums cost 2 r + 1 loads an output (its time grows with sigma).
 * Access: up to radius 64 (sigma 21) the Gaussian's passes stage a tile
 * and its mirrored halo in shared memory with coalesced loads (rows: 256
 * x 4 outputs a block, a planar row's interior read as 16-byte vectors of
 * 8 samples; columns: 32 x 64) and sum from there, each thread keeping its
 * outputs side by side so that a tap is read once for all of them; above,
 * each tap is a load of its own (threads of a warp take 32 neighbouring
 * columns, so a vertical tap is one coalesced load; border columns and
 * rows mirror, the others skip the mirror arithmetic). The box's row
 * pass has each thread walk its own run of a row (through L1). What the 8-bit kernels do to stay at memory speed
 * (tensor-core products of exact fp16 samples, decimation above sigma 16,
 * running box sums) does not carry over unchanged: fp16 holds integers
 * exactly only up to 2048. */
#include "blur-internal.h"

#include <math.h>

#define BLOCK_X 32
#define BLOCK_Y 8

/* host too: the fused Gaussian's phases run on the CPU in a test */
#define B16 __host__ __device__ __forceinline__

B16 int
load_sample (const CfxPlane & p, int x, int y)
{
  uint16_t w = *(const uint16_t *) (p.data + (size_t) y * p.pitch +
      (size_t) x * p.step);

  return (w >> p.shift) & ((1 << p.depth) - 1);
}

__device__ __forceinline__ void
store_sample (const CfxPlane & p, int x, int y, long long v)
{
  const long long top = (1LL << p.depth) - 1;

  v = v < 0 ? 0 : v > top ? top : v;
  *(uint16_t *) (p.data + (size_t) y * p.pitch + (size_t) x * p.step) =
      (uint16_t) (v << p.shift);
}

/* @v rounded to nearest (halves up) and clipped, as store_sample does
 * with floor (v + 0.5), in float: v is far from the integer limits */
B16 void
store_rounded (const CfxPlane & p, int x, int y, float v)
{
  const float top = (float) ((1u << p.depth) - 1);
  const float r = fminf (fmaxf (floorf (v + 0.5f), 0.f), top);

  *(uint16_t *) (p.data + (size_t) y * p.pitch + (size_t) x * p.step) =
      (uint16_t) ((unsigned) r << p.shift);
}

/* ---- Gaussian --------------------------------------------------------- */

/* w[k] for k = 0 .. r: exp (-k^2 / (2 sigma^2)) over the sum of all 2 r +
 * 1 taps; sigma <= 0 (r 0): the identity. Block 0 makes the rows' taps,
 * block 1 the columns'. */
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
    double e = r ? exp (-((double) k * k) / (2.0 * sigma * sigma)) : 1.0;

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
    const double *__restrict__ w, int r)
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
  store_sample (dst, x, y, (long long) floor (acc + 0.5));
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
    const double *__restrict__ w, int r)
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
        store_rounded (dst, x, y, acc[m]);
    }
  }
}

/* ---- Gaussian, both passes in one kernel (radii up to 16) ------------- */

/* For radii up to FUSED_MAX_RADIUS (sigma <= 5.33) a block owns a
 * FUSED_W x FUSED_H tile of outputs: it loads the tile and its mirrored
 * halo into shared memory once (as floats), sums the rows there (the
 * halo rows too), writes the row sums back over the tile and sums the
 * columns from them. No scratch plane: 4 bytes written and read a sample
 * less than the two tiled passes, at the cost of the halo rows' row sums
 * ((FUSED_H + 2 ry) / FUSED_H of the row work) and one launch less. The
 * sums are the tiled passes' float operations in the same order (w0 times
 * the sample, then fmaf (wk, left + right, acc) for k = 1 .. r), so the
 * outputs are the same.
 *
 * The work of a block is four phases between barriers, each a function of
 * the thread index, so that tests/kernels/test-blur16-emulated.c can run
 * them on the CPU block by block. */
#define FUSED_MAX_RADIUS 16
#define FUSED_W 64
#define FUSED_H 64
#define FUSED_NT 256
#define FUSED_PITCH (FUSED_W + 2 * FUSED_MAX_RADIUS)
#define FUSED_ROWS (FUSED_H + 2 * FUSED_MAX_RADIUS)
/* rows of the row pass a thread sums: its column's rows g, g + 4, ... */
#define FUSED_GROUPS (FUSED_NT / FUSED_W)
#define FUSED_ROW_SUMS ((FUSED_ROWS + FUSED_GROUPS - 1) / FUSED_GROUPS)
#define FUSED_COL_SUMS (FUSED_H / FUSED_GROUPS)

struct FusedArgs
{
  CfxPlane src, dst;
  int rx, ry;
};

/* Shared memory of a block: the tile at [row][column], row 0 and column
 * 0 being the halo's first (ry rows and rx columns before the outputs'),
 * and the taps as floats */
struct FusedShared
{
  float tile[FUSED_ROWS][FUSED_PITCH];
  float wx[FUSED_MAX_RADIUS + 1], wy[FUSED_MAX_RADIUS + 1];
};

/* Phase 1: the tile and its halo, mirrored at the plane's edges; the taps */
B16 void
fused_load (const FusedArgs & a, FusedShared & s, const double *wx,
    const double *wy, int bx, int by, int tid)
{
  const int x0 = bx * FUSED_W - a.rx, y0 = by * FUSED_H - a.ry;
  const int cols = FUSED_W + 2 * a.rx, rows = FUSED_H + 2 * a.ry;
  const int lane = tid % 32, warp = tid / 32;

  /* a warp a row, its lanes along the row: coalesced */
  for (int j = warp; j < rows; j += FUSED_NT / 32) {
    const int y = mirror (y0 + j, a.src.height);

    for (int c = lane; c < cols; c += 32)
      s.tile[j][c] = (float) load_sample (a.src, mirror (x0 + c,
              a.src.width), y);
  }
  if (tid <= a.rx)
    s.wx[tid] = (float) wx[tid];
  if (tid <= a.ry)
    s.wy[tid] = (float) wy[tid];
}

/* The thread's column of the tile in phases 2 and 3 (output column
 * tid % W), and the tile row of its m-th row sum (rows g, g + G, ... for
 * g = tid / W), -1 past the tile */
B16 int
fused_column (const FusedArgs & a, int tid)
{
  return a.rx + tid % FUSED_W;
}

B16 int
fused_row (const FusedArgs & a, int tid, int m)
{
  const int j = tid / FUSED_W + m * FUSED_GROUPS;

  return j < FUSED_H + 2 * a.ry ? j : -1;
}

/* Phase 2: the thread's row sums, into @acc */
B16 void
fused_rows (const FusedArgs & a, const FusedShared & s, int tid,
    float acc[FUSED_ROW_SUMS])
{
  const int c = fused_column (a, tid);

UNROLL
  for (int m = 0; m < FUSED_ROW_SUMS; m++)
    if (fused_row (a, tid, m) >= 0)
      acc[m] = s.wx[0] * s.tile[fused_row (a, tid, m)][c];
  for (int k = 1; k <= a.rx; k++) {
    const float wk = s.wx[k];

UNROLL
    for (int m = 0; m < FUSED_ROW_SUMS; m++) {
      const int j = fused_row (a, tid, m);

      if (j >= 0)
        acc[m] = fmaf (wk, s.tile[j][c - k] + s.tile[j][c + k], acc[m]);
    }
  }
}

/* Phase 3: the row sums back over the tile's output columns */
B16 void
fused_rows_store (const FusedArgs & a, FusedShared & s, int tid,
    const float acc[FUSED_ROW_SUMS])
{
UNROLL
  for (int m = 0; m < FUSED_ROW_SUMS; m++)
    if (fused_row (a, tid, m) >= 0)
      s.tile[fused_row (a, tid, m)][fused_column (a, tid)] = acc[m];
}

/* Phase 4: the column sums of the thread's outputs (column tid % W, rows
 * g, g + G, ...), rounded and stored */
B16 void
fused_columns (const FusedArgs & a, const FusedShared & s, int bx, int by,
    int tid)
{
  const int c = a.rx + tid % FUSED_W, g = tid / FUSED_W;
  const int x = bx * FUSED_W + tid % FUSED_W, y0 = by * FUSED_H;
  float acc[FUSED_COL_SUMS];

  if (x >= a.dst.width)
    return;
UNROLL
  for (int m = 0; m < FUSED_COL_SUMS; m++)
    acc[m] = s.wy[0] * s.tile[a.ry + g + m * FUSED_GROUPS][c];
  for (int k = 1; k <= a.ry; k++) {
    const float wk = s.wy[k];

UNROLL
    for (int m = 0; m < FUSED_COL_SUMS; m++) {
      const int j = a.ry + g + m * FUSED_GROUPS;

      acc[m] = fmaf (wk, s.tile[j - k][c] + s.tile[j + k][c], acc[m]);
    }
  }
UNROLL
  for (int m = 0; m < FUSED_COL_SUMS; m++) {
    const int y = y0 + g + m * FUSED_GROUPS;

    if (y < a.dst.height)
      store_rounded (a.dst, x, y, acc[m]);
  }
}

__global__ void __launch_bounds__ (FUSED_NT)
gaussian_fused (FusedArgs a, const double *__restrict__ wx,
    const double *__restrict__ wy)
{
  __shared__ FusedShared s;
  float acc[FUSED_ROW_SUMS];
  const int tid = threadIdx.x;

  fused_load (a, s, wx, wy, blockIdx.x, blockIdx.y, tid);
  __syncthreads ();
  fused_rows (a, s, tid, acc);
  __syncthreads ();
  fused_rows_store (a, s, tid, acc);
  __syncthreads ();
  fused_columns (a, s, blockIdx.x, blockIdx.y, tid);
}

static dim3
fused_grid (const CfxPlane & p)
{
  return dim3 ((p.width + FUSED_W - 1) / FUSED_W,
      (p.height + FUSED_H - 1) / FUSED_H);
}

#ifdef CFX_BLUR16_EMULATE
/* The fused kernel's phases run on the CPU, block by block and thread by
 * thread (host planes; taps wx[0 .. rx], wy[0 .. ry] as gaussian_taps
 * makes them). Returns 0 for radii the kernel does not take. */
extern "C" int
cfx_blur16_fused_emulate (CfxPlane dst, CfxPlane src, int rx, int ry,
    const double *wx, const double *wy)
{
  FusedArgs a = { src, dst, rx, ry };
  const dim3 grid = fused_grid (src);
  FusedShared *s;
  float (*acc)[FUSED_ROW_SUMS];

  if (rx < 0 || ry < 0 || rx > FUSED_MAX_RADIUS || ry > FUSED_MAX_RADIUS)
    return 0;
  s = (FusedShared *) malloc (sizeof (*s));
  acc = (float (*)[FUSED_ROW_SUMS]) malloc (sizeof (*acc) * FUSED_NT);
  for (unsigned by = 0; by < grid.y; by++)
    for (unsigned bx = 0; bx < grid.x; bx++) {
      /* what a block's shared memory may hold before it writes */
      memset (s, 0xff, sizeof (*s));
      for (int t = 0; t < FUSED_NT; t++)
        fused_load (a, *s, wx, wy, bx, by, t);
      for (int t = 0; t < FUSED_NT; t++)
        fused_rows (a, *s, t, acc[t]);
      for (int t = 0; t < FUSED_NT; t++)
        fused_rows_store (a, *s, t, acc[t]);
      for (int t = 0; t < FUSED_NT; t++)
        fused_columns (a, *s, bx, by, t);
    }
  free (acc);
  free (s);
  return 1;
}
#endif

/* ---- box --------------------------------------------------------------- */

/* A thread owns a run of BOX_RUN outputs along its axis: the first sums
 * its 2 r + 1 neighbours, each next one adds the sample entering the box
 * and drops the one leaving it (exact integers), so an output costs about
 * two loads whatever the radius. */
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
box_columns (const int *__restrict__ src, CfxPlane dst, int rx, int ry)
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
  store_sample (dst, x, y0, (sum + count / 2) / count);
  for (y = y0 + 1; y < y0 + BOX_RUN && y < n; y++) {
    sum += src[(size_t) mirror (y + ry, n) * pitch + x] -
        src[(size_t) mirror (y - ry - 1, n) * pitch + x];
    store_sample (dst, x, y, (sum + count / 2) / count);
  }
}

/* ---- launches ------------------------------------------------------------ */

static size_t
align_256 (size_t n)
{
  return (n + 255) & ~(size_t) 255;
}

static int
gaussian_radius (double sigma)
{
  return sigma > 0.0 ? (int) ceil (3.0 * sigma) : 0;
}

extern "C" size_t
cfx_blur16_sub_bytes (int width, int height)
{
  const int r = gaussian_radius (CFX_BLUR_MAX_SIGMA);

  /* two tap arrays, and the scratch plane (floats or 32-bit sums) */
  return 2 * align_256 ((size_t) (r + 1) * sizeof (double)) +
      align_256 ((size_t) width * height * 4);
}

/* 1: radii up to FUSED_MAX_RADIUS take the fused kernel. Off: on the
 * H200 (2026-11-27, 4K GRAY16) it took 98 us at sigma 1 and 157 at sigma
 * 3 against the two tiled passes' 56 and 75; the benchmark keeps timing
 * it */
static int use_fused = 0;

extern "C" void
cfx_blur16_use_fused (int on)
{
  __atomic_store_n (&use_fused, on ? 1 : 0, __ATOMIC_RELAXED);
}

/* The launches of one sub-channel, each checked by its own status */
static cudaError_t
launch_sub (const CfxBlur16 * s, cudaStream_t stream)
{
  const dim3 block (BLOCK_X, BLOCK_Y);
  const dim3 grid ((s->src.width + BLOCK_X - 1) / BLOCK_X,
      (s->src.height + BLOCK_Y - 1) / BLOCK_Y);
  const int rx = s->box ? s->rx : gaussian_radius (s->sigma_x);
  const int ry = s->box ? s->ry : gaussian_radius (s->sigma_y);
  /* the layout of cfx_blur16_sub_bytes: room for the largest taps
   * whatever this blur's radii (a box's radii are not bounded by it) */
  const size_t taps = align_256 ((size_t) (gaussian_radius
          (CFX_BLUR_MAX_SIGMA) + 1) * sizeof (double));
  double *wx = (double *) s->scratch;
  double *wy = (double *) ((uint8_t *) s->scratch + taps);
  void *plane = (uint8_t *) s->scratch + 2 * taps;
  cudaError_t err;

  if (s->box) {
    const dim3 rows ((s->src.width + BLOCK_X * BOX_RUN - 1) /
        (BLOCK_X * BOX_RUN), grid.y);
    const dim3 columns (grid.x, (s->src.height + BLOCK_Y * BOX_RUN - 1) /
        (BLOCK_Y * BOX_RUN));

    err = cfx_launch (box_rows, rows, block, 0, stream, s->src,
        (int *) plane, rx);
    if (err != cudaSuccess)
      return err;
    return cfx_launch (box_columns, columns, block, 0, stream,
        (const int *) plane, s->dst, rx, ry);
  }

  err = cfx_launch (gaussian_taps, dim3 (2), dim3 (256), 0, stream, wx, rx,
      s->sigma_x, wy, ry, s->sigma_y);
  if (err != cudaSuccess)
    return err;
  if (rx <= FUSED_MAX_RADIUS && ry <= FUSED_MAX_RADIUS
      && __atomic_load_n (&use_fused, __ATOMIC_RELAXED)) {
    const FusedArgs a = { s->src, s->dst, rx, ry };

    return cfx_launch (gaussian_fused, fused_grid (s->src), dim3 (FUSED_NT),
        0, stream, a, (const double *) wx, (const double *) wy);
  }
  if (rx <= TILE_MAX_RADIUS)
    err = cfx_launch (gaussian_rows_tiled, dim3 ((s->src.width + ROWS_W -
                1) / ROWS_W, (s->src.height + ROWS_H - 1) / ROWS_H),
        dim3 (ROWS_W), 0, stream, s->src, (float *) plane,
        (const double *) wx, rx);
  else
    err = cfx_launch (gaussian_rows, grid, block, 0, stream, s->src,
        (float *) plane, (const double *) wx, rx);
  if (err != cudaSuccess)
    return err;
  if (ry <= TILE_MAX_RADIUS)
    return cfx_launch (gaussian_columns_tiled, dim3 (grid.x,
            (s->src.height + COLS_H - 1) / COLS_H), block, 0, stream,
        (const float *) plane, s->dst, (const double *) wy, ry);
  return cfx_launch (gaussian_columns, grid, block, 0, stream,
      (const float *) plane, s->dst, (const double *) wy, ry);
}

extern "C" cudaError_t
cfx_blur16_launch (const CfxBlur16 * subs, int n, cudaStream_t stream)
{
  cudaError_t err = cudaSuccess;

  for (int i = 0; i < n && err == cudaSuccess; i++)
    err = launch_sub (&subs[i], stream);
  return err;
}
