/* Gaussian and box blur of 16-bit components (9 to 16 significant bits,
 * at any shift in their word), the same operations as the 8-bit kernels
 * in the units of the component's own depth.
 *
 * Gaussians of radii up to 16 (sigma <= 5.33) run as one kernel (below,
 * "both passes in one kernel") that walks down strips of the plane with
 * the row sums in shared memory; larger ones in two passes through a
 * scratch plane of w * h floats, horizontal, then vertical. Each output
 * sums its 2 r + 1 mirrored neighbours directly. The Gaussian's taps are
 * normalised in double, by the same formula on the host for the one
 * kernel (its parameters) and on the GPU for the two passes (a taps
 * kernel before them: up to 601 doubles an axis, too many for kernel
 * parameters). Up to radius 64 the sums
 * are float: values stay under 2^16, where a float's half ulp is 2^-9,
 * and an output takes 2 r + 1 rounded operations a pass, so the two
 * passes move it by at most about 2 (2 r + 1) x 2^-9 (0.5 at r = 64),
 * inside the promise of 1 against the double-precision reference, and
 * float math runs at twice the rate of double without the conversions
 * that made the double version compute-bound (Nsight Compute: 76% SM busy
 * at sigma 1). Above radius 64 the sums stay double. The box sums
 * integers (32-bit row sums, 64-bit column sums, running along runs of 32
 * outputs: exact).
 *
 * Floor: read the component once and write it once (4K 16-bit luma:
 * 33 MB, 11 us at 2.9 TB/s). The one-kernel Gaussian moves those bytes
 * and ~1.2x the row sums' work; the two passes add a write and a read of
 * 4 bytes a sample for the scratch plane. Either way the direct sums cost
 * 2 r + 1 operations an output a pass (time grows with sigma). Access of
 * the two passes: up to radius 64 (sigma 21) they stage a tile and its
 * mirrored halo in shared memory with coalesced loads (rows: 256 x 4
 * outputs a block, a planar row's interior read as 16-byte vectors of 8
 * samples; columns: 32 x 64) and sum from there, each thread keeping its
 * outputs side by side so that a tap is read once for all of them; above,
 * each tap is a load of its own (threads of a warp take 32 neighbouring
 * columns, so a vertical tap is one coalesced load; border columns and
 * rows mirror, the others skip the mirror arithmetic). The box's row pass
 * has each thread walk its own run of a row (through L1). What the 8-bit
 * kernels do to stay at memory speed (tensor-core products of exact fp16
 * samples, decimation above sigma 16, running box sums) does not carry
 * over unchanged: fp16 holds integers exactly only up to 2048. */
#include "blur-internal.h"

#include <math.h>
#include <type_traits>

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

/* Float conversions with full-rate float arithmetic instead of the
 * conversion unit (a quarter of the rate): 2^23 + n has n as its mantissa.
 *
 * The component of @p in the low (@high 0) or high 16 bits of @w, as a
 * float: the word's bits of the component, under 2^23's exponent, times
 * 2^-shift, less 2^(23 - shift) (one rounding of an exact result) */
B16 float
word_to_float (unsigned w, int high, const CfxPlane & p, unsigned mask)
{
#ifdef __CUDA_ARCH__
  const unsigned bits = mask << p.shift;
  const float scale = __uint_as_float ((127u - p.shift) << 23);
  const unsigned t = high ? __byte_perm (w, 0x4b000000u, 0x7632) &
      (bits | 0xffff0000u) : (w & bits) | 0x4b000000u;

  return fmaf (__uint_as_float (t), scale, -8388608.f * scale);
#else
  return (float) ((w >> (16 * high) & 0xffffu) >> p.shift & mask);
#endif
}

/* floor (v) for v in [0, 2^23), in the low 23 bits (the bits above are
 * 2^23's exponent: callers keep the low 16) */
B16 unsigned
small_floor (float v)
{
#ifdef __CUDA_ARCH__
  return __float_as_uint (__fadd_rd (v, 8388608.f));
#else
  return (unsigned) floorf (v);
#endif
}

/* ---- Gaussian --------------------------------------------------------- */

/* Tap @k of a Gaussian of radius @r before normalising: exp (-k^2 / (2
 * sigma^2)); r 0 (sigma <= 0): the identity */
B16 double
gaussian_weight (int k, int r, double sigma)
{
  return r ? exp (-((double) k * k) / (2.0 * sigma * sigma)) : 1.0;
}

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

/* For radii up to STREAM_MAX_RADIUS (sigma <= 5.33) a block owns a strip
 * of STREAM_W output columns and a run of rows, and walks down the run
 * STREAM_STEP rows a step, with no scratch plane (8 bytes a sample less
 * than the two tiled passes):
 *   stage       the step's input rows (the strip and STREAM_HALO columns
 *               a side) go into a shared tile as floats, from 16-byte
 *               loads of 8 words issued a step ahead (held in registers
 *               while the step before computes); in blocks at the plane's
 *               left or right edge the columns outside it are then filled
 *               from the mirrored ones in the tile (a barrier more);
 *   rows        each thread sums 4 neighbouring columns of 4 of the rows
 *               from a window of the tile in registers (16-byte shared
 *               loads), into a ring of STREAM_SLOTS slots of row sums;
 *   columns     once the ring holds the row sums a step of outputs needs
 *               (R rows past its last: LAG steps behind), each thread sums
 *               16 outputs of its column from a window of the ring.
 * Rows of sums start R rows above the run, so a run of n steps takes n +
 * LAG steps, of which the row sums no output reaches are neither loaded
 * nor summed (at 4K and R 9, runs of 96 rows: 1.19x the row work).
 * Radii are rounded up to the kernel's R (3, 6, 9, 12 or 16: one kernel
 * each, sums unrolled); the taps past the blur's radius are 0, and fmaf
 * (0, x, acc) is acc, so the sums are the tiled passes' float operations
 * in the same order (w0 times the sample, then fmaf (wk, left + right,
 * acc) for k = 1 .. R) and, given the same taps, the outputs the same.
 *
 * Cost at R 9 (sigma 3): 19 adds and fmas an output a pass (the rows'
 * 1.19x), about 2 shared loads, the conversions and the stores. Measured
 * (Nsight Compute, H100, 4K GRAY16, with four slots and 5 blocks an SM):
 * 19.2 M warp instructions, about 73 a sample, issue-bound (1.6 warps not
 * selected for each that issues), 41 us; then 40 us against the 11 us
 * floor, after a taps kernel of 3.4 us. The taps as kernel parameters
 * (2026-11-28) made it 35.9 against 40.4-40.5 us a frame in the
 * benchmark: no taps kernel, and the sums read the taps straight from the
 * constant bank instead of R + 1 registers filled from shared memory
 * (Nsight Compute: the kernel alone 35.7 against 38.4 us, 0.71 against
 * 0.63 instructions issued a cycle a scheduler). The SMs stay unevenly
 * loaded: 690 blocks for 792 places (0.87 of a wave), busy 44 to 66
 * thousand cycles, 53 on average. Tried on an H100 (2026-11-28, with
 * the taps still in shared memory) and not kept, against the kernel of
 * then in the same call: other run lengths (48 to 192 rows: none faster
 * than the one-wave 96), a column phase of two columns by 8 rows a thread
 * (41.9 against 40.2 us: a 12-byte spill at R 9), output stores
 * streamed past the caches (no change), and each output step staged in
 * the tile and stored as 16-byte vectors, two barriers more a step (40.8
 * and 41.5 against 40.7 and 40.7 us; R 12 then spilled).
 *
 * Planes that are not 16-bit words at 16-byte aligned rows (P010's
 * interleaved chroma, odd pitches) take the two passes.
 *
 * The work of a step is phases between barriers, each a function of the
 * thread index (and, for the loads a step ahead, of what the thread
 * holds), so that tests/kernels/test-blur16-emulated.c can run them on
 * the CPU block by block. */
#define STREAM_MAX_RADIUS 16
#define STREAM_W 128
#define STREAM_NT 128
#define STREAM_STEP 16
#define STREAM_HALO 16
#define STREAM_TILE_W (STREAM_W + 2 * STREAM_HALO)
/* slots of row sums: an output step reads LAG + 1 <= 3 of them (R <= 16),
 * and the step of row sums after it writes over the first, which no later
 * output needs (the barrier between them orders the two) */
#define STREAM_SLOTS 3
/* 16-byte loads of a step's rows, and a thread's share of them */
#define STREAM_CHUNKS_ROW (STREAM_TILE_W / 8)
#define STREAM_CHUNKS (STREAM_STEP * STREAM_CHUNKS_ROW)
#define STREAM_FETCH ((STREAM_CHUNKS + STREAM_NT - 1) / STREAM_NT)

struct StreamArgs
{
  CfxPlane src, dst;
  int rx, ry;
  int run;                      /* output rows a block, STREAM_STEP's multiple */
  /* the taps as floats, 0 past the blur's radii: kernel parameters, which
   * the sums take straight from the constant bank (no registers, no
   * shared loads, no kernel before this one to make them) */
  float wx[STREAM_MAX_RADIUS + 1], wy[STREAM_MAX_RADIUS + 1];
};

struct __align__ (16) StreamShared
{
  float tile[STREAM_STEP][STREAM_TILE_W];
  float sums[STREAM_SLOTS][STREAM_STEP][STREAM_W];
};

/* What a thread holds between its loads a step ahead and staging them */
struct StreamHeld
{
  uint4 q[STREAM_FETCH];
};

/* Steps of row sums ahead of the outputs that need them */
template < int R > struct StreamGeometry
{
  static constexpr int LAG = (2 * R + STREAM_STEP - 1) / STREAM_STEP;
  /* the row window's reach, a multiple of 4 (16-byte shared loads) */
  static constexpr int R4 = (R + 3) & ~3;
  /* blocks an SM: the shared memory (34 KB a block) allows 6, which the
   * registers allow up to R 12 (at most 80 a thread; ptxas -v: 72 to 80,
   * no spills); R 16's column windows need more (87: 5 blocks) */
  static constexpr int BLOCKS = R < 16 ? 6 : 5;
};

/* The block's strip */
B16 int
stream_x0 (int bx)
{
  return bx * STREAM_W;
}

/* Whether the plane's rows may be read 16 bytes at a time: 16-bit words
 * at 16-byte aligned rows */
B16 bool
stream_vectors (const CfxPlane & p)
{
  return p.step == 2 && ((uintptr_t) p.data & 15) == 0 && (p.pitch & 15) == 0;
}

/* Input row of row @j of step @i: rows of sums start R above the run */
template < int R > B16 int
stream_row (const StreamArgs & a, int by, int i, int j)
{
  return mirror (by * a.run - R + i * STREAM_STEP + j, a.src.height);
}

/* Output rows of the block's run, and their steps */
B16 int
stream_out_rows (const StreamArgs & a, int by)
{
  return min (a.run, a.src.height - by * a.run);
}

B16 int
stream_out_steps (const StreamArgs & a, int by)
{
  return (stream_out_rows (a, by) + STREAM_STEP - 1) / STREAM_STEP;
}

/* Steps of the block (LAG more than its output steps), and the rows of
 * sums its outputs reach (from the first, R above the run) */
template < int R > B16 int
stream_steps (const StreamArgs & a, int by)
{
  return stream_out_steps (a, by) + StreamGeometry < R >::LAG;
}

template < int R > B16 int
stream_needed (const StreamArgs & a, int by)
{
  return stream_out_rows (a, by) + 2 * R;
}

/* 16 bytes from global memory (read-only for the kernel's life) */
B16 uint4
stream_load16 (const uint8_t * p)
{
#ifdef __CUDA_ARCH__
  return __ldg ((const uint4 *) p);
#else
  uint4 q;

  memcpy (&q, p, 16);
  return q;
#endif
}

/* Column of chunk @q of a step's rows, and whether it lies inside the
 * plane's row */
B16 int
stream_chunk_x (int bx, int q)
{
  return stream_x0 (bx) - STREAM_HALO + 8 * (q % STREAM_CHUNKS_ROW);
}

B16 bool
stream_chunk_inside (const CfxPlane & p, int x)
{
  return x >= 0 && x + 8 <= p.width;
}

/* Whether the row of chunk @q of step @i is one an output of the run
 * reaches (rows of sums from @needed on are left out: the last step's,
 * mostly); the others are not loaded (the stage writes zeros for them,
 * which no row sum reads) */
B16 bool
stream_row_needed (int i, int q, int needed)
{
  return i * STREAM_STEP + q / STREAM_CHUNKS_ROW < needed;
}

/* Whether the block's tile has columns outside the plane */
B16 bool
stream_border (const CfxPlane & p, int bx)
{
  return stream_x0 (bx) < STREAM_HALO
      || stream_x0 (bx) + STREAM_W + STREAM_HALO > p.width;
}

/* Whether every chunk the block loads lies inside the plane (no mirrored
 * rows or columns) at an offset that fits 32 bits */
template < int R > B16 bool
stream_interior (const StreamArgs & a, int bx, int by, int steps)
{
  const int y = by * a.run - R;

  return !stream_border (a.src, bx) && y >= 0
      && y + steps * STREAM_STEP <= a.src.height
      && (long long) a.src.pitch * a.src.height < (1LL << 31);
}

/* Load phase: the thread's chunks of step @i's rows that lie inside the
 * plane, 16 bytes of 8 words each. Interior blocks take the short way:
 * no mirroring, no checks, 32-bit offsets. */
template < int R > B16 void
stream_fetch (const StreamArgs & a, StreamHeld & h, bool interior, int bx,
    int by, int i, int tid)
{
  const int needed = stream_needed < R > (a, by);

  if (interior) {
    const unsigned first = (unsigned) (by * a.run - R + i * STREAM_STEP) *
        a.src.pitch + (unsigned) (stream_x0 (bx) - STREAM_HALO) * 2;

UNROLL
    for (int m = 0; m < STREAM_FETCH; m++) {
      const int q = tid + m * STREAM_NT;

      h.q[m] = make_uint4 (0, 0, 0, 0);
      if (q < STREAM_CHUNKS && stream_row_needed (i, q, needed)) {
        h.q[m] = stream_load16 (a.src.data + (first + (unsigned) (q /
                    STREAM_CHUNKS_ROW) * a.src.pitch + (unsigned) (q %
                    STREAM_CHUNKS_ROW) * 16));
      }
    }
    return;
  }
UNROLL
  for (int m = 0; m < STREAM_FETCH; m++) {
    const int q = tid + m * STREAM_NT, x = stream_chunk_x (bx, q);

    h.q[m] = make_uint4 (0, 0, 0, 0);
    if (q < STREAM_CHUNKS && stream_row_needed (i, q, needed)
        && stream_chunk_inside (a.src, x)) {
      h.q[m] = stream_load16 (a.src.data + (size_t) stream_row < R > (a, by,
              i, q / STREAM_CHUNKS_ROW) * a.src.pitch + (size_t) x * 2);
    }
  }
}

/* Stage phase: step @i's rows into the tile, as floats: the chunks inside
 * the plane from what the thread holds, the columns inside the plane of a
 * chunk across its right edge (widths that are not multiples of 8) a load
 * each; the columns outside are stream_fill's */
template < int R > B16 void
stream_stage (const StreamArgs & a, StreamShared & s, const StreamHeld & h,
    int bx, int by, int i, int tid)
{
  const unsigned mask = (1u << a.src.depth) - 1;

#ifdef __CUDA_ARCH__
  /* Wait here, on every path, for all of the loads a step ahead: the
   * compiler tracks them with one scoreboard and, where a path might not
   * have used a load, waits for it before the next step's loads reuse its
   * registers, and so for the load just issued too (measured: the three
   * loads of a step one after the other, a quarter of the stalls) */
UNROLL
  for (int m = 0; m < STREAM_FETCH; m++)
    asm volatile (""::"r" (h.q[m].x), "r" (h.q[m].y), "r" (h.q[m].z),
        "r" (h.q[m].w));
#endif
UNROLL
  for (int m = 0; m < STREAM_FETCH; m++) {
    const int q = tid + m * STREAM_NT, x = stream_chunk_x (bx, q);
    const int j = q / STREAM_CHUNKS_ROW, c = 8 * (q % STREAM_CHUNKS_ROW);

    if (q >= STREAM_CHUNKS)
      continue;
    if (stream_chunk_inside (a.src, x)) {
      const unsigned word[4] = { h.q[m].x, h.q[m].y, h.q[m].z, h.q[m].w };
      float f[8];

UNROLL
      for (int e = 0; e < 8; e++)
        f[e] = word_to_float (word[e / 2], e % 2, a.src, mask);
      float4 *t = (float4 *) & s.tile[j][c];
      t[0] = make_float4 (f[0], f[1], f[2], f[3]);
      t[1] = make_float4 (f[4], f[5], f[6], f[7]);
    } else if (x >= 0 && x < a.src.width) {
      for (int e = 0; x + e < a.src.width; e++)
        s.tile[j][c + e] = (float) load_sample (a.src, x + e,
            stream_row < R > (a, by, i, j));
    }
  }
}

/* Fill phase (border blocks, after the stage): the tile's columns outside
 * the plane from the mirrored columns inside it. A column an output needs
 * (at most 16 past the plane) mirrors to one the tile holds; farther ones
 * (right of a narrow last strip) take the nearest it holds. */
B16 void
stream_fill (const CfxPlane & p, StreamShared & s, int bx, int tid)
{
  const int left = stream_x0 (bx) - STREAM_HALO;
  const int nl = left < 0 ? -left : 0;
  const int first_r = p.width - left < STREAM_TILE_W ? p.width - left :
      STREAM_TILE_W;
  const int cols = nl + STREAM_TILE_W - first_r;

  for (int e = tid; e < STREAM_STEP * cols; e += STREAM_NT) {
    const int j = e / cols, k = e % cols;
    const int c = k < nl ? k : first_r + k - nl;
    int from = mirror (left + c, p.width) - left;

    from = from < 0 ? 0 : from >= STREAM_TILE_W ? STREAM_TILE_W - 1 : from;
    s.tile[j][c] = s.tile[j][from];
  }
}

/* Row phase: row sums of step @i's rows t / 32 + 4 m (m = 0 .. 3), columns
 * 4 (t % 32) .. + 3 of the strip, into slot i % STREAM_SLOTS; rows from
 * @needed on (no output of the run reaches them) are left out */
template < int R > B16 void
stream_rows (const StreamArgs & a, StreamShared & s, int i, int needed,
    int tid)
{
  typedef StreamGeometry < R > G;
  const int g = tid % 32;

UNROLL
  for (int m = 0; m < STREAM_STEP / 4; m++) {
    const int j = tid / 32 + 4 * m;
    const float4 *src = (const float4 *) & s.tile[j][STREAM_HALO + 4 * g -
        G::R4];
    float v[4 + 2 * G::R4], acc[4];

    if (i * STREAM_STEP + j >= needed)
      break;

UNROLL
    for (int n = 0; n < 1 + G::R4 / 2; n++) {
      const float4 q = src[n];

      v[4 * n] = q.x;
      v[4 * n + 1] = q.y;
      v[4 * n + 2] = q.z;
      v[4 * n + 3] = q.w;
    }
UNROLL
    for (int o = 0; o < 4; o++)
      acc[o] = a.wx[0] * v[G::R4 + o];
UNROLL
    for (int k = 1; k <= R; k++)
UNROLL
      for (int o = 0; o < 4; o++)
        acc[o] = fmaf (a.wx[k], v[G::R4 + o - k] + v[G::R4 + o + k],
            acc[o]);
    *(float4 *) & s.sums[i % STREAM_SLOTS][j][4 * g] =
        make_float4 (acc[0], acc[1], acc[2], acc[3]);
  }
}

/* Column phase: outputs of step @o of the run, column t of the strip:
 * rows of sums 16 o .. 16 o + 15 + 2 R (from the run's first, R above
 * it) lie in slots o, o + 1, o + 2 */
template < int R > B16 void
stream_columns (const StreamArgs & a, const StreamShared & s, int bx,
    int by, int o, int tid)
{
  const int x = stream_x0 (bx) + tid, y0 = by * a.run + o * STREAM_STEP;
  const int n = STREAM_STEP + 2 * R;
  const int rows = min (STREAM_STEP, a.dst.height - y0);
  const float top = (float) ((1u << a.dst.depth) - 1);
  uint8_t *out = a.dst.data + (size_t) y0 * a.dst.pitch + (size_t) x *
      a.dst.step;
  float v[STREAM_STEP + 2 * R];
  uint16_t word[STREAM_STEP];

  if (x >= a.dst.width)
    return;
UNROLL
  for (int e = 0; e < n; e++)
    v[e] = s.sums[(o + e / STREAM_STEP) % STREAM_SLOTS][e % STREAM_STEP][tid];
UNROLL
  for (int j = 0; j < STREAM_STEP; j++) {
    float acc = a.wy[0] * v[j + R];

UNROLL
    for (int k = 1; k <= R; k++)
      acc = fmaf (a.wy[k], v[j + R - k] + v[j + R + k], acc);
    /* store_rounded's value: the sums of nonnegative terms are not
     * negative, and clipping before the rounding changes nothing (top is
     * an integer); the word's bits past 16 fall off */
    word[j] = (uint16_t) (small_floor (fminf (acc, top) + 0.5f) <<
        a.dst.shift);
  }
  if (rows == STREAM_STEP) {
UNROLL
    for (int j = 0; j < STREAM_STEP; j++, out += a.dst.pitch)
      *(uint16_t *) out = word[j];
  } else {
    for (int j = 0; j < rows; j++, out += a.dst.pitch)
      *(uint16_t *) out = word[j];
  }
}

template < int R > __global__ void
__launch_bounds__ (STREAM_NT, StreamGeometry < R >::BLOCKS)
gaussian_stream (StreamArgs a)
{
  typedef StreamGeometry < R > G;
  __shared__ StreamShared s;
  StreamHeld h;
  const int tid = threadIdx.x, bx = blockIdx.x, by = blockIdx.y;
  const bool border = stream_border (a.src, bx);
  const int steps = stream_steps < R > (a, by);
  const int needed = stream_needed < R > (a, by);
  const bool interior = stream_interior < R > (a, bx, by, steps);

  stream_fetch < R > (a, h, interior, bx, by, 0, tid);
  for (int i = 0; i < steps; i++) {
    stream_stage < R > (a, s, h, bx, by, i, tid);
    __syncthreads ();
    if (border) {
      stream_fill (a.src, s, bx, tid);
      __syncthreads ();
    }
    if (i + 1 < steps)
      stream_fetch < R > (a, h, interior, bx, by, i + 1, tid);
    stream_rows < R > (a, s, i, needed, tid);
    __syncthreads ();
    if (i >= G::LAG)
      stream_columns < R > (a, s, bx, by, i - G::LAG, tid);
  }
}

/* The kernel's R for radii up to STREAM_MAX_RADIUS, 0 past them */
static int
stream_radius (int rx, int ry)
{
  static const int radii[] = { 3, 6, 9, 12, 16 };
  const int r = rx > ry ? rx : ry;

  for (int i = 0; i < 5; i++)
    if (r <= radii[i])
      return radii[i];
  return 0;
}

/* Whether the fused kernel takes @src at these radii */
static bool
stream_takes (const CfxPlane & src, int rx, int ry)
{
  return stream_radius (rx, ry) && stream_vectors (src);
}

/* @f (std::integral_constant < int, R > ()) for the kernel's R of @r (a
 * stream_radius () answer): one place maps radii to the kernels */
template < typename F > static auto
stream_at_radius (int r, F f)
{
  switch (r) {
    case 3:
      return f (std::integral_constant < int, 3 > ());
    case 6:
      return f (std::integral_constant < int, 6 > ());
    case 9:
      return f (std::integral_constant < int, 9 > ());
    case 12:
      return f (std::integral_constant < int, 12 > ());
    default:
      return f (std::integral_constant < int, 16 > ());
  }
}

/* Output rows a block: runs as short as lets every block be resident at
 * once (one wave of @wave blocks), at least 2 steps */
static int
stream_run (const CfxPlane & p, long wave)
{
  const long strips = (p.width + STREAM_W - 1) / STREAM_W;
  const long runs = wave / strips > 1 ? wave / strips : 1;
  long run = (p.height + runs - 1) / runs;

  run = (run + STREAM_STEP - 1) / STREAM_STEP * STREAM_STEP;
  return run < 2 * STREAM_STEP ? 2 * STREAM_STEP : (int) run;
}

static dim3
stream_grid (const CfxPlane & p, int run)
{
  return dim3 ((p.width + STREAM_W - 1) / STREAM_W,
      (p.height + run - 1) / run);
}

/* The kernel's arguments: taps w[0 .. r] (normalised, in double) as
 * floats, zeros past them (radii past STREAM_MAX_RADIUS are the two
 * passes': callers check stream_takes first) */
static StreamArgs
stream_args (CfxPlane dst, CfxPlane src, int rx, int ry, int run,
    const double *wx, const double *wy)
{
  StreamArgs a = { src, dst, rx, ry, run, {0}, {0} };

  for (int k = 0; k <= rx && k <= STREAM_MAX_RADIUS; k++)
    a.wx[k] = (float) wx[k];
  for (int k = 0; k <= ry && k <= STREAM_MAX_RADIUS; k++)
    a.wy[k] = (float) wy[k];
  return a;
}

#ifdef CFX_BLUR16_EMULATE
template < int R > static void
stream_emulate (const StreamArgs & a)
{
  typedef StreamGeometry < R > G;
  const dim3 grid = stream_grid (a.src, a.run);
  StreamShared *s = (StreamShared *) malloc (sizeof (StreamShared));
  StreamHeld *h = (StreamHeld *) malloc (sizeof (StreamHeld) * STREAM_NT);

  for (unsigned by = 0; by < grid.y; by++)
    for (unsigned bx = 0; bx < grid.x; bx++) {
      const bool border = stream_border (a.src, bx);
      const int steps = stream_steps < R > (a, by);
      const int needed = stream_needed < R > (a, by);
      const bool interior = stream_interior < R > (a, bx, by, steps);

      /* what a block's shared memory may hold before it writes: NaN */
      memset (s, 0xff, sizeof (*s));
      memset (h, 0xff, sizeof (StreamHeld) * STREAM_NT);
      for (int t = 0; t < STREAM_NT; t++)
        stream_fetch < R > (a, h[t], interior, bx, by, 0, t);
      for (int i = 0; i < steps; i++) {
        for (int t = 0; t < STREAM_NT; t++)
          stream_stage < R > (a, *s, h[t], bx, by, i, t);
        if (border)
          for (int t = 0; t < STREAM_NT; t++)
            stream_fill (a.src, *s, bx, t);
        for (int t = 0; t < STREAM_NT; t++) {
          if (i + 1 < steps)
            stream_fetch < R > (a, h[t], interior, bx, by, i + 1, t);
          stream_rows < R > (a, *s, i, needed, t);
        }
        if (i >= G::LAG)
          for (int t = 0; t < STREAM_NT; t++)
            stream_columns < R > (a, *s, bx, by, i - G::LAG, t);
      }
    }
  free (h);
  free (s);
}

/* The fused kernel's phases run on the CPU, block by block and thread by
 * thread (host planes; taps wx[0 .. rx], wy[0 .. ry] as gaussian_taps
 * makes them), in runs of @run rows (a multiple of 16; 0: the run a GPU
 * of @wave resident blocks would take). Returns 0 for the planes and
 * radii the kernel does not take. */
extern "C" int
cfx_blur16_fused_emulate (CfxPlane dst, CfxPlane src, int rx, int ry,
    const double *wx, const double *wy, int run, long wave)
{
  StreamArgs a;

  if (!stream_takes (src, rx, ry))
    return 0;
  a = stream_args (dst, src, rx, ry, run > 0 ? run : stream_run (src, wave),
      wx, wy);
  return stream_at_radius (stream_radius (rx, ry), [&](auto r) {
        stream_emulate < decltype (r)::value > (a);
        return 1;
      });
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

/* 1: radii up to STREAM_MAX_RADIUS take the fused kernel (the
 * elements); 0: the two tiled passes (the benchmark's comparison) */
static int use_fused = 1;

extern "C" void
cfx_blur16_use_fused (int on)
{
  __atomic_store_n (&use_fused, on ? 1 : 0, __ATOMIC_RELAXED);
}

/* The fused Gaussian of one sub-channel, at the kernel of its radii */
template < int R > static cudaError_t
launch_stream_at (StreamArgs a, cudaStream_t stream)
{
  /* runs as short as one wave of this kernel allows */
  static int cache[CFX_WAVE_MAX_DEVICES];
  long wave;
  cudaError_t err = cfx_wave_blocks (gaussian_stream < R >, STREAM_NT,
      cache, &wave);

  if (err != cudaSuccess)
    return err;
  a.run = stream_run (a.src, wave);
  return cfx_launch (gaussian_stream < R >, stream_grid (a.src, a.run),
      dim3 (STREAM_NT), 0, stream, a);
}

/* w[0 .. r] of a Gaussian of @sigma, normalised over its 2 r + 1 taps,
 * on the host (gaussian_taps' formula) */
static void
gaussian_taps_host (double sigma, int r, double *w)
{
  double total = 0.0;

  for (int k = 0; k <= r; k++) {
    w[k] = gaussian_weight (k, r, sigma);
    total += k ? 2.0 * w[k] : w[k];
  }
  for (int k = 0; k <= r; k++)
    w[k] /= total;
}

/* The fused kernel takes its taps as parameters: one launch a frame */
static cudaError_t
launch_stream (const CfxBlur16 * s, int rx, int ry, cudaStream_t stream)
{
  double wx[STREAM_MAX_RADIUS + 1], wy[STREAM_MAX_RADIUS + 1];
  StreamArgs a;

  gaussian_taps_host (s->sigma_x, rx, wx);
  gaussian_taps_host (s->sigma_y, ry, wy);
  a = stream_args (s->dst, s->src, rx, ry, 0, wx, wy);
  return stream_at_radius (stream_radius (rx, ry), [&](auto r) {
        return launch_stream_at < decltype (r)::value > (a, stream);
      });
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

  if (stream_takes (s->src, rx, ry)
      && __atomic_load_n (&use_fused, __ATOMIC_RELAXED))
    return launch_stream (s, rx, ry, stream);
  err = cfx_launch (gaussian_taps, dim3 (2), dim3 (256), 0, stream, wx, rx,
      s->sigma_x, wy, ry, s->sigma_y);
  if (err != cudaSuccess)
    return err;
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
