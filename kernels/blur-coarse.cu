/* Decimated Gaussian: time independent of sigma.
 *
 * Per axis with sigma > 8, f = the largest power of two with 4 f <= sigma
 * (sigma / f in [4, 8)); axes with sigma <= 8 keep f = 1 and are blurred
 * exactly. Four kernels:
 *   decimate  coarse sample (mx, my) = mean of its f_x x f_y block of the
 *             mirrored channel, and the block's first moments along x and
 *             y (offsets from the block centre in coarse units): one pass
 *             over the channel, 16-byte loads and dp4a byte sums.
 *   coarse_h  A = g * S + g' * Mx,  B = g * My       (along x, shared memory)
 *   coarse_v  D = g * A + g' * B                     (along y, columns)
 *             g: sampled Gaussian of sigma_c, g' its derivative. The
 *             moment terms are the first-order Taylor correction for where
 *             inside its block each sample sits; without them, block
 *             averages lose the sub-block position of edges (errors up to 5
 *             on stripes at the block period), with them below 0.6.
 *   upsample  cubic B-spline of D at every output pixel (4 x 4 coarse
 *             samples, phase-independent variance f^2 / 3), round half up,
 *             16-byte stores.
 * sigma_c^2 = (sigma^2 - (f^2 - 1) / 12) / f^2 - 1 / 3: the block mean,
 * the coarse Gaussian and the B-spline add up to the wanted variance.
 *
 * Floor: the channel is read once (decimate) and written once (upsample):
 * 2 * w * h bytes, as for a copy; the coarse images are 1 / (f_x f_y) of
 * that, five floats per coarse sample, and stay in L2. */
#define CFX_BLUR_INTERNAL
#include "cudafx-kernels.h"

#include <string.h>

struct Src
{
  const uint8_t *data;
  int pitch, step, width, height;
  int vec;                      /* step 1, 16-byte aligned data and pitch */
};

struct AxisLite
{
  int f, log2f, r, o, n;
};

struct Taps
{
  /* index k for offset k - r, zero up to a multiple of 8 taps */
  float g[CFX_BLUR_MAX_TAPS + 7], gd[CFX_BLUR_MAX_TAPS + 7];
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

__global__ void
coarse_decimate (const Src src, const AxisLite ax, const AxisLite ay,
    float *S, float *MX, float *MY, int cp)
{
  const int mx = blockIdx.x * blockDim.x + threadIdx.x;
  const int my = blockIdx.y * blockDim.y + threadIdx.y;

  if (mx >= ax.n || my >= ay.n)
    return;

  const int fx = ax.f, fy = ay.f;
  const int x0 = ax.o + mx * fx, y0 = ay.o + my * fy;
  /* x0 is a multiple of fx: a block of fx >= 2 samples is fx-aligned */
  const bool fast = src.vec && fx >= 2 && x0 >= 0 && x0 + fx <= src.width;
  unsigned s = 0;               /* sum of samples */
  unsigned long long sj = 0, si = 0;    /* sums of sample * j, sample * i */

  for (int i = 0; i < fy; i++) {
    const uint8_t *row = src.data + (size_t) mirror (y0 + i, src.height) *
        src.pitch;
    unsigned rs = 0, rj = 0;

    if (fast) {
      const uint8_t *p = row + x0;
      if (fx == 2) {
        unsigned v = *(const unsigned short *) p;
        rs = (v & 0xff) + (v >> 8);
        rj = v >> 8;
      } else if (fx == 4) {
        word_sums (__ldg ((const unsigned *) p), 0, rs, rj);
      } else if (fx == 8) {
        uint2 v = __ldg ((const uint2 *) p);
        word_sums (v.x, 0, rs, rj);
        word_sums (v.y, 4, rs, rj);
      } else {
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
        unsigned v = __ldg (row + (size_t) mirror (x0 + j, src.width) *
            src.step);
        rs += v;
        rj += v * j;
      }
    }
    s += rs;
    sj += rj;
    si += (unsigned long long) rs *i;
  }

  /* moment in coarse units: sum v (j - (f - 1) / 2) / f, over f_x f_y */
  const float inv = 1.0f / (float) (fx * fy);
  const long long mxn = 2 * (long long) sj - (long long) (fx - 1) * s;
  const long long myn = 2 * (long long) si - (long long) (fy - 1) * s;
  const size_t at = (size_t) my * cp + mx;

  S[at] = (float) s * inv;
  MX[at] = (float) mxn * (inv / (2.0f * fx));
  MY[at] = (float) myn * (inv / (2.0f * fy));
}

/* ---- coarse blur along x: A = g * S + g' * Mx, B = g * My --------------- */

#define H_THREADS 128
#define H_OUT 8                 /* outputs per thread */
#define H_SPAN (H_THREADS * H_OUT)
/* a row of in_s: H_SPAN + 56 taps + 8, a multiple of 4 (float4 loads) */
#define H_LEN (H_SPAN + CFX_BLUR_MAX_TAPS + 23)

/* acc[i] += sum over k < KP of w[k] * in[k + i], in from shared memory at
 * 16-byte aligned base; taps in blocks of 8, a register window of 16 */
__device__ __forceinline__ void
conv8 (float acc[H_OUT], const float *in, const float *w, int kp)
{
  float win[16];
  float4 a = *(const float4 *) in, b = *(const float4 *) (in + 4);
  win[0] = a.x;
  win[1] = a.y;
  win[2] = a.z;
  win[3] = a.w;
  win[4] = b.x;
  win[5] = b.y;
  win[6] = b.z;
  win[7] = b.w;
  for (int kb = 0; kb < kp; kb += 8) {
    a = *(const float4 *) (in + kb + 8);
    b = *(const float4 *) (in + kb + 12);
    win[8] = a.x;
    win[9] = a.y;
    win[10] = a.z;
    win[11] = a.w;
    win[12] = b.x;
    win[13] = b.y;
    win[14] = b.z;
    win[15] = b.w;
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const float wk = w[kb + k];
#pragma unroll
      for (int i = 0; i < H_OUT; i++)
        acc[i] += wk * win[k + i];
    }
#pragma unroll
    for (int i = 0; i < 8; i++)
      win[i] = win[i + 8];
  }
}

__global__ void __launch_bounds__ (H_THREADS)
coarse_h (const float *S, const float *MX, const float *MY, float *A,
    float *B, int cp, const AxisLite ax, const Taps tx, int do_mx, int do_b)
{
  /* outputs n0 .. n0 + H_SPAN - 1 read inputs n0 - r .. n0 + H_SPAN - r +
   * kp + 7 (kp: taps rounded up to 8; 8 more for the window) */
  __shared__ __align__ (16) float in_s[3][H_LEN];
  __shared__ float w_s[2][CFX_BLUR_MAX_TAPS + 7];
  const int r = ax.r, kp = (2 * r + 1 + 7) & ~7;
  const int row = blockIdx.y;
  const int n0 = r + blockIdx.x * H_SPAN;
  const int len = H_SPAN + kp + 8;
  const size_t at = (size_t) row * cp;

  for (int i = threadIdx.x; i < CFX_BLUR_MAX_TAPS + 7; i += H_THREADS) {
    w_s[0][i] = tx.g[i];
    w_s[1][i] = tx.gd[i];
  }
  for (int i = threadIdx.x; i < len; i += H_THREADS) {
    const int m = n0 - r + i;
    const bool ok = m < ax.n;
    in_s[0][i] = ok ? S[at + m] : 0.0f;
    in_s[1][i] = ok && do_mx ? MX[at + m] : 0.0f;
    in_s[2][i] = ok && do_b ? MY[at + m] : 0.0f;
  }
  __syncthreads ();

  const int first = H_OUT * threadIdx.x;
  float a[H_OUT], b[H_OUT];
#pragma unroll
  for (int i = 0; i < H_OUT; i++)
    a[i] = b[i] = 0.0f;
  conv8 (a, in_s[0] + first, w_s[0], kp);
  if (do_mx)
    conv8 (a, in_s[1] + first, w_s[1], kp);
  if (do_b)
    conv8 (b, in_s[2] + first, w_s[0], kp);

#pragma unroll
  for (int i = 0; i < H_OUT; i++) {
    const int n = n0 + first + i;
    if (n < ax.n - r) {
      A[at + n] = a[i];
      if (do_b)
        B[at + n] = b[i];
    }
  }
}

/* ---- coarse blur along y: D = g * A + g' * B ---------------------------- */

#define V_OUT 8                 /* rows per thread */

__global__ void
coarse_v (const float *A, const float *B, float *D, int cp,
    const AxisLite ax, const AxisLite ay, const Taps ty, int do_b)
{
  const int n = ax.r + blockIdx.x * blockDim.x + threadIdx.x;
  const int m0 = ay.r + (blockIdx.y * blockDim.y + threadIdx.y) * V_OUT;
  const int r = ay.r, kp = (2 * r + 1 + 7) & ~7;

  if (n >= ax.n - ax.r || m0 >= ay.n - ay.r)
    return;

  float acc[V_OUT];
#pragma unroll
  for (int i = 0; i < V_OUT; i++)
    acc[i] = 0.0f;

  /* input rows m0 - r + k + i; rows past the end read as zero (only the
   * zero taps past 2 r and outputs past the valid range touch them) */
  for (int pass = 0; pass < (do_b ? 2 : 1); pass++) {
    const float *in = pass ? B : A;
    const float *w = pass ? ty.gd : ty.g;
    float win[16];
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const int m = m0 - r + i;
      win[i] = m < ay.n ? in[(size_t) m * cp + n] : 0.0f;
    }
    for (int kb = 0; kb < kp; kb += 8) {
#pragma unroll
      for (int i = 0; i < 8; i++) {
        const int m = m0 - r + kb + 8 + i;
        win[8 + i] = m < ay.n ? in[(size_t) m * cp + n] : 0.0f;
      }
#pragma unroll
      for (int k = 0; k < 8; k++) {
        const float wk = w[kb + k];
#pragma unroll
        for (int i = 0; i < V_OUT; i++)
          acc[i] += wk * win[k + i];
      }
#pragma unroll
      for (int i = 0; i < 8; i++)
        win[i] = win[i + 8];
    }
  }
#pragma unroll
  for (int i = 0; i < V_OUT; i++)
    if (m0 + i < ay.n - ay.r)
      D[(size_t) (m0 + i) * cp + n] = acc[i];
}

/* ---- upsample ----------------------------------------------------------- */

#define U_ROWS 8
#define U_LANES 16              /* threads per row, 16 pixels each */
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

__device__ __forceinline__ uint32_t
to_u8 (float v)
{
  float f = fminf (fmaxf (v + 0.5f, 0.0f), 255.5f);
  return __float_as_uint (__fadd_rd (f, 8388608.0f)) & 0xffu;
}

__global__ void __launch_bounds__ (U_ROWS * U_LANES)
coarse_upsample (const float *D, int cp, const AxisLite ax,
    const AxisLite ay, uint8_t *dst, int dst_pitch, int dst_step,
    int width, int height, int dst_vec)
{
  /* vertically interpolated coarse rows of the tile's output rows */
  __shared__ float rows_s[U_ROWS][U_COLS];
  const int x_tile = blockIdx.x * U_SPAN;
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

  const int tid = threadIdx.y * U_LANES + threadIdx.x;
  for (int i = tid; i < U_ROWS * ncols; i += U_ROWS * U_LANES) {
    const int rr = i / ncols, c = i - rr * ncols;
    const int y = blockIdx.y * U_ROWS + rr;
    const float *col = D + lo + c;
    float v = 0.0f;

    if (y < height) {
      if (ay.f == 1) {
        v = col[(size_t) (y - ay.o) * cp];
      } else {
        float w[4];
        coarse_pos (ay, y, m0, t);
        bspline (t, w);
#pragma unroll
        for (int k = 0; k < 4; k++)
          v += w[k] * col[(size_t) (m0 - 1 + k) * cp];
      }
    }
    rows_s[rr][c] = v;
  }
  __syncthreads ();

  const int y = blockIdx.y * U_ROWS + threadIdx.y;
  const int x0 = x_tile + 16 * threadIdx.x;
  if (y >= height || x0 >= width)
    return;

  const float *rv = rows_s[threadIdx.y];
  uint32_t q[4] = { 0, 0, 0, 0 };

  if (ax.f == 1) {
#pragma unroll
    for (int i = 0; i < 16; i++)
      q[i / 4] |= to_u8 (rv[x0 + i - ax.o - lo]) << (8 * (i % 4));
  } else {
    /* per coarse cell, the cubic a + t (b + t (c + t d)) of its 4 samples;
     * t steps by 1 / f, exactly */
    const float dt = 1.0f / (float) ax.f;
    float a = 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
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
        a = (v0 + 4.0f * v1 + v2) * (1.0f / 6.0f);
        b = (v2 - v0) * 0.5f;
        c = (v0 - 2.0f * v1 + v2) * 0.5f;
        d = (3.0f * (v1 - v2) + v3 - v0) * (1.0f / 6.0f);
      }
      q[i / 4] |= to_u8 (a + t * (b + t * (c + t * d))) << (8 * (i % 4));
      t += dt;
    }
  }

  uint8_t *out = dst + (size_t) y * dst_pitch;
  if (dst_vec && x0 + 16 <= width) {
    *(uint4 *) (out + x0) = make_uint4 (q[0], q[1], q[2], q[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 16; i++)
      if (x0 + i < width)
        out[(size_t) (x0 + i) * dst_step] = (uint8_t) (q[i / 4] >> (8 * (i %
                    4)));
  }
}

/* ---- host --------------------------------------------------------------- */

extern "C" int
cfx_blur_coarse_pitch (const CfxBlurAxis * ax)
{
  /* rows of 128-byte multiples; coarse_h reads up to H_SPAN past a row's
   * valid end only through its "m < n" guard */
  return (ax->n + 31) & ~31;
}

extern "C" size_t
cfx_blur_coarse_bytes (const CfxBlurAxis * ax, const CfxBlurAxis * ay)
{
  /* S (later D), Mx, My, A, B */
  return 5 * sizeof (float) * (size_t) cfx_blur_coarse_pitch (ax) * ay->n;
}

static AxisLite
lite (const CfxBlurAxis * a)
{
  AxisLite l = { a->f, a->log2f, a->r, a->o, a->n };
  return l;
}

static Taps
taps (const CfxBlurAxis * a)
{
  Taps t;
  memset (&t, 0, sizeof (t));
  memcpy (t.g, a->g, sizeof (float) * (2 * a->r + 1));
  memcpy (t.gd, a->gd, sizeof (float) * (2 * a->r + 1));
  return t;
}

extern "C" cudaError_t
cfx_blur_coarse_launch (CfxChannel dst, CfxChannel src,
    const CfxBlurAxis * ax, const CfxBlurAxis * ay, float *scratch,
    cudaStream_t stream)
{
  const int cp = cfx_blur_coarse_pitch (ax);
  const size_t plane = (size_t) cp * ay->n;
  float *S = scratch, *MX = S + plane, *MY = MX + plane, *A = MY + plane,
      *B = A + plane;
  const AxisLite lx = lite (ax), ly = lite (ay);
  const int do_mx = ax->f > 1, do_b = ay->f > 1;
  Src s = { src.data, src.pitch, src.step, src.width, src.height,
    src.step == 1 && (uintptr_t) src.data % 16 == 0 && src.pitch % 16 == 0
  };
  int dst_vec = dst.step == 1 && (uintptr_t) dst.data % 16 == 0
      && dst.pitch % 16 == 0;

  if (src.width <= 0 || src.height <= 0)
    return cudaSuccess;

  {
    dim3 block (32, 8);
    dim3 grid ((ax->n + 31) / 32, (ay->n + 7) / 8);
    coarse_decimate <<< grid, block, 0, stream >>> (s, lx, ly, S, MX, MY, cp);
  }
  {
    const int outs = ax->n - 2 * ax->r;
    dim3 grid ((outs + H_SPAN - 1) / H_SPAN, ay->n);
    coarse_h <<< grid, H_THREADS, 0, stream >>> (S, MX, MY, A, B, cp, lx,
        taps (ax), do_mx, do_b);
  }
  {
    const int outs_x = ax->n - 2 * ax->r, outs_y = ay->n - 2 * ay->r;
    dim3 block (32, 4);
    dim3 grid ((outs_x + 31) / 32, (outs_y + 4 * V_OUT - 1) / (4 * V_OUT));
    coarse_v <<< grid, block, 0, stream >>> (A, B, S, cp, lx, ly, taps (ay),
        do_b);
  }
  {
    dim3 block (U_LANES, U_ROWS);
    dim3 grid ((src.width + U_SPAN - 1) / U_SPAN,
        (src.height + U_ROWS - 1) / U_ROWS);
    coarse_upsample <<< grid, block, 0, stream >>> (S, cp, lx, ly, dst.data,
        dst.pitch, dst.step, src.width, src.height, dst_vec);
  }
  return cudaGetLastError ();
}
