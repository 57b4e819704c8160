/* Exact box blur: the mean of a (2 rx + 1) x (2 ry + 1) box with mirrored
 * borders, rounded half up, in integers: equal to the reference for every
 * radius, including radii larger than the channel.
 *
 * Two kernels, time independent of the radius:
 *   box_v  vertical running sums, threads along x (coalesced), each
 *          walking down a segment of 4 columns: sum += in[y + ry + 1] -
 *          in[y - ry], one 4-byte load per row for each end. With 16-bit
 *          sums (255 (2 ry + 1) < 2^16) the 4 sums live in two registers,
 *          two 16-bit lanes each (columns 0, 2 and 1, 3, one byte_perm
 *          each from the loaded word): a lane's new sum is in [0, 2^16),
 *          so the 32-bit adds never carry or borrow between lanes; 32-bit
 *          sums take 4 registers. A segment starts with a direct sum over
 *          its first window, so segments are at least ry / 2 rows long.
 *          Every round trip to memory carries a batch of rows (32 in the
 *          first window, 16 rows = 32 loads in the walk): a segment's
 *          latency is (2 ry + 1) / 32 + seg / 16 round trips. Rows are
 *          mirrored only in batches that reach past the channel; the
 *          others step a pointer. Stores: 8 (16-bit) or 16 bytes a row and
 *          thread. Packed components and odd alignments gather the 4
 *          columns' bytes into the same word.
 *   box_h  one block per row: the row of sums to registers (16-byte loads,
 *          16 a thread), a scan there and across the block, the inclusive
 *          prefix P to shared memory (padded: one word every 32, so the
 *          runs of 16 and the column-wise reads are free of bank
 *          conflicts); then every output is P[x + rx + 1] - P[x - rx], one
 *          thread a column: for x - rx >= 1 and x + rx < width straight
 *          from P (indices stepped, no index maths), elsewhere from the
 *          mirrored row's prefix, which is periodic (period 2 (w - 1)) and
 *          known everywhere from the row's own prefix: O(1) for any rx.
 *          uint32 arithmetic wraps, which is exact because the box sum
 *          itself stays below 2^30. The mean is one multiply-high and a
 *          shift (exact, see div_magic), the bytes go through shared
 *          memory to 16-byte stores; sharpening (blur.h) reads the
 *          source bytes of those stores and takes their unsharp mask
 *          first.
 *
 * Every sub-channel of a call (the planes of a frame, their fields) goes
 * through the same two launches.
 *
 * Floor: read w * h, write w * h bytes. The sums in between (2 or 4 bytes
 * a sample) are written once and read once, mostly from L2. PTX per
 * output (16-bit sums): box_v ~5 in the walk plus ~2.7 (2 ry + 1) / seg
 * for the first window (8 at ry 100), box_h ~16 (scan 6, output 9, copy
 * 1). The previous kernels: one column a thread, byte loads, the mirror
 * stepped twice a row, a float division with a 64-bit correction. */
#include "blur-internal.h"

#include <stdint.h>
#include <string.h>

#define V_THREADS 128
#define V_COLS 4                /* columns a thread walks */
#define BATCH 16                /* rows whose loads go out together */
#define WARM 32                 /* the same for the first window */
#define H_THREADS 256
#define H_RUN 16                /* sums a thread scans */

struct BoxSub
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, src_step, dst_pitch, dst_step, width, height;
  int src_vec, dst_vec;         /* 4-byte loads / 16-byte stores allowed */
  int src_vec16;                /* 16-byte loads of the source allowed */
  int amount;                   /* CFX_BLUR_NO_SHARPEN, or the unsharp mask's */
  int rx, ry, seg;
  void *sums;
  int sums_pitch;
  unsigned n, half, mul, shift; /* mean: umulhi (sum + half, mul) >> shift */
  int v0, v_w, h0;              /* first blocks, box_v blocks per grid row */
};

struct BoxParams
{
  int n;
  BoxSub s[CFX_BLUR_MAX_SUBS];
};

/* ---- box_v --------------------------------------------------------------- */

/* The running sums of 4 columns, for the sum type T */
template < typename T > struct Sums4;

template <> struct Sums4 <uint16_t >
{
  uint32_t a, b;                /* 16-bit lanes: columns 0, 2 and 1, 3 */

  __device__ void zero ()
  {
    a = b = 0;
  }
  __device__ void add (uint32_t w)
  {
    a += __byte_perm (w, 0, 0x4240);
    b += __byte_perm (w, 0, 0x4341);
  }
  /* out is in the window: lanes stay >= 0 after it, < 2^16 after in */
  __device__ void slide (uint32_t in, uint32_t out)
  {
    a = a - __byte_perm (out, 0, 0x4240) + __byte_perm (in, 0, 0x4240);
    b = b - __byte_perm (out, 0, 0x4341) + __byte_perm (in, 0, 0x4341);
  }
  __device__ void store (uint16_t * p) const
  {
    *(uint2 *) p = make_uint2 (__byte_perm (a, b, 0x5410),
        __byte_perm (a, b, 0x7632));
  }
};

template <> struct Sums4 <uint32_t >
{
  uint32_t s[4];

  __device__ void zero ()
  {
#pragma unroll
    for (int k = 0; k < 4; k++)
      s[k] = 0;
  }
  __device__ void add (uint32_t w)
  {
#pragma unroll
    for (int k = 0; k < 4; k++)
      s[k] += __byte_perm (w, 0, 0x4440 + k);
  }
  __device__ void slide (uint32_t in, uint32_t out)
  {
#pragma unroll
    for (int k = 0; k < 4; k++)
      s[k] += __byte_perm (in, 0, 0x4440 + k) - __byte_perm (out, 0,
          0x4440 + k);
  }
  __device__ void store (uint32_t * p) const
  {
    *(uint4 *) p = make_uint4 (s[0], s[1], s[2], s[3]);
  }
};

/* The 4 samples of a row a walker needs, as the bytes of a word: one
 * 4-byte load (VEC), else byte loads of the columns that exist (the last
 * thread of a row, packed components, odd alignments) */
template < bool VEC >
__device__ __forceinline__ uint32_t
row_word (const uint8_t * p, int step, int ncols)
{
  if (VEC)
    return __ldg ((const unsigned *) p);
  uint32_t w = 0;
#pragma unroll
  for (int c = 0; c < 4; c++)
    if (c < ncols)
      w |= (uint32_t) __ldg (p + (size_t) c * step) << (8 * c);
  return w;
}

/* Rows y0 .. y1 - 1 of the 4 columns at col. Every round trip to memory
 * carries a batch of rows (32 in the first window, 16 in the walk); rows
 * are mirrored only in batches that reach past the channel. */
template < typename T, bool VEC >
__device__ __forceinline__ void
walk (const BoxSub & s, const uint8_t * col, int ncols, T * sums, int y0,
    int y1)
{
  const int H = s.height, ry = s.ry, step = s.src_step;
  const size_t pitch = s.src_pitch, sp = s.sums_pitch;
  Sums4 < T > acc;

  /* the first window, rows y0 - ry .. y0 + ry */
  acc.zero ();
  for (int k = y0 - ry; k <= y0 + ry; k += WARM) {
    uint32_t v[WARM];
#pragma unroll
    for (int j = 0; j < WARM; j++)
      v[j] = k + j <= y0 + ry ? row_word < VEC > (col + mirror (k + j, H) *
          pitch, step, ncols) : 0u;
#pragma unroll
    for (int j = 0; j < WARM; j++)
      acc.add (v[j]);
  }

  /* the walk: output y, then in = row y + ry + 1 enters, out = y - ry
   * leaves (rows past y1 are loaded, mirrored, and not used) */
  for (int y = y0; y < y1; y += BATCH) {
    uint32_t in[BATCH], out[BATCH];
    if (y - ry >= 0 && y + BATCH + ry < H) {
      const uint8_t *lead = col + (size_t) (y + ry + 1) * pitch;
      const uint8_t *trail = col + (size_t) (y - ry) * pitch;
#pragma unroll
      for (int j = 0; j < BATCH; j++) {
        in[j] = row_word < VEC > (lead + j * pitch, step, ncols);
        out[j] = row_word < VEC > (trail + j * pitch, step, ncols);
      }
    } else {
#pragma unroll
      for (int j = 0; j < BATCH; j++) {
        in[j] = row_word < VEC > (col + mirror (y + j + ry + 1, H) * pitch,
            step, ncols);
        out[j] = row_word < VEC > (col + mirror (y + j - ry, H) * pitch,
            step, ncols);
      }
    }
#pragma unroll
    for (int j = 0; j < BATCH; j++)
      if (y + j < y1) {
        acc.store (sums + (y + j) * sp);
        acc.slide (in[j], out[j]);
      }
  }
}

template < typename T >
__global__ void __launch_bounds__ (V_THREADS)
box_v (const BoxParams p)
{
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].v0)
      c = i;
  const BoxSub & s = p.s[c];
  const int b = blockIdx.x - s.v0, by = b / s.v_w, bx = b - by * s.v_w;
  const int x = V_COLS * (bx * V_THREADS + threadIdx.x);
  const int y0 = by * s.seg;

  if (x >= s.width || y0 >= s.height)
    return;
  const int y1 = min (s.height, y0 + s.seg);
  T *sums = (T *) s.sums + x;

  /* the 4 sums are stored even for columns past the width (the sums
   * rows are padded to 64; box_h reads none of them) */
  if (s.src_vec && x + V_COLS <= s.width)
    walk < T, true > (s, s.src + x, V_COLS, sums, y0, y1);
  else
    walk < T, false > (s, s.src + (size_t) x * s.src_step,
        min (V_COLS, s.width - x), sums, y0, y1);
}

/* ---- box_h --------------------------------------------------------------- */

/* shared index of prefix P[i], i >= 1 (P[0] = 0 is not stored): one pad
 * word every 32 */
__device__ __forceinline__ int
pad (int i)
{
  return (i - 1) + ((i - 1) >> 5);
}

__device__ __forceinline__ unsigned
P_at (const unsigned *P, int i)
{
  return i > 0 ? P[pad (i)] : 0u;
}

/* Prefix of the mirrored row at any index i (P[0 .. w] known): the
 * extension repeats with period p = 2 (w - 1); one period sums to
 * P[w] + P[w - 1] - P[1], and inside a period, past w, the prefix is
 * P[w] + P[w - 1] - P[p - s + 1]. */
__device__ __forceinline__ unsigned
prefix_at (const unsigned *P, int w, int i)
{
  if (i >= 0 && i <= w)
    return P_at (P, i);
  if (w == 1)
    return (unsigned) i *P_at (P, 1);
  const int p = 2 * (w - 1);
  int q = i / p, s = i - q * p;
  if (s < 0) {
    s += p;
    q--;
  }
  const unsigned pw = P_at (P, w) + P_at (P, w - 1);
  const unsigned period = pw - P_at (P, 1);
  const unsigned inside = s <= w ? P_at (P, s) : pw - P_at (P, p - s + 1);
  return (unsigned) q *period + inside;
}

/* The row's last, partial run of 16: the sums it has, one by one (the
 * scratch past the row's end was never written), zero after them */
template < typename T > __device__ __forceinline__ void
load_tail (const T * row, int x, int w, unsigned v[16])
{
#pragma unroll
  for (int k = 0; k < 16; k++)
    v[k] = x + k < w ? row[x + k] : 0;
}

/* 16 sums from a row of T, as words (zero past the end) */
__device__ __forceinline__ void
load16 (const uint16_t * row, int x, int w, unsigned v[16])
{
  if (x + 16 > w) {
    load_tail (row, x, w, v);
    return;
  }
  const uint4 a = *(const uint4 *) (row + x), b = *(const uint4 *) (row + x
      + 8);
  const unsigned u[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
#pragma unroll
  for (int k = 0; k < 8; k++) {
    v[2 * k] = u[k] & 0xffffu;
    v[2 * k + 1] = u[k] >> 16;
  }
}

__device__ __forceinline__ void
load16 (const uint32_t * row, int x, int w, unsigned v[16])
{
  if (x + 16 > w) {
    load_tail (row, x, w, v);
    return;
  }
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const uint4 a = *(const uint4 *) (row + x + 4 * k);
    v[4 * k] = a.x;
    v[4 * k + 1] = a.y;
    v[4 * k + 2] = a.z;
    v[4 * k + 3] = a.w;
  }
}

template < typename T >
__global__ void __launch_bounds__ (H_THREADS)
box_h (const BoxParams p)
{
  /* P[1 .. w] at pad (i), then the row's bytes (16-byte aligned) */
  extern __shared__ uint4 shared4[];
  unsigned *P = (unsigned *) shared4;
  __shared__ unsigned warp_total[H_THREADS / 32];
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].h0)
      c = i;
  const BoxSub & s = p.s[c];
  const int y = blockIdx.x - s.h0, W = s.width, rx = s.rx;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const T *row = (const T *) s.sums + (size_t) y * s.sums_pitch;
  uint8_t *bytes = (uint8_t *) (P + ((pad (W) + 4) & ~3));
  unsigned carry = 0;

  /* inclusive prefix, H_THREADS * 16 sums a round: a thread's 16 in
   * registers, then the threads' totals across the block */
  for (int base = 0; base < W; base += H_THREADS * H_RUN) {
    const int x = base + H_RUN * tid;
    unsigned v[H_RUN], total = 0;

    if (x < W) {
      load16 (row, x, W, v);
#pragma unroll
      for (int k = 1; k < H_RUN; k++)
        v[k] += v[k - 1];
      total = v[H_RUN - 1];
    }
    unsigned incl = total;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned u = __shfl_up_sync (0xffffffffu, incl, d);
      if (lane >= d)
        incl += u;
    }
    if (lane == 31)
      warp_total[warp] = incl;
    __syncthreads ();
    unsigned before = carry + incl - total, all = 0;
#pragma unroll
    for (int k = 0; k < H_THREADS / 32; k++) {
      before += k < warp ? warp_total[k] : 0u;
      all += warp_total[k];
    }
    if (x < W) {
      /* 16 consecutive prefixes from pad (x + 1): no pad word inside */
      unsigned *out = P + pad (x + 1);
#pragma unroll
      for (int k = 0; k < H_RUN; k++)
        if (x + k < W)
          out[k] = before + v[k];
    }
    carry += all;
    __syncthreads ();           /* warp_total is reused */
  }

  /* one column a thread: box sum, mean, byte. Inside (x - rx >= 1 and
   * x + rx < width) both ends are plain P words, whose shared indices
   * step by 256 + 8 (pad words) a round; outside, the periodic prefix */
  const unsigned half = s.half, mul = s.mul, shift = s.shift;
  const int xa = min (rx + 1, W), xb = max (W - rx, xa);
  int x = tid;
  for (; x < xa; x += H_THREADS)
    bytes[x] = (uint8_t) (__umulhi (prefix_at (P, W, x + rx + 1) -
            prefix_at (P, W, x - rx) + half, mul) >> shift);
  int i1 = pad (x + rx + 1), i0 = pad (x - rx);
#pragma unroll 4
  for (; x < xb; x += H_THREADS, i1 += H_THREADS + H_THREADS / 32,
      i0 += H_THREADS + H_THREADS / 32)
    bytes[x] = (uint8_t) (__umulhi (P[i1] - P[i0] + half, mul) >> shift);
  for (; x < W; x += H_THREADS)
    bytes[x] = (uint8_t) (__umulhi (prefix_at (P, W, x + rx + 1) -
            prefix_at (P, W, x - rx) + half, mul) >> shift);
  __syncthreads ();

  uint8_t *out = s.dst + (size_t) y * s.dst_pitch;
  const uint8_t *in = s.src + (size_t) y * s.src_pitch;
  const int amount = s.amount;
  if (s.dst_vec) {
    for (int x = 16 * tid; x < W; x += 16 * H_THREADS) {
      uint4 word = make_uint4 (0, 0, 0, 0);
      if (x + 16 <= W) {
        word = *(const uint4 *) (bytes + x);
      } else {
        uint32_t q[4] = { 0, 0, 0, 0 };
        for (int k = x; k < W; k++)
          q[(k - x) / 4] |= (uint32_t) bytes[k] << (8 * ((k - x) % 4));
        word = make_uint4 (q[0], q[1], q[2], q[3]);
      }
      if (amount != CFX_BLUR_NO_SHARPEN)
        word = sharpen_bytes16 (word, in, x, W, s.src_step, s.src_vec16,
            amount);
      if (x + 16 <= W) {
        *(uint4 *) (out + x) = word;
      } else {
        const uint32_t q[4] = { word.x, word.y, word.z, word.w };
        for (int k = x; k < W; k++)
          out[k] = (uint8_t) (q[(k - x) / 4] >> (8 * ((k - x) % 4)));
      }
    }
  } else {
    for (int x = tid; x < W; x += H_THREADS)
      out[(size_t) x * s.dst_step] = amount == CFX_BLUR_NO_SHARPEN ?
          bytes[x] : (uint8_t) cfx_unsharp (in[(size_t) x * s.src_step],
          bytes[x], amount, 255);
  }
}

/* ---- host ---------------------------------------------------------------- */

static int
wide_sums (int radius_y)
{
  return 255 * (2 * radius_y + 1) > 65535;
}

extern "C" size_t
cfx_blur_box_sums_bytes (int width, int height, int radius_y)
{
  const size_t pitch = ((size_t) width + 63) & ~(size_t) 63;
  return pitch * (size_t) height * (wide_sums (radius_y) ? 4 : 2);
}

/* The rounded mean (x + n / 2) / n for box sums x < 2^30 as
 * umulhi (x + half, mul) >> shift. n >= 3 (odd): with s = ceil (log2 n)
 * >= 2, mul = ceil (2^(30 + s) / n) = (2^(30 + s) + e) / n, 0 <= e < n,
 * shift = s - 2. Then y mul / 2^(30 + s) = y / n + y e / (n 2^(30 + s)) for
 * y = x + n / 2 < 2^30, and the second term is below 2^30 n / (n 2^30 2^s)
 * = 2^-s <= 1 / n, while the fraction of y / n is at most (n - 1) / n: the
 * floor is exact; mul < 2^31 + 1 (2^s < 2 n). n = 1: half = 1, mul =
 * 2^32 - 1, shift 0: umulhi (x + 1, 2^32 - 1) = x. */
static void
div_magic (unsigned n, unsigned *half, unsigned *mul, unsigned *shift)
{
  unsigned s = 2;

  if (n == 1) {
    *half = 1;
    *mul = 0xffffffffu;
    *shift = 0;
    return;
  }
  while ((1ull << s) < n)
    s++;
  *half = n / 2;
  *mul = (unsigned) (((1ull << (30 + s)) + n - 1) / n);
  *shift = s - 2;
}

template < typename T >
static cudaError_t
launch (const BoxParams & p, int v_blocks, int h_blocks, int max_width,
    cudaStream_t stream)
{
  /* P (with pad words), then max_width bytes */
  const size_t words = (size_t) max_width + max_width / 32 + 8;
  const size_t shared = sizeof (unsigned) * words + max_width + 16;
  cudaError_t err;

  /* before either launch: a failure leaves nothing half queued */
  if (shared > 48 * 1024) {
    err = cudaFuncSetAttribute (box_h < T >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared);
    if (err != cudaSuccess)
      return err;
  }
  err = cfx_launch (box_v < T >, v_blocks, V_THREADS, 0, stream, p);
  if (err == cudaSuccess)
    err = cfx_launch (box_h < T >, h_blocks, H_THREADS, shared, stream, p);
  return err;
}

extern "C" cudaError_t
cfx_blur_box_launch (const CfxBlurBox * subs, int n, cudaStream_t stream)
{
  BoxParams p;
  int i, v = 0, h = 0, max_width = 0, wide = 0;

  if (n <= 0 || n > CFX_BLUR_MAX_SUBS)
    return cudaErrorInvalidValue;
  for (i = 0; i < n; i++)
    wide |= wide_sums (subs[i].ry);
  /* one sum type per launch: 32 bits for all when one needs them (their
   * scratch was sized for 32 bits only where 16 do not fit: split) */
  for (i = 0; i < n; i++)
    if (wide && !wide_sums (subs[i].ry)) {
      cudaError_t err = cfx_blur_box_launch (&subs[i], 1, stream);
      if (err != cudaSuccess)
        return err;
    }

  memset (&p, 0, sizeof (p));
  for (i = 0; i < n; i++) {
    const CfxBlurBox *x = &subs[i];
    BoxSub *s = &p.s[p.n];

    if (x->src.width <= 0 || x->src.height <= 0
        || wide_sums (x->ry) != wide)
      continue;
    s->src = x->src.data;
    s->dst = x->dst.data;
    s->src_pitch = x->src.pitch;
    s->src_step = x->src.step;
    s->dst_pitch = x->dst.pitch;
    s->dst_step = x->dst.step;
    s->width = x->src.width;
    s->height = x->src.height;
    s->src_vec = cfx_aligned (x->src.data, x->src.pitch, x->src.step, 4);
    s->src_vec16 = cfx_aligned (x->src.data, x->src.pitch, x->src.step, 16);
    s->amount = x->amount;
    s->dst_vec = cfx_aligned (x->dst.data, x->dst.pitch, x->dst.step, 16);
    s->rx = x->rx;
    s->ry = x->ry;
    /* segments of at least 32 rows and ry / 2 */
    s->seg = x->ry / 2 > 32 ? x->ry / 2 : 32;
    s->sums = x->scratch;
    s->sums_pitch = (s->width + 63) & ~63;
    s->n = (unsigned) (2 * x->rx + 1) * (unsigned) (2 * x->ry + 1);
    div_magic (s->n, &s->half, &s->mul, &s->shift);
    s->v0 = v;
    s->v_w = (s->width + V_COLS * V_THREADS - 1) / (V_COLS * V_THREADS);
    v += s->v_w * ((s->height + s->seg - 1) / s->seg);
    s->h0 = h;
    h += s->height;
    if (s->width > max_width)
      max_width = s->width;
    p.n++;
  }
  if (!p.n)
    return cudaSuccess;
  if (wide)
    return launch < uint32_t > (p, v, h, max_width, stream);
  return launch < uint16_t > (p, v, h, max_width, stream);
}
