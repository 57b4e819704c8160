/* Direct separable Gaussian, folded radius <= 48 per axis, on the tensor
 * cores, straight from global memory to registers and back.
 *
 * Floor: read the channel once and write it once: 2 * w * h bytes over the
 * copy bandwidth (4K GRAY8: 16.6 MB, 5.7 us at 2.9 TB/s).
 *
 * Why tensor cores: at 4K and 7 us an H100 issues about 25 instructions
 * per pixel in all; a 19-tap separable filter in fp32 needs ~40 (tap pairs
 * summed first), in packed fp16 ~20 plus the conversions. As products
 * with banded Toeplitz matrices of taps (T = X H, Out = V T) one
 * mma.m16n8k16 does 2048 multiply-adds; the band wastes a part of them,
 * the tensor pipe has plenty.
 *
 * Work: one warp = a strip of 32 output columns (two 16-column m-tiles)
 * walking down a run of rows, 16 rows a step. No shared memory, no block
 * barrier; the 4 warps of a block are neighbouring strips, so the column
 * halos they share hit L1.
 *
 * The fragment layouts (PTX m16n8k16: g = lane / 4, t = lane % 4) are
 * chained so that no data moves between lanes:
 *   horizontal  D[m, n] = sum_k H[m, k] X[k, n]: n = 8 input rows, k = 16
 *               input columns, m = 16 output columns. Lane (g, t) holds B
 *               = columns 2t, 2t+1, 2t+8, 2t+9 of row g; we let logical k
 *               2t, 2t+1, 2t+8, 2t+9 be the physical columns 4t .. 4t+3,
 *               so one 4-byte load and two byte_perms make a B fragment
 *               (0x64 as high byte: fp16 1024 + sample, exact). The taps H
 *               follow the same permutation, of k and of m.
 *   vertical    Out[m', n'] = sum_k' V[m', k'] T[k', n']: B holds rows
 *               2t, 2t+1 (+8) of column g, which is exactly what the
 *               horizontal D of lane (g, t) holds (column m = g or g + 8,
 *               rows 2t, 2t+1), packed to fp16. 16 T rows = two
 *               horizontal row groups.
 *   output      Out lane (g, t): rows g, g + 8, columns n' = 2t, 2t+1 of
 *               two n-tiles = physical columns 4t .. 4t+3 of an m-tile (the
 *               permutation again): one 4-byte store per row and m-tile.
 * A step (16 output rows x 32 columns) computes one new 16-row block of T
 * (2 groups x 2 m-tiles x KB mma) and the outputs (4 n-tiles x KB mma);
 * the last KB blocks of T stay in registers (a ring, indices fixed at
 * compile time by unrolling KB steps). KB = 1 + ceil(radius / 8) k-blocks
 * of 16 cover 16 outputs and their 2 radius neighbours.
 *
 * Cost per output pixel at radius 9 (KB 3), runs of 128 rows (T for
 * 128 + 32 rows): 6 mma per 256 T values and 12 per 512 outputs, 0.053
 * mma (4K: 0.44 M, ~2.7 us at ~0.7 mma per clock and SM), and per 512
 * outputs ~100 other instructions (8 4-byte loads, 12 byte_perms, 16 fp16
 * packs, 4 stores, addresses): ~7 per pixel, against the ~25 an H100
 * issues per pixel at copy speed. So the memory traffic (5.7 us) bounds
 * it, if enough loads are in flight: each warp loads the next 16 rows
 * while it computes the current ones (1 KB in flight a warp, 16 warps
 * an SM at 122 registers). Runs are as short as keeps every block
 * resident at once (one wave: a second, partial wave would double the
 * time).
 *
 * Accuracy: samples are exact fp16 operands, the taps are rounded to fp16
 * on the host (relative error 2^-11); products are exact, sums fp32. The
 * horizontal accumulator starts at -1152 sum(wx), so T = sum wx (s - 128)
 * lies in (-128.2, 127.2) and its fp16 rounding moves it by at most
 * 2^-5; the vertical one starts at 1024 + 128 sum(wx) sum(wy), so the
 * result is 1024 + the blurred value, whose fp16 rounding is the integer
 * the low byte holds. Tap rounding moves a value by at most 2 * 128 *
 * 2^-11 = 0.125, T's rounding by 0.031, the fp32 sums by ~0.03: below 0.2
 * before rounding, so every output is within 1 of the reference, and
 * no clamping is needed (the value stays in [-0.2, 255.2]).
 *
 * Borders: rows are mirrored per lane; the columns of strips that reach
 * past the channel (and channels that are not 4-byte aligned or have
 * step > 1) are gathered byte by byte through the mirror. */
#define CFX_BLUR_INTERNAL
#include "cudafx-kernels.h"

#include <cuda_fp16.h>
#include <string.h>

#define WARPS 4                 /* strips per block */
#define STRIP 32                /* output columns per warp */
#define MIN_RUN 32              /* output rows per warp, at least */
#define MAX_RUN 512

struct DirectSub
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, src_step, dst_pitch, dst_step;
  int width, height;
  int strips, strip_blocks, block0;
  int src_vec, dst_vec;         /* 4-byte loads / stores allowed */
  int rx, ry;
  float ch, cv;                 /* accumulator starts, see above */
  uint16_t wx[CFX_BLUR_MAX_TAPS], wy[CFX_BLUR_MAX_TAPS];        /* fp16 bits */
};

struct DirectParams
{
  int n, run_rows;
  DirectSub s[CFX_BLUR_MAX_SUBS];
};

/* cfx_ref_mirror: reflect without repeating the edge, any distance */
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

/* D = A B + C, m16n8k16, fp16 operands, fp32 accumulators */
__device__ __forceinline__ void
mma16816 (float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1,
    const float c[4])
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f" (d[0]), "=f" (d[1]), "=f" (d[2]), "=f" (d[3])
      : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0), "r" (b1),
      "f" (c[0]), "f" (c[1]), "f" (c[2]), "f" (c[3]));
#else
  /* sm_75: two k8 halves (A registers 0,1 hold k 0..7, 2,3 k 8..15) */
  float e[4];
  asm volatile ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f" (e[0]), "=f" (e[1]), "=f" (e[2]), "=f" (e[3])
      : "r" (a[0]), "r" (a[1]), "r" (b0),
      "f" (c[0]), "f" (c[1]), "f" (c[2]), "f" (c[3]));
  asm volatile ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f" (d[0]), "=f" (d[1]), "=f" (d[2]), "=f" (d[3])
      : "r" (a[2]), "r" (a[3]), "r" (b1),
      "f" (e[0]), "f" (e[1]), "f" (e[2]), "f" (e[3]));
#endif
}

/* two floats as fp16 (round to nearest), lo in the low half */
__device__ __forceinline__ uint32_t
pack_half2 (float lo, float hi)
{
  __half2 h = __floats2half2_rn (lo, hi);
  uint32_t u;
  memcpy (&u, &h, 4);
  return u;
}

/* fp16 bits of tap offset k (zero outside -r .. r) */
__device__ __forceinline__ uint32_t
tap (const uint16_t * w, int r, int k)
{
  return (k >= -r && k <= r) ? w[k + r] : 0u;
}

/* 4 samples at columns x .. x + 3 of a row, through the mirror (a call:
 * inlined, the rare path costs the common one registers) */
__device__ __noinline__ uint32_t
gather4 (const uint8_t * row, int x, int w, int step)
{
  uint32_t u = 0;
#pragma unroll
  for (int b = 0; b < 4; b++)
    u |= (uint32_t) __ldg (row + (size_t) mirror (x + b, w) * step) <<
        (8 * b);
  return u;
}

/* The NK 4-byte pieces of one lane for the 8-row group starting at T row
 * tr: row tr + g (mirrored), columns kbase + 16 j + 4 t .. + 3 */
template < int NK >
__device__ __forceinline__ void
load_group (const DirectSub & s, int tr, int kbase, bool fast, int g, int t,
    uint32_t u[NK])
{
  const uint8_t *row = s.src + (size_t) mirror (tr + g, s.height) *
      s.src_pitch;

  if (fast) {
#pragma unroll
    for (int j = 0; j < NK; j++)
      u[j] = __ldg ((const unsigned *) (row + kbase + 16 * j + 4 * t));
  } else {
#pragma unroll
    for (int j = 0; j < NK; j++)
      u[j] = gather4 (row, kbase + 16 * j + 4 * t, s.width, s.src_step);
  }
}

/* Horizontal pass of one group: T of its 8 rows for the two m-tiles, as
 * fp16 pairs: tv[2 i] = column g of m-tile i, tv[2 i + 1] = column g + 8 */
template < int KB >
__device__ __forceinline__ void
horizontal (const uint32_t u[KB + 1], const uint32_t ah[KB][4], float ch,
    uint32_t tv[4])
{
  uint32_t b0[KB + 1], b1[KB + 1];
  const float c[4] = { ch, ch, ch, ch };

#pragma unroll
  for (int j = 0; j < KB + 1; j++) {
    b0[j] = __byte_perm (u[j], 0x64646464u, 0x4140);
    b1[j] = __byte_perm (u[j], 0x64646464u, 0x4342);
  }
#pragma unroll
  for (int i = 0; i < 2; i++) {
    float d[4];
    mma16816 (d, ah[0], b0[i], b1[i], c);
#pragma unroll
    for (int k = 1; k < KB; k++)
      mma16816 (d, ah[k], b0[i + k], b1[i + k], d);
    tv[2 * i] = pack_half2 (d[0], d[1]);
    tv[2 * i + 1] = pack_half2 (d[2], d[3]);
  }
}

template < int KB >
__global__ void __launch_bounds__ (32 * WARPS, KB <= 3 ? 4 : KB == 4 ? 3 : 2)
blur_direct (const DirectParams p)
{
  constexpr int NK = KB + 1;    /* input k-blocks of a group */
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].block0)
      c = i;
  const DirectSub & s = p.s[c];

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int b = blockIdx.x - s.block0;
  const int run = b / s.strip_blocks;
  const int strip = (b - run * s.strip_blocks) * WARPS + warp;
  if (strip >= s.strips)
    return;

  const int W = s.width, H = s.height;
  const int x0 = strip * STRIP;
  const int y_first = run * p.run_rows;
  const int y_end = min (y_first + p.run_rows, H);
  const int nq = ((y_end - y_first + 15) >> 4) + KB - 1;
  const int kbase = x0 - 8 * (KB - 1);
  const int t0 = y_first - 8 * (KB - 1);
  const bool fast = s.src_vec && kbase >= 0 && kbase + 16 * NK <= W;
  const bool fast_out = s.dst_vec && x0 + STRIP <= W;

  /* A fragments: a0 (m g, k 2t,2t+1), a1 (m g+8, same), a2 (m g, k
   * 2t+8,2t+9), a3 (m g+8, same); low half = lower k. Horizontal: m and k
   * permuted, column of k 2t + 8h + e = 4t + 2h + e, likewise for m. */
  uint32_t ah[KB][4], av[KB][4];
  {
    const int om = 4 * (g >> 1) + (g & 1);
#pragma unroll
    for (int d = 0; d < KB; d++)
#pragma unroll
      for (int i = 0; i < 4; i++) {
        const int mh = i & 1, kh = i >> 1;
        const int dx = 16 * d - 8 * (KB - 1) + 4 * t + 2 * kh - om - 2 * mh;
        const int dy = 16 * d - 8 * (KB - 1) + 2 * t + 8 * kh - g - 8 * mh;
        ah[d][i] = tap (s.wx, s.rx, dx) | tap (s.wx, s.rx, dx + 1) << 16;
        av[d][i] = tap (s.wy, s.ry, dy) | tap (s.wy, s.ry, dy + 1) << 16;
      }
  }
  const float cv[4] = { s.cv, s.cv, s.cv, s.cv };

  /* T blocks: tb[slot][v][h], v = n-tile (2 i + column half), h = group */
  uint32_t tb[KB][4][2];
  uint32_t next0[NK], next1[NK];
  load_group < NK > (s, t0, kbase, fast, g, t, next0);
  load_group < NK > (s, t0 + 8, kbase, fast, g, t, next1);

  for (int q0 = 0; q0 < nq; q0 += KB) {
#pragma unroll
    for (int u = 0; u < KB; u++) {
      const int q = q0 + u;     /* T block q: rows t0 + 16 q .. + 15 */
      if (q >= nq)
        break;
      uint32_t in0[NK], in1[NK], tv[4];
#pragma unroll
      for (int j = 0; j < NK; j++) {
        in0[j] = next0[j];
        in1[j] = next1[j];
      }
      if (q + 1 < nq) {
        load_group < NK > (s, t0 + 16 * q + 16, kbase, fast, g, t, next0);
        load_group < NK > (s, t0 + 16 * q + 24, kbase, fast, g, t, next1);
      }
      horizontal < KB > (in0, ah, s.ch, tv);
#pragma unroll
      for (int v = 0; v < 4; v++)
        tb[u][v][0] = tv[v];
      horizontal < KB > (in1, ah, s.ch, tv);
#pragma unroll
      for (int v = 0; v < 4; v++)
        tb[u][v][1] = tv[v];
      if (q < KB - 1)
        continue;

      /* vertical: output rows y0 .. y0 + 15 from T blocks q - KB + 1 .. q,
       * in slots (u + 1 + e) % KB */
      const int y0 = y_first + 16 * (q - KB + 1);
      uint32_t h[4][2];
#pragma unroll
      for (int v = 0; v < 4; v++) {
        float d[4];
        mma16816 (d, av[0], tb[(u + 1) % KB][v][0], tb[(u + 1) % KB][v][1],
            cv);
#pragma unroll
        for (int e = 1; e < KB; e++)
          mma16816 (d, av[e], tb[(u + 1 + e) % KB][v][0],
              tb[(u + 1 + e) % KB][v][1], d);
        h[v][0] = pack_half2 (d[0], d[1]);
        h[v][1] = pack_half2 (d[2], d[3]);
      }
      /* the low bytes of 1024 + value: columns 4t .. 4t+3 of m-tile i */
#pragma unroll
      for (int r = 0; r < 2; r++) {
        const int y = y0 + g + 8 * r;
        if (y >= y_end)
          continue;
        uint8_t *out = s.dst + (size_t) y * s.dst_pitch;
#pragma unroll
        for (int i = 0; i < 2; i++) {
          const uint32_t word = __byte_perm (h[2 * i][r], h[2 * i + 1][r],
              0x6420);
          const int x = x0 + 16 * i + 4 * t;
          if (fast_out) {
            *(uint32_t *) (out + x) = word;
          } else {
#pragma unroll
            for (int k = 0; k < 4; k++)
              if (x + k < W)
                out[(size_t) (x + k) * s.dst_step] = (uint8_t) (word >>
                    (8 * k));
          }
        }
      }
    }
  }
}

template < int KB >
static cudaError_t
launch (const DirectParams & p, int blocks, cudaStream_t stream)
{
  blur_direct < KB > <<<blocks, 32 * WARPS, 0, stream >>> (p);
  return cudaGetLastError ();
}

/* Blocks of blur_direct<KB> resident at once on the device (cached per
 * device and KB) */
template < int KB >
static int
resident_blocks (void)
{
  static int cached[16];
  int dev = 0, sms = 0, per_sm = 0;

  if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 16)
    return 132 * 2;
  if (!cached[dev]) {
    if (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev)
        != cudaSuccess || sms <= 0)
      sms = 132;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
            blur_direct < KB >, 32 * WARPS, 0) != cudaSuccess || per_sm <= 0)
      per_sm = 2;
    cached[dev] = sms * per_sm;
  }
  return cached[dev];
}

static int
resident (int kb)
{
  switch (kb) {
    case 2:
      return resident_blocks < 2 > ();
    case 3:
      return resident_blocks < 3 > ();
    case 4:
      return resident_blocks < 4 > ();
    case 5:
      return resident_blocks < 5 > ();
    case 6:
      return resident_blocks < 6 > ();
    default:
      return resident_blocks < 7 > ();
  }
}

static int
aligned4 (const void *data, int pitch, int step)
{
  return step == 1 && ((uintptr_t) data % 4) == 0 && pitch % 4 == 0;
}

static uint16_t
half_bits (float f)
{
  __half h = __float2half_rn (f);
  uint16_t u;
  memcpy (&u, &h, 2);
  return u;
}

extern "C" cudaError_t
cfx_blur_direct_launch (const CfxBlurDirect * subs, int n,
    cudaStream_t stream)
{
  DirectParams p;
  int i, r = 0, kb, blocks = 0, run, slots;

  if (n <= 0 || n > CFX_BLUR_MAX_SUBS)
    return cudaErrorInvalidValue;
  memset (&p, 0, sizeof (p));
  for (i = 0; i < n; i++) {
    const CfxBlurDirect *d = &subs[i];
    if (d->rx < 0 || d->rx > CFX_BLUR_DIRECT_MAX_RADIUS || d->ry < 0
        || d->ry > CFX_BLUR_DIRECT_MAX_RADIUS)
      return cudaErrorInvalidValue;
    r = d->rx > r ? d->rx : r;
    r = d->ry > r ? d->ry : r;
  }
  kb = 1 + (r + 7) / 8;
  if (kb < 2)
    kb = 2;

  /* rows per warp: the shortest runs (the most warps) whose blocks all
   * fit on the GPU at once, so that no second partial wave doubles the
   * time; at least the 16 (KB - 1) rows of T a run computes beyond its
   * outputs */
  slots = resident (kb);
  run = 16 * (kb - 1) > MIN_RUN ? 16 * (kb - 1) : MIN_RUN;
  for (; run < MAX_RUN; run += 16) {
    for (i = 0, blocks = 0; i < n; i++)
      blocks += (((subs[i].src.width + STRIP - 1) / STRIP + WARPS - 1) /
          WARPS) * ((subs[i].src.height + run - 1) / run);
    if (blocks <= slots)
      break;
  }
  p.run_rows = run;
  blocks = 0;

  for (i = 0; i < n; i++) {
    const CfxBlurDirect *d = &subs[i];
    DirectSub *s = &p.s[p.n];
    int k;

    if (d->src.width <= 0 || d->src.height <= 0)
      continue;
    s->src = d->src.data;
    s->dst = d->dst.data;
    s->src_pitch = d->src.pitch;
    s->src_step = d->src.step;
    s->dst_pitch = d->dst.pitch;
    s->dst_step = d->dst.step;
    s->width = d->src.width;
    s->height = d->src.height;
    s->strips = (s->width + STRIP - 1) / STRIP;
    s->strip_blocks = (s->strips + WARPS - 1) / WARPS;
    s->block0 = blocks;
    blocks += s->strip_blocks * ((s->height + run - 1) / run);
    s->src_vec = aligned4 (d->src.data, d->src.pitch, d->src.step);
    s->dst_vec = aligned4 (d->dst.data, d->dst.pitch, d->dst.step);
    s->rx = d->rx;
    s->ry = d->ry;
    s->ch = (float) (-1152.0 * d->sum_x);
    s->cv = (float) (1024.0 + 128.0 * d->sum_x * d->sum_y);
    for (k = 0; k <= 2 * d->rx; k++)
      s->wx[k] = half_bits (d->wx[k]);
    for (k = 0; k <= 2 * d->ry; k++)
      s->wy[k] = half_bits (d->wy[k]);
    p.n++;
  }
  if (!p.n)
    return cudaSuccess;

  switch (kb) {
    case 2:
      return launch < 2 > (p, blocks, stream);
    case 3:
      return launch < 3 > (p, blocks, stream);
    case 4:
      return launch < 4 > (p, blocks, stream);
    case 5:
      return launch < 5 > (p, blocks, stream);
    case 6:
      return launch < 6 > (p, blocks, stream);
    default:
      return launch < 7 > (p, blocks, stream);
  }
}
