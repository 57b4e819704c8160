/* Decimated Gaussian: time independent of sigma.
 *
 * Per axis with sigma > 8, f = the largest power of two with 4 f <= sigma
 * (sigma / f in [4, 8)); axes with sigma <= 8 keep f = 1 and are blurred
 * exactly. Three kernels, each taking every sub-channel of the call:
 *   decimate  coarse sample (mx, my) = mean of its f_x x f_y block of the
 *             mirrored channel, and the block's first moments along x and
 *             y (offsets from the block centre in coarse units): one pass
 *             over the channel, all rows of a block loaded at once.
 *   blur      on tiles of 32 x 32 coarse samples: A = g * S + g' * Mx and
 *             B = g * My along x into shared memory, then D = g * A + g' *
 *             B along y (g: sampled Gaussian of sigma_c, g' its
 *             derivative; taps computed per block). The moment terms are
 *             the first-order Taylor correction for where inside its block
 *             each sample sits; without them, block averages lose the
 *             sub-block position of edges (errors up to 5 on stripes at
 *             the block period), with them below 0.6. D is clamped to 0 ..
 *             255 (the Gaussian never leaves it) and stored + 1024.
 *   upsample  cubic B-spline of D at every output pixel: vertically per
 *             tile row into shared memory, then along the row by forward
 *             differences (3 adds a pixel), fp16 rounding of 1024 + v
 *             (its low byte is the result), 16-byte stores.
 * sigma_c^2 = (sigma^2 - (f^2 - 1) / 12) / f^2 - 1 / 3: the block mean,
 * the coarse Gaussian and the B-spline add up to the wanted variance.
 *
 * Floor: the channel is read once (decimate) and written once (upsample):
 * 2 * w * h bytes, as for a copy; the coarse images are 1 / (f_x f_y) of
 * that (four floats a coarse sample) and stay in L2. */
#define CFX_BLUR_INTERNAL
#include "cudafx-kernels.h"

#include <cuda_fp16.h>
#include <string.h>

#define COARSE_MAX_R 24
#define COARSE_TAPS (2 * COARSE_MAX_R + 1 + 7)  /* zero up to a multiple of 8 */

struct AxisLite
{
  int f, log2f, r, o, n;
  float sc;
};

struct CoarseSub
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, src_step, dst_pitch, dst_step, width, height;
  int src_vec, dst_vec;         /* 16-byte aligned data and pitch, step 1 */
  AxisLite ax, ay;
  int cp;                       /* floats per coarse row */
  float *S, *MX, *MY, *D;
  /* first block and blocks per grid row in each kernel */
  int dec0, dec_w, blur0, blur_w, up0, up_w;
};

struct CoarseParams
{
  int n;
  CoarseSub s[CFX_BLUR_MAX_SUBS];
};

__device__ __forceinline__ int
mirror (int i, int n)
{
  if ((unsigned) i < (unsigned) n)
    return i;
  if (n <= 1)
    return 0;
  int period = 2 * (n - 1);
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}

/* sum of the 4 bytes of w, and sum of byte b * (j0 + b) */
__device__ __forceinline__ void
word_sums (uint32_t w, unsigned j0, unsigned &s, unsigned &sj)
{
  unsigned ws = __dp4a (w, 0x01010101u, 0u);
  s += ws;
  sj += __dp4a (w, 0x03020100u, 0u) + j0 * ws;
}

/* ---- decimate ----------------------------------------------------------- */

#define DEC_X 32
#define DEC_Y 8

/* sums over one row of a block: samples, samples * column in block */
__device__ __forceinline__ void
row_sums (const CoarseSub & s, const uint8_t * row, int x0, bool fast,
    unsigned &rs, unsigned &rj)
{
  const int fx = s.ax.f;

  rs = rj = 0;
  if (fast) {
    const uint8_t *p = row + x0;
    if (fx == 4) {
      word_sums (__ldg ((const unsigned *) p), 0, rs, rj);
    } else if (fx == 8) {
      uint2 v = __ldg ((const uint2 *) p);
      word_sums (v.x, 0, rs, rj);
      word_sums (v.y, 4, rs, rj);
    } else {
#pragma unroll 1
      for (int c = 0; c < fx; c += 16) {
        uint4 v = __ldg ((const uint4 *) (p + c));
        word_sums (v.x, c, rs, rj);
        word_sums (v.y, c + 4, rs, rj);
        word_sums (v.z, c + 8, rs, rj);
        word_sums (v.w, c + 12, rs, rj);
      }
    }
  } else {
    for (int j = 0; j < fx; j++) {
      unsigned v = __ldg (row + (size_t) mirror (x0 + j, s.width) *
          s.src_step);
      rs += v;
      rj += v * j;
    }
  }
}

__global__ void __launch_bounds__ (DEC_X * DEC_Y, 1)
coarse_decimate (const CoarseParams p)
{
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].dec0)
      c = i;
  const CoarseSub & s = p.s[c];
  const int b = blockIdx.x - s.dec0, by = b / s.dec_w, bx = b - by * s.dec_w;
  const int mx = bx * DEC_X + (threadIdx.x & (DEC_X - 1));
  const int my = by * DEC_Y + threadIdx.x / DEC_X;

  if (my >= s.ay.n || mx >= s.cp)
    return;
  if (mx >= s.ax.n) {
    /* the row's padding, read (with zero taps) by the blur */
    const size_t at = (size_t) my * s.cp + mx;
    s.S[at] = s.MX[at] = s.MY[at] = 0.0f;
    return;
  }

  const int fx = s.ax.f, fy = s.ay.f;
  const int x0 = s.ax.o + mx * fx, y0 = s.ay.o + my * fy;
  /* x0 is a multiple of fx: a block of fx >= 4 samples is aligned */
  const bool fast = s.src_vec && fx >= 4 && x0 >= 0 && x0 + fx <= s.width;
  /* sums of samples, of sample * j, of sample * i: below 2^30 for blocks
   * up to 128 x 128 */
  unsigned sum = 0, sj = 0, si = 0;

  /* four rows at a time, their loads in flight together */
  int i = 0;
  for (; i + 4 <= fy; i += 4) {
    unsigned rs[4], rj[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
      row_sums (s, s.src + (size_t) mirror (y0 + i + k, s.height) *
          s.src_pitch, x0, fast, rs[k], rj[k]);
#pragma unroll
    for (int k = 0; k < 4; k++) {
      sum += rs[k];
      sj += rj[k];
      si += rs[k] * (i + k);
    }
  }
  for (; i < fy; i++) {
    unsigned rs, rj;
    row_sums (s, s.src + (size_t) mirror (y0 + i, s.height) * s.src_pitch,
        x0, fast, rs, rj);
    sum += rs;
    sj += rj;
    si += rs * i;
  }

  /* moment in coarse units: sum v (j - (f - 1) / 2) / f, over f_x f_y */
  const float inv = 1.0f / (float) (fx * fy);
  const long long mxn = 2 * (long long) sj - (long long) (fx - 1) * sum;
  const long long myn = 2 * (long long) si - (long long) (fy - 1) * sum;
  const size_t at = (size_t) my * s.cp + mx;

  s.S[at] = (float) sum * inv;
  s.MX[at] = (float) mxn * (inv / (2.0f * fx));
  s.MY[at] = (float) myn * (inv / (2.0f * fy));
}

/* ---- blur: D = g * (g * S + g' * Mx) + g' * (g * My) -------------------- */

#define BLUR_THREADS 512
#define TILE_X 32
#define TILE_Y 32
#define TASK 4                  /* outputs of one thread's task */
/* rows of A and B: the tile's, its halo, and the zero rows the last
 * window of the vertical pass reads */
#define ROWS_MAX (TILE_Y + 2 * COARSE_MAX_R + 8)

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

/* acc[i] += sum over k < kp of w[k] * in[k + i], i < TASK: taps in blocks
 * of 8, a register window of TASK + 8 inputs (read at @stride) */
__device__ __forceinline__ void
conv (float acc[TASK], const float *in, int stride, const float *w, int kp)
{
  float win[TASK + 8];
#pragma unroll
  for (int i = 0; i < TASK; i++)
    win[i] = in[i * stride];
  for (int kb = 0; kb < kp; kb += 8) {
#pragma unroll
    for (int i = 0; i < 8; i++)
      win[TASK + i] = in[(kb + TASK + i) * stride];
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const float wk = w[kb + k];
#pragma unroll
      for (int i = 0; i < TASK; i++)
        acc[i] += wk * win[k + i];
    }
#pragma unroll
    for (int i = 0; i < TASK; i++)
      win[i] = win[i + 8];
  }
}

__global__ void __launch_bounds__ (BLUR_THREADS)
coarse_blur (const CoarseParams p)
{
  __shared__ float taps[4][COARSE_TAPS];        /* gx, gdx, gy, gdy */
  __shared__ float a_s[ROWS_MAX][TILE_X], b_s[ROWS_MAX][TILE_X];
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].blur0)
      c = i;
  const CoarseSub & s = p.s[c];
  const int b = blockIdx.x - s.blur0, by = b / s.blur_w, bx = b - by * s.blur_w;
  const int rx = s.ax.r, ry = s.ay.r;
  const int kpx = (2 * rx + 1 + 7) & ~7, kpy = (2 * ry + 1 + 7) & ~7;
  /* outputs: columns rx + tx0 .., rows ry + ty0 .. of the valid region */
  const int tx0 = rx + bx * TILE_X, ty0 = ry + by * TILE_Y;
  const int rows = TILE_Y + 2 * ry;
  const bool do_mx = s.ax.f > 1, do_b = s.ay.f > 1;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;

  if (warp == 0)
    make_taps (s.ax.sc, rx, taps[0], taps[1], lane);
  else if (warp == 1)
    make_taps (s.ay.sc, ry, taps[2], taps[3], lane);
  __syncthreads ();

  /* A and B of coarse rows ty0 - ry .. ty0 + TILE_Y + ry, TASK columns a
   * task; inputs past the grid read as zero (only outputs past the valid
   * region use them) */
  for (int task = threadIdx.x; task < ROWS_MAX * (TILE_X / TASK);
      task += BLUR_THREADS) {
    const int rr = task / (TILE_X / TASK), cc = (task % (TILE_X / TASK)) *
        TASK;
    const int my = ty0 - ry + rr, mx = tx0 + cc;
    float a[TASK], bb[TASK];
#pragma unroll
    for (int i = 0; i < TASK; i++)
      a[i] = bb[i] = 0.0f;
    if (rr < rows && my < s.ay.n && mx - rx + kpx + TASK <= s.cp) {
      const size_t at = (size_t) my * s.cp + mx - rx;
      conv (a, s.S + at, 1, taps[0], kpx);
      if (do_mx)
        conv (a, s.MX + at, 1, taps[1], kpx);
      if (do_b)
        conv (bb, s.MY + at, 1, taps[0], kpx);
    }
#pragma unroll
    for (int i = 0; i < TASK; i++) {
      a_s[rr][cc + i] = a[i];
      b_s[rr][cc + i] = bb[i];
    }
  }
  __syncthreads ();

  /* D of TASK rows of one column per thread */
  if (threadIdx.x < TILE_X * (TILE_Y / TASK)) {
    const int cc = threadIdx.x & (TILE_X - 1);
    const int r0 = (threadIdx.x / TILE_X) * TASK;
    const int mx = tx0 + cc;
    float d[TASK];
#pragma unroll
    for (int i = 0; i < TASK; i++)
      d[i] = 0.0f;
    conv (d, &a_s[r0][cc], TILE_X, taps[2], kpy);
    if (do_b)
      conv (d, &b_s[r0][cc], TILE_X, taps[3], kpy);
    if (mx >= s.ax.n - rx)
      return;
#pragma unroll
    for (int i = 0; i < TASK; i++) {
      const int my = ty0 + r0 + i;
      if (my < s.ay.n - ry)
        s.D[(size_t) my * s.cp + mx] = fminf (fmaxf (d[i], 0.0f), 255.0f) +
            1024.0f;
    }
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
  t = (float) (num - (m0 << (a.log2f + 1))) / (float) (2 * a.f);
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

/* two values 1024 + v (v in 0 .. 255) as fp16 bits, v in the low bytes */
__device__ __forceinline__ uint32_t
pack_half2 (float lo, float hi)
{
  __half2 h = __floats2half2_rn (lo, hi);
  uint32_t u;
  memcpy (&u, &h, 4);
  return u;
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

  for (int i = threadIdx.x; i < U_ROWS * ncols; i += U_ROWS * U_LANES) {
    const int rr = i / ncols, cc = i - rr * ncols;
    const int y = by * U_ROWS + rr;
    const float *col = s.D + lo + cc;
    float v = 1024.0f;

    if (y < height) {
      if (ay.f == 1) {
        v = col[(size_t) (y - ay.o) * s.cp];
      } else {
        float w[4];
        coarse_pos (ay, y, m0, t);
        bspline (t, w);
        v = 0.0f;
#pragma unroll
        for (int k = 0; k < 4; k++)
          v += w[k] * col[(size_t) (m0 - 1 + k) * s.cp];
      }
    }
    rows_s[rr][cc] = v;
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

  uint8_t *out = s.dst + (size_t) y * s.dst_pitch;
  if (s.dst_vec && x0 + 16 <= width) {
    *(uint4 *) (out + x0) = make_uint4 (q[0], q[1], q[2], q[3]);
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
  /* rows of 128-byte multiples, and room for the blur's last 8-column
   * task to read its whole tap window */
  return (ax->n + 2 * COARSE_MAX_R + 16 + 31) & ~31;
}

extern "C" size_t
cfx_blur_coarse_bytes (const CfxBlurAxis * ax, const CfxBlurAxis * ay)
{
  /* S, Mx, My, D */
  return 4 * sizeof (float) * (size_t) cfx_blur_coarse_pitch (ax) * ay->n;
}

static AxisLite
lite (const CfxBlurAxis * a)
{
  AxisLite l = { a->f, a->log2f, a->r, a->o, a->n, (float) a->sc };
  return l;
}

static int
aligned16 (const void *data, int pitch, int step)
{
  return step == 1 && (uintptr_t) data % 16 == 0 && pitch % 16 == 0;
}

extern "C" cudaError_t
cfx_blur_coarse_launch (const CfxBlurCoarse * subs, int n,
    cudaStream_t stream)
{
  CoarseParams p;
  int i, dec = 0, blur = 0, up = 0;

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
    s->src_vec = aligned16 (x->src.data, x->src.pitch, x->src.step);
    s->dst_vec = aligned16 (x->dst.data, x->dst.pitch, x->dst.step);
    s->ax = lite (&x->ax);
    s->ay = lite (&x->ay);
    s->cp = cp;
    s->S = (float *) x->scratch;
    s->MX = s->S + plane;
    s->MY = s->MX + plane;
    s->D = s->MY + plane;
    s->dec0 = dec;
    s->dec_w = cp / DEC_X;
    dec += s->dec_w * ((x->ay.n + DEC_Y - 1) / DEC_Y);
    s->blur0 = blur;
    s->blur_w = (x->ax.n - 2 * x->ax.r + TILE_X - 1) / TILE_X;
    blur += s->blur_w * ((x->ay.n - 2 * x->ay.r + TILE_Y - 1) / TILE_Y);
    s->up0 = up;
    s->up_w = (s->width + U_SPAN - 1) / U_SPAN;
    up += s->up_w * ((s->height + U_ROWS - 1) / U_ROWS);
    p.n++;
  }
  if (!p.n)
    return cudaSuccess;

  coarse_decimate <<< dec, DEC_X * DEC_Y, 0, stream >>> (p);
  coarse_blur <<< blur, BLUR_THREADS, 0, stream >>> (p);
  coarse_upsample <<< up, U_ROWS * U_LANES, 0, stream >>> (p);
  return cudaGetLastError ();
}
