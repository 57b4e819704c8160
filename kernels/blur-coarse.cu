/* Decimated Gaussian: time independent of sigma.
 *
 * Per axis with sigma > 8, f = the largest power of two with 4 f <= sigma
 * (sigma / f in [4, 8)); axes with sigma <= 8 keep f = 1 and are blurred
 * exactly. Three kernels, each taking every sub-channel of the call:
 *   rows      one coarse row and 128 of its columns a block: each thread
 *             decimates one coarse sample of the window (128 + 2 r):
 *             S = the mean of its f_x x f_y block of the mirrored channel,
 *             Mx, My = the block's first moments along x and y (offsets
 *             from the block centre in coarse units), eight fine rows'
 *             loads in flight at once (blocks that reach past the row's
 *             ends too: aligned words, bytes picked by permutes), into
 *             shared memory; then
 *             A = g * S + g' * Mx and B = g * My along x (g: sampled
 *             Gaussian of sigma_c, g' its derivative; taps computed per
 *             block), one output a thread. The moment terms are the
 *             first-order Taylor correction for where inside its block
 *             each sample sits; without them, block averages lose the
 *             sub-block position of edges (errors up to 5 on stripes at
 *             the block period), with them below 0.6.
 *   cols      tiles of 32 x 16 coarse samples: their A and B rows (tile
 *             and 2 r halo rows) into shared memory in one go, D = g * A +
 *             g' * B along y, 2 outputs a thread; D is clamped to 0 ..
 *             255 (the Gaussian never leaves it) and stored + 1024.
 *   upsample  cubic B-spline of D at every output pixel: vertically per
 *             tile row (a warp a row) into shared memory, then along the
 *             row by forward
 *             differences (3 adds a pixel), fp16 rounding of 1024 + v
 *             (its low byte is the result), 16-byte stores; sharpening
 *             (blur.h) reads the 16 source bytes a thread writes over
 *             again and takes their unsharp mask first.
 * sigma_c^2 = (sigma^2 - (f^2 - 1) / 12) / f^2 - 1 / 3: the block mean,
 * the coarse Gaussian and the B-spline add up to the wanted variance.
 * Every kernel has ~1 round trip to memory on its critical path (no
 * dependent load chains) and hundreds to thousands of blocks at 4K
 * (sigma 50: rows 313 x 4, cols 16 x 18, upsample 8 x 270). Measured on
 * an H100 (4K GRAY8, sigma 50): 40 us in all, about 7x the floor; the
 * kernels are latency-bound (DRAM under 10% busy).
 *
 * Floor: the channel is read once (rows) and written once (upsample):
 * 2 * w * h bytes, as for a copy; the coarse images are 1 / (f_x f_y) of
 * that (A, B, D: three floats a coarse sample) and stay in L2. */
#include "blur-internal.h"

#include <cuda_fp16.h>
#include <limits.h>
#include <string.h>

#define COARSE_MAX_R 24

struct AxisLite
{
  int f, log2f, r, o, n;
  float sc;
  float inv2f;                  /* 1 / (2 f) */
};

struct CoarseSub
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, src_step, dst_pitch, dst_step, width, height;
  int src_vec, dst_vec;         /* 16-byte aligned data and pitch, step 1 */
  int amount;                   /* CFX_BLUR_NO_SHARPEN, or the unsharp mask's */
  AxisLite ax, ay;
  int cp;                       /* floats per coarse row */
  float *A, *B, *D;
  /* first block and blocks per grid row in each kernel */
  int rows0, rows_w, cols0, cols_w, up0, up_w;
};

struct CoarseParams
{
  int n;
  CoarseSub s[CFX_BLUR_MAX_SUBS];
};

/* sum of the 4 bytes of w, and sum of byte b * (j0 + b) */
__device__ __forceinline__ void
word_sums (uint32_t w, unsigned j0, unsigned &s, unsigned &sj)
{
  unsigned ws = __dp4a (w, 0x01010101u, 0u);
  s += ws;
  sj += __dp4a (w, 0x03020100u, 0u) + j0 * ws;
}

/* ---- taps ------------------------------------------------------------- */

#define COARSE_TAPS (2 * COARSE_MAX_R + 1 + 7)  /* zero up to a multiple of 8 */

/* g (and g' if @d) of sigma sc, radius r, into w[0 .. COARSE_TAPS): one
 * warp, lane l has taps l and l + 32 */
__device__ __forceinline__ void
make_taps (float sc, int r, float *g, float *gd, int lane)
{
  float e[2], sum;
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const int k = lane + 32 * h - r;
    e[h] = (k <= r) ? (r ? __expf (-(float) (k * k) / (2.0f * sc * sc)) :
        1.0f) : 0.0f;
  }
  sum = e[0] + e[1];
#pragma unroll
  for (int m = 16; m >= 1; m >>= 1)
    sum += __shfl_xor_sync (0xffffffffu, sum, m);
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const int i = lane + 32 * h, k = i - r;
    if (i < COARSE_TAPS) {
      g[i] = e[h] / sum;
      gd[i] = r ? -(float) k / (sc * sc) * (e[h] / sum) : 0.0f;
    }
  }
}

/* ---- rows: decimate, then A = g * S + g' * Mx, B = g * My along x ------ */

#define ROW_OUT 128             /* A and B columns a block */
/* threads: one a coarse sample of the outputs' window (ROW_OUT + 2 r) */
#define ROW_THREADS (ROW_OUT + 2 * COARSE_MAX_R + 16)

/* W words (4 W bytes) of a row, one load */
template < int W >
__device__ __forceinline__ void
chunk_load (const uint8_t * p, unsigned (&w)[W])
{
  if constexpr (W == 1) {
    w[0] = __ldg ((const unsigned *) p);
  } else if constexpr (W == 2) {
    uint2 v = __ldg ((const uint2 *) p);
    w[0] = v.x;
    w[1] = v.y;
  } else {
    uint4 v = __ldg ((const uint4 *) p);
    w[0] = v.x;
    w[1] = v.y;
    w[2] = v.z;
    w[3] = v.w;
  }
}

/* Sums of a block inside the row and aligned (x0 a multiple of fx >= 4;
 * data and pitch 16-byte aligned): one load of min (fx, 16) bytes a row,
 * the loads of eight rows issued before any is used, so that a thread
 * waits for memory once per eight rows, not once a row */
template < int W >
__device__ __forceinline__ void
block_sums_fast (const CoarseSub & s, int x0, int y0, unsigned &sum,
    unsigned &sj, unsigned &si)
{
  const int fx = s.ax.f, fy = s.ay.f;

#pragma unroll 1
  for (int c = 0; c < fx; c += 4 * W) {
#pragma unroll 1
    for (int i = 0; i < fy; i += 8) {
      unsigned w[8][W];
#pragma unroll
      for (int k = 0; k < 8; k++)
        if (i + k < fy)
          chunk_load < W > (s.src + (unsigned) (mirror (y0 + i + k,
                      s.height) * s.src_pitch + x0 + c), w[k]);
#pragma unroll
      for (int k = 0; k < 8; k++)
        if (i + k < fy) {
          unsigned rs = 0, rj = 0;
#pragma unroll
          for (int q = 0; q < W; q++)
            word_sums (w[k][q], c + 4 * q, rs, rj);
          sum += rs;
          sj += rj;
          si += rs * (i + k);
        }
    }
  }
}

/* Sums of a block that reaches past a side of the row (data and pitch
 * 16-byte aligned, step 1, fx = FX, 4 or 8): its mirrored columns are one
 * run of at most FX columns (the mirror is continuous and never
 * stretches) starting at column lo, so FX / 4 + 1 aligned words of each
 * row hold them. The loads of eight rows are issued together, as on the
 * fast path; two funnel shifts line the run up in two words and each
 * column's byte is picked with a byte permute (positions fixed per
 * thread, no indexing into registers). Without this the blocks at the two
 * ends of each row waited for memory once per row and held their thread
 * blocks back. */
template < int FX >
__device__ __forceinline__ void
block_sums_edge (const CoarseSub & s, int x0, int y0, unsigned &sum,
    unsigned &sj, unsigned &si)
{
  constexpr int NW = FX / 4 + 1;
  const int fy = s.ay.f, last_word = (s.width - 1) >> 2;
  unsigned pos[FX];
  int lo = INT_MAX;

#pragma unroll
  for (int j = 0; j < FX; j++) {
    pos[j] = mirror (x0 + j, s.width);
    lo = min (lo, (int) pos[j]);
  }
#pragma unroll
  for (int j = 0; j < FX; j++)
    pos[j] -= lo;               /* 0 .. FX - 1: the byte within the run */
  const int first = lo >> 2, shift = 8 * (lo & 3);

#pragma unroll 1
  for (int i = 0; i < fy; i += 8) {
    unsigned w[8][NW];
#pragma unroll
    for (int k = 0; k < 8; k++)
      if (i + k < fy) {
        const unsigned *row = (const unsigned *) (s.src + (unsigned)
            (mirror (y0 + i + k, s.height) * s.src_pitch));
#pragma unroll
        for (int q = 0; q < NW; q++)
          w[k][q] = __ldg (row + min (first + q, last_word));
      }
#pragma unroll
    for (int k = 0; k < 8; k++)
      if (i + k < fy) {
        const unsigned r0 = __funnelshift_r (w[k][0], w[k][1], shift);
        const unsigned r1 = FX > 4 ? __funnelshift_r (w[k][1],
            w[k][NW - 1], shift) : r0;
        unsigned rs = 0, rj = 0;
#pragma unroll
        for (int j = 0; j < FX; j++) {
          const unsigned v = __byte_perm (r0, r1, pos[j]) & 0xffu;
          rs += v;
          rj += v * j;
        }
        sum += rs;
        sj += rj;
        si += rs * (i + k);
      }
  }
}

/* Sums of a block of fx >= 16 columns that reaches past a side of the
 * row (data and pitch 16-byte aligned, step 1, the mirror reflecting
 * once: the row at least as wide as the block's overhang). Its columns
 * are at most three runs of consecutive source columns (the part inside
 * the row, the part reflected at column 0, the part reflected at the
 * last), and along a run column j of the block is a + sgn col. So a
 * run's aligned words, their ends masked, give sum v and sum v col with
 * two dp4a a word, and sum v j = a sum v + sgn sum v col (unsigned
 * arithmetic: the wrapped terms cancel). The loads of four rows by four
 * words are issued together (eight rows spilled registers). Byte by byte (block_sums_any) these blocks
 * took 113 of the 130 us of a 4K GRAY8 blur at sigma 200 on the H200:
 * every block of the row pass has some, and waited for them. */
#define RUN_ROWS 4
#define RUN_WORDS 4
__device__ __forceinline__ bool
block_runs (const CoarseSub & s, int x0, int *p, int *q, unsigned *a,
    int *sgn)
{
  const int w = s.width, x1 = x0 + s.ax.f - 1;

  if (w < 2 || -x0 > w - 1 || 2 * w - 2 - x1 < 0)
    return false;
  /* inside, reflected at 0, reflected at w - 1 (empty runs: p > q) */
  p[0] = max (x0, 0);
  q[0] = min (x1, w - 1);
  a[0] = (unsigned) -x0;
  sgn[0] = 1;
  p[1] = max (1, -x1);
  q[1] = x0 < 0 ? -x0 : -1;
  a[1] = (unsigned) -x0;
  sgn[1] = -1;
  p[2] = 2 * w - 2 - x1;
  q[2] = x1 >= w ? min (w - 2, 2 * w - 2 - x0) : p[2] - 1;
  a[2] = (unsigned) (2 * w - 2 - x0);
  sgn[2] = -1;
  return true;
}

__device__ __forceinline__ void
block_sums_runs (const CoarseSub & s, const int *p, const int *q,
    const unsigned *a, const int *sgn, int y0, unsigned &sum, unsigned &sj,
    unsigned &si)
{
  const int fy = s.ay.f;

#pragma unroll
  for (int r = 0; r < 3; r++) {
    if (p[r] > q[r])
      continue;
    const int k0 = p[r] >> 2, k1 = q[r] >> 2;
    unsigned rs = 0, rc = 0, ri = 0;

#pragma unroll 1
    for (int i = 0; i < fy; i += RUN_ROWS) {
#pragma unroll 1
      for (int k = k0; k <= k1; k += RUN_WORDS) {
        unsigned wd[RUN_ROWS][RUN_WORDS];
#pragma unroll
        for (int m = 0; m < RUN_ROWS; m++) {
          const unsigned *row = (const unsigned *) (s.src + (unsigned)
              (mirror (y0 + i + m, s.height) * s.src_pitch));
#pragma unroll
          for (int n = 0; n < RUN_WORDS; n++)
            wd[m][n] = i + m < fy && k + n <= k1 ? __ldg (row + k + n) : 0u;
        }
#pragma unroll
        for (int n = 0; n < RUN_WORDS; n++) {
          /* the run's bytes of word k + n */
          const int c = 4 * (k + n), lo = max (p[r] - c, 0),
              hi = min (q[r] - c, 3);
          const unsigned mask = hi < lo ? 0u : (0xffffffffu << (8 * lo)) &
              (0xffffffffu >> (8 * (3 - hi)));
#pragma unroll
          for (int m = 0; m < RUN_ROWS; m++) {
            const unsigned v = wd[m][n] & mask;
            const unsigned vs = __dp4a (v, 0x01010101u, 0u);
            rs += vs;
            rc += __dp4a (v, 0x03020100u, 0u) + (unsigned) c *vs;
            ri += vs * (unsigned) (i + m);
          }
        }
      }
    }
    sum += rs;
    sj += a[r] * rs + (sgn[r] > 0 ? rc : 0u - rc);
    si += ri;
  }
}

/* Sums of any block (mirrored columns, unaligned data, any step): byte
 * loads, ANY_ROWS rows x 8 columns of them in flight together */
#define ANY_ROWS 2
__device__ __forceinline__ void
block_sums_any (const CoarseSub & s, int x0, int y0, unsigned &sum,
    unsigned &sj, unsigned &si)
{
  const int fx = s.ax.f, fy = s.ay.f;

#pragma unroll 1
  for (int i = 0; i < fy; i += ANY_ROWS) {
#pragma unroll 1
    for (int c = 0; c < fx; c += 8) {
      /* offsets fit 32 bits: frames are far below 4 GB */
      unsigned row[ANY_ROWS], col[8], v[ANY_ROWS][8];
#pragma unroll
      for (int r = 0; r < ANY_ROWS; r++)
        row[r] = mirror (min (y0 + i + r, y0 + fy - 1), s.height) *
            s.src_pitch;
#pragma unroll
      for (int q = 0; q < 8; q++)
        col[q] = mirror (min (x0 + c + q, x0 + fx - 1), s.width) *
            s.src_step;
#pragma unroll
      for (int r = 0; r < ANY_ROWS; r++)
#pragma unroll
        for (int q = 0; q < 8; q++)
          v[r][q] = i + r < fy && c + q < fx ?
              __ldg (s.src + (row[r] + col[q])) : 0u;
#pragma unroll
      for (int r = 0; r < ANY_ROWS; r++)
#pragma unroll
        for (int q = 0; q < 8; q++) {
          sum += v[r][q];
          sj += v[r][q] * (c + q);
          si += v[r][q] * (i + r);
        }
    }
  }
}

/* Coarse sample (mx, my): the mean of its f_x x f_y block of the mirrored
 * channel and the block's first moments along x and y (offsets from the
 * block centre in coarse units) */
__device__ __forceinline__ void
decimate_one (const CoarseSub & s, int mx, int my, float &S, float &MX,
    float &MY)
{
  const int fx = s.ax.f, fy = s.ay.f;
  const int x0 = s.ax.o + mx * fx, y0 = s.ay.o + my * fy;
  /* sums of samples, of sample * j, of sample * i: below 2^30 for blocks
   * up to 128 x 128 */
  unsigned sum = 0, sj = 0, si = 0;

  /* x0 is a multiple of fx: a block of fx >= 4 samples is aligned */
  if (s.src_vec && fx >= 4 && x0 >= 0 && x0 + fx <= s.width) {
    if (fx == 4)
      block_sums_fast < 1 > (s, x0, y0, sum, sj, si);
    else if (fx == 8)
      block_sums_fast < 2 > (s, x0, y0, sum, sj, si);
    else
      block_sums_fast < 4 > (s, x0, y0, sum, sj, si);
  } else if (s.src_vec && fx == 4) {
    block_sums_edge < 4 > (s, x0, y0, sum, sj, si);
  } else if (s.src_vec && fx == 8) {
    block_sums_edge < 8 > (s, x0, y0, sum, sj, si);
  } else {
    int p[3], q[3], sgn[3];
    unsigned a[3];

    if (s.src_vec && fx >= 16 && block_runs (s, x0, p, q, a, sgn))
      block_sums_runs (s, p, q, a, sgn, y0, sum, sj, si);
    else
      block_sums_any (s, x0, y0, sum, sj, si);
  }

  /* moment in coarse units: sum v (j - (f - 1) / 2) / f, over f_x f_y */
  const float inv = 1.0f / (float) (fx * fy);
  const long long mxn = 2 * (long long) sj - (long long) (fx - 1) * sum;
  const long long myn = 2 * (long long) si - (long long) (fy - 1) * sum;

  S = (float) sum *inv;
  MX = (float) mxn *(inv / (2.0f * fx));
  MY = (float) myn *(inv / (2.0f * fy));
}

/* acc[i] += sum over k < kp of w[k] * in[k + i], i < N: taps in blocks
 * of 8, a register window of N + 8 inputs (read at @stride) */
template < int N >
__device__ __forceinline__ void
conv (float acc[N], const float *in, int stride, const float *w, int kp)
{
  float win[N + 8];
#pragma unroll
  for (int i = 0; i < N; i++)
    win[i] = in[i * stride];
  for (int kb = 0; kb < kp; kb += 8) {
#pragma unroll
    for (int i = 0; i < 8; i++)
      win[N + i] = in[(kb + N + i) * stride];
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const float wk = w[kb + k];
#pragma unroll
      for (int i = 0; i < N; i++)
        acc[i] += wk * win[k + i];
    }
#pragma unroll
    for (int i = 0; i < N; i++)
      win[i] = win[i + 8];
  }
}

/* outputs a thread: along the rows one, so that 128 threads share the
 * convolutions after the decimation (with 4, one warp did them all while
 * the block's other five waited: the kernel was latency-bound) */
#define ROW_TASK 1

/* One coarse row my, A and B columns rx + m0 .. rx + m0 + ROW_OUT - 1
 * (m0 = ROW_OUT bx): the coarse samples m0 .. m0 + ROW_OUT + 2 rx - 1 into
 * shared memory (one a thread, all their fine rows in flight), then the
 * two horizontal convolutions, ROW_TASK outputs a thread */
__global__ void __launch_bounds__ (ROW_THREADS, 5)
coarse_rows (const CoarseParams p)
{
  __shared__ float taps[2][COARSE_TAPS];        /* gx, gdx */
  /* S, Mx, My of the window, zero past it (the last task's taps are
   * zero there) */
  __shared__ float win[3][ROW_THREADS + 8];
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].rows0)
      c = i;
  const CoarseSub & s = p.s[c];
  const int b = blockIdx.x - s.rows0, my = b / s.rows_w;
  const int m0 = (b - my * s.rows_w) * ROW_OUT;
  const int rx = s.ax.r, tid = threadIdx.x;
  const int kpx = (2 * rx + 1 + 7) & ~7;

  if (tid < 32)
    make_taps (s.ax.sc, rx, taps[0], taps[1], tid);
  {
    float S = 0.0f, MX = 0.0f, MY = 0.0f;
    if (tid < ROW_OUT + 2 * rx && m0 + tid < s.ax.n)
      decimate_one (s, m0 + tid, my, S, MX, MY);
    win[0][tid] = S;
    win[1][tid] = MX;
    win[2][tid] = MY;
    if (tid < 8)
      win[0][ROW_THREADS + tid] = win[1][ROW_THREADS + tid] =
          win[2][ROW_THREADS + tid] = 0.0f;
  }
  __syncthreads ();

  /* outputs m0 + cc .. + ROW_TASK - 1 (A column rx + that) */
  const int cc = ROW_TASK * tid;
  if (cc < ROW_OUT && rx + m0 + cc < s.ax.n - rx) {
    float a[ROW_TASK], bb[ROW_TASK];
#pragma unroll
    for (int i = 0; i < ROW_TASK; i++)
      a[i] = bb[i] = 0.0f;
    conv < ROW_TASK > (a, &win[0][cc], 1, taps[0], kpx);
    if (s.ax.f > 1)
      conv < ROW_TASK > (a, &win[1][cc], 1, taps[1], kpx);
    if (s.ay.f > 1)
      conv < ROW_TASK > (bb, &win[2][cc], 1, taps[0], kpx);
    const size_t at = (size_t) my * s.cp + rx + m0 + cc;
#pragma unroll
    for (int i = 0; i < ROW_TASK; i++)
      if (rx + m0 + cc + i < s.ax.n - rx) {
        s.A[at + i] = a[i];
        s.B[at + i] = bb[i];
      }
  }
}

/* ---- columns: D = g * A + g' * B along y -------------------------------- */

#define COL_X 32
#define COL_Y 16
/* outputs a thread down a column: 2, so that a tile has 256 threads (a
 * 4K frame at sigma 50 has only ~300 tiles) */
#define COL_TASK 2
#define COL_THREADS (COL_X * COL_Y / COL_TASK)
#define COL_ROWS (COL_Y + 2 * COARSE_MAX_R + 8)

/* D of a tile of COL_X x COL_Y coarse samples: the rows of A and B it
 * needs into shared memory (all loads in flight together), then COL_TASK
 * outputs down a column a thread (a register window, as along the rows).
 * D is clamped to 0 .. 255 (the Gaussian never leaves it) and stored
 * + 1024. */
__global__ void __launch_bounds__ (COL_THREADS)
coarse_cols (const CoarseParams p)
{
  __shared__ float taps[2][COARSE_TAPS];        /* gy, gdy */
  __shared__ float a_s[COL_ROWS][COL_X], b_s[COL_ROWS][COL_X];
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].cols0)
      c = i;
  const CoarseSub & s = p.s[c];
  const int b = blockIdx.x - s.cols0, by = b / s.cols_w, bx = b - by * s.cols_w;
  const int rx = s.ax.r, ry = s.ay.r, tid = threadIdx.x;
  const int mx0 = rx + bx * COL_X, my0 = ry + by * COL_Y;
  const int rows = COL_Y + 2 * ry, kpy = (2 * ry + 1 + 7) & ~7;
  const bool do_b = s.ay.f > 1;

  if (tid < 32)
    make_taps (s.ay.sc, ry, taps[0], taps[1], tid);
  /* rows my0 - ry .. my0 + COL_Y + ry - 1 (zero past the grid and past
   * the tap window) */
#pragma unroll
  for (int i = tid; i < COL_ROWS * COL_X; i += COL_THREADS) {
    const int rr = i / COL_X, cc = i % COL_X;
    const int my = my0 - ry + rr, mx = mx0 + cc;
    const bool in = rr < rows && my < s.ay.n && mx < s.ax.n - rx;
    const size_t at = (size_t) my * s.cp + mx;
    a_s[rr][cc] = in ? __ldg (s.A + at) : 0.0f;
    b_s[rr][cc] = in && do_b ? __ldg (s.B + at) : 0.0f;
  }
  __syncthreads ();

  const int cc = tid % COL_X, r0 = (tid / COL_X) * COL_TASK;
  const int mx = mx0 + cc;
  float d[COL_TASK];
#pragma unroll
  for (int i = 0; i < COL_TASK; i++)
    d[i] = 0.0f;
  conv < COL_TASK > (d, &a_s[r0][cc], COL_X, taps[0], kpy);
  if (do_b)
    conv < COL_TASK > (d, &b_s[r0][cc], COL_X, taps[1], kpy);
  if (mx >= s.ax.n - rx)
    return;
#pragma unroll
  for (int i = 0; i < COL_TASK; i++) {
    const int my = my0 + r0 + i;
    if (my < s.ay.n - ry)
      s.D[(size_t) my * s.cp + mx] = fminf (fmaxf (d[i], 0.0f), 255.0f) +
          1024.0f;
  }
}

/* ---- upsample ----------------------------------------------------------- */

#define U_ROWS 8
#define U_LANES 32              /* threads per row, 16 pixels each */
#define U_SPAN (U_LANES * 16)
#define U_COLS (U_SPAN + 8)     /* coarse columns a tile can need (f = 1) */

/* Coarse coordinate of fine sample x: u = (x - o - (f - 1) / 2) / f, as
 * cell m0 = floor (u) and phase t = u - m0 (exact: multiples of 1 / 2f) */
__device__ __forceinline__ void
coarse_pos (const AxisLite & a, int x, int &m0, float &t)
{
  const int num = 2 * (x - a.o) - (a.f - 1);    /* > 0 */
  m0 = num >> (a.log2f + 1);
  /* times 1 / 2f, a power of two: exact, as the division was */
  t = (float) (num - (m0 << (a.log2f + 1))) * a.inv2f;
}

/* cubic B-spline weights of the samples at m0 - 1 .. m0 + 2 */
__device__ __forceinline__ void
bspline (float t, float w[4])
{
  const float t2 = t * t, t3 = t2 * t, s = 1.0f - t;
  w[0] = s * s * s * (1.0f / 6.0f);
  w[1] = (3.0f * t3 - 6.0f * t2 + 4.0f) * (1.0f / 6.0f);
  w[2] = (-3.0f * t3 + 3.0f * t2 + 3.0f * t + 1.0f) * (1.0f / 6.0f);
  w[3] = t3 * (1.0f / 6.0f);
}

__global__ void __launch_bounds__ (U_ROWS * U_LANES)
coarse_upsample (const CoarseParams p)
{
  /* vertically interpolated coarse rows of the tile's output rows */
  __shared__ float rows_s[U_ROWS][U_COLS];
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].up0)
      c = i;
  const CoarseSub & s = p.s[c];
  const int b = blockIdx.x - s.up0, by = b / s.up_w, bx = b - by * s.up_w;
  const AxisLite & ax = s.ax, &ay = s.ay;
  const int width = s.width, height = s.height;
  const int x_tile = bx * U_SPAN;
  const int x_last = min (x_tile + U_SPAN, width) - 1;
  int lo, hi, m0;
  float t;

  if (ax.f == 1) {
    lo = x_tile - ax.o;
    hi = x_last - ax.o;
  } else {
    coarse_pos (ax, x_tile, lo, t);
    coarse_pos (ax, x_last, hi, t);
    lo -= 1;
    hi += 2;
  }
  const int ncols = hi - lo + 1;

  /* a warp a row: its vertical position and weights once, then the
   * row's coarse columns a lane at a time (read-only loads: the
   * iterations' loads may go out together) */
  {
    const int rr = threadIdx.x / U_LANES, y = by * U_ROWS + rr;
    const bool in = y < height;
    float w[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    int top = 0;                /* first coarse row read */

    if (in && ay.f == 1) {
      top = y - ay.o;
    } else if (in) {
      coarse_pos (ay, y, m0, t);
      bspline (t, w);
      top = m0 - 1;
    }
    const float *base = s.D + (size_t) top * s.cp + lo;
#pragma unroll 4
    for (int cc = threadIdx.x & (U_LANES - 1); cc < ncols; cc += U_LANES) {
      float v = 1024.0f;

      if (in && ay.f == 1) {
        v = __ldg (base + cc);
      } else if (in) {
        v = 0.0f;
#pragma unroll
        for (int k = 0; k < 4; k++)
          v += w[k] * __ldg (base + (size_t) k * s.cp + cc);
      }
      rows_s[rr][cc] = v;
    }
  }
  __syncthreads ();

  const int y = by * U_ROWS + threadIdx.x / U_LANES;
  const int x0 = x_tile + 16 * (threadIdx.x & (U_LANES - 1));
  if (y >= height || x0 >= width)
    return;

  const float *rv = rows_s[threadIdx.x / U_LANES];
  float v[16];

  if (ax.f == 1) {
#pragma unroll
    for (int i = 0; i < 16; i++)
      v[i] = rv[min (x0 + i, x_last) - ax.o - lo];
  } else {
    /* per coarse cell the cubic of its 4 samples, stepped by forward
     * differences: t advances by h = 1 / f exactly */
    const float h = 1.0f / (float) ax.f;
    float f0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    int cell;

    coarse_pos (ax, x0, cell, t);
    cell -= lo + 1;             /* index of the cell's sample m0 - 1 */
#pragma unroll
    for (int i = 0; i < 16; i++) {
      if (i == 0 || t >= 1.0f) {
        if (i > 0) {
          t -= 1.0f;
          cell++;
        }
        const float v0 = rv[cell], v1 = rv[cell + 1], v2 = rv[cell + 2],
            v3 = rv[cell + 3];
        const float ca = (v0 + 4.0f * v1 + v2) * (1.0f / 6.0f);
        const float cb = (v2 - v0) * 0.5f;
        const float cc = (v0 - 2.0f * v1 + v2) * 0.5f;
        const float cd = (3.0f * (v1 - v2) + v3 - v0) * (1.0f / 6.0f);
        f0 = ca + t * (cb + t * (cc + t * cd));
        d1 = h * (cb + cc * (2.0f * t + h) + cd * (3.0f * t * t + 3.0f * t *
                h + h * h));
        d2 = h * h * (2.0f * cc + cd * (6.0f * t + 6.0f * h));
        d3 = 6.0f * cd * h * h * h;
      }
      v[i] = f0;
      f0 += d1;
      d1 += d2;
      d2 += d3;
      t += h;
    }
  }

  /* fp16 of 1024 + value rounds to the integer the low byte holds */
  uint32_t q[4];
#pragma unroll
  for (int k = 0; k < 4; k++)
    q[k] = __byte_perm (pack_half2 (v[4 * k], v[4 * k + 1]),
        pack_half2 (v[4 * k + 2], v[4 * k + 3]), 0x6420);

  uint4 word = make_uint4 (q[0], q[1], q[2], q[3]);
  if (s.amount != CFX_BLUR_NO_SHARPEN)
    word = sharpen_bytes16 (word, s.src + (size_t) y * s.src_pitch, x0,
        width, s.src_step, s.src_vec, s.amount);
  q[0] = word.x;
  q[1] = word.y;
  q[2] = word.z;
  q[3] = word.w;

  uint8_t *out = s.dst + (size_t) y * s.dst_pitch;
  if (s.dst_vec && x0 + 16 <= width) {
    *(uint4 *) (out + x0) = word;
  } else {
#pragma unroll
    for (int i = 0; i < 16; i++)
      if (x0 + i < width)
        out[(size_t) (x0 + i) * s.dst_step] = (uint8_t) (q[i / 4] >> (8 *
                (i % 4)));
  }
}

/* ---- host --------------------------------------------------------------- */

extern "C" int
cfx_blur_coarse_pitch (const CfxBlurAxis * ax)
{
  /* rows of 128-byte multiples */
  return (ax->n + 31) & ~31;
}

extern "C" size_t
cfx_blur_coarse_bytes (const CfxBlurAxis * ax, const CfxBlurAxis * ay)
{
  /* A, B, D */
  return 3 * sizeof (float) * (size_t) cfx_blur_coarse_pitch (ax) * ay->n;
}

static AxisLite
lite (const CfxBlurAxis * a)
{
  AxisLite l = { a->f, a->log2f, a->r, a->o, a->n, (float) a->sc,
    0.5f / (float) a->f
  };
  return l;
}

extern "C" cudaError_t
cfx_blur_coarse_launch (const CfxBlurCoarse * subs, int n,
    cudaStream_t stream)
{
  CoarseParams p;
  int i, rows = 0, cols = 0, up = 0;
  cudaError_t err;

  if (n <= 0 || n > CFX_BLUR_MAX_SUBS)
    return cudaErrorInvalidValue;
  memset (&p, 0, sizeof (p));
  for (i = 0; i < n; i++) {
    const CfxBlurCoarse *x = &subs[i];
    CoarseSub *s = &p.s[p.n];
    const int cp = cfx_blur_coarse_pitch (&x->ax);
    const size_t plane = (size_t) cp * x->ay.n;

    if (x->src.width <= 0 || x->src.height <= 0)
      continue;
    if (x->ax.r > COARSE_MAX_R || x->ay.r > COARSE_MAX_R)
      return cudaErrorInvalidValue;
    s->src = x->src.data;
    s->dst = x->dst.data;
    s->src_pitch = x->src.pitch;
    s->src_step = x->src.step;
    s->dst_pitch = x->dst.pitch;
    s->dst_step = x->dst.step;
    s->width = x->src.width;
    s->height = x->src.height;
    s->src_vec = cfx_aligned (x->src.data, x->src.pitch, x->src.step, 16);
    s->dst_vec = cfx_aligned (x->dst.data, x->dst.pitch, x->dst.step, 16);
    s->amount = x->amount;
    s->ax = lite (&x->ax);
    s->ay = lite (&x->ay);
    s->cp = cp;
    s->A = (float *) x->scratch;
    s->B = s->A + plane;
    s->D = s->B + plane;
    /* A and B: every coarse row, columns rx .. n_x - rx - 1; D: rows ry ..
     * n_y - ry - 1 of those */
    s->rows0 = rows;
    s->rows_w = (x->ax.n - 2 * x->ax.r + ROW_OUT - 1) / ROW_OUT;
    rows += s->rows_w * x->ay.n;
    s->cols0 = cols;
    s->cols_w = (x->ax.n - 2 * x->ax.r + COL_X - 1) / COL_X;
    cols += s->cols_w * ((x->ay.n - 2 * x->ay.r + COL_Y - 1) / COL_Y);
    s->up0 = up;
    s->up_w = (s->width + U_SPAN - 1) / U_SPAN;
    up += s->up_w * ((s->height + U_ROWS - 1) / U_ROWS);
    p.n++;
  }
  if (!p.n)
    return cudaSuccess;

  err = cfx_launch (coarse_rows, rows, ROW_THREADS, 0, stream, p);
  if (err == cudaSuccess)
    err = cfx_launch (coarse_cols, cols, COL_THREADS, 0, stream, p);
  if (err == cudaSuccess)
    err = cfx_launch (coarse_upsample, up, U_ROWS * U_LANES, 0, stream, p);
  return err;
}
