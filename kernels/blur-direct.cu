/* Direct separable Gaussian, folded radius <= 48 per axis, on the tensor
 * cores, from a shared-memory row pipeline.
 *
 * Floor: read the channel once and write it once: 2 * w * h bytes over the
 * copy bandwidth (4K GRAY8: 16.6 MB, 5.7 us at 2.9 TB/s).
 *
 * Work: a block (4 warps) owns a strip of 128 output columns and a run of
 * rows; it walks down the run 16 rows a step. The input rows of the strip
 * and its column halo (16, 32 or 48 columns a side) come in with 16-byte
 * cp.async copies into a ring of STAGES 16-row slots, STAGES - 1 steps
 * ahead of the step being computed: a block keeps 7.5 KB of reads in
 * flight whatever its warps do, 5 blocks an SM 37 KB (the copy bandwidth
 * times the memory latency is ~25 KB an SM). So the memory parallelism
 * does not come from the number of warps: the registers can hold the T
 * ring and the tap fragments (48 at radius 9), 96 in all, 5 blocks an SM.
 * Rows are mirrored when their copies are issued; columns outside the
 * channel are filled once per slot from the mirrored columns already in
 * shared memory (only the two border strips do that, plus one barrier a
 * step). The hot loop has no border logic and no global loads; every
 * block has the same work (runs are equal but the last), so no strip
 * lags behind the others.
 *
 * Maths: products with banded Toeplitz matrices of taps (T = X H, Out =
 * V T), one mma.m16n8k16 = 2048 multiply-adds. The fragment layouts (PTX
 * m16n8k16: g = lane / 4, t = lane % 4) are chained so that no data moves
 * between lanes:
 *   horizontal  D[m, n] = sum_k H[m, k] X[k, n]: n = 8 input rows, k = 16
 *               input columns, m = 16 output columns. Lane (g, t) holds B
 *               = columns 2t, 2t+1, 2t+8, 2t+9 of row g; we let logical k
 *               2t, 2t+1, 2t+8, 2t+9 be the physical columns 4t .. 4t+3,
 *               so one 4-byte shared load and two byte_perms make a B
 *               fragment (0x64 as high byte: fp16 1024 + sample, exact).
 *               The taps H follow the same permutation, of k and of m.
 *   vertical    Out[m', n'] = sum_k' V[m', k'] T[k', n']: B holds rows
 *               2t, 2t+1 (+8) of column g, which is exactly what the
 *               horizontal D of lane (g, t) holds (column m = g or g + 8,
 *               rows 2t, 2t+1), packed to fp16. 16 T rows = two
 *               horizontal row groups.
 *   output      Out lane (g, t): rows g, g + 8, columns n' = 2t, 2t+1 of
 *               two n-tiles = physical columns 4t .. 4t+3 of an m-tile (the
 *               permutation again): one 4-byte word per row and m-tile,
 *               through a 512-byte shared stage per warp to one 16-byte
 *               store per lane (16 rows x 32 columns a warp a step).
 * A warp's step computes one new 16-row block of T for its 32 columns
 * (2 groups x 2 m-tiles x KB mma) and 16 output rows (4 n-tiles x KB mma);
 * the last KB blocks of T stay in registers (a ring, indices fixed at
 * compile time by unrolling KB steps). KB = 1 + ceil(radius / 8) k-blocks
 * of 16 cover 16 outputs and their 2 radius neighbours; a window starts
 * 8 (KB - 1) before its outputs.
 *
 * Cost at radius 9 (sigma 3, KB 3), per warp step (512 outputs), PTX of
 * the steady loop: 115 instructions: 24 mma, 20 byte_perms, 16 fp16
 * packs, 9 shared loads, 4 shared stores, 1 16-byte store, 2 cp.async and
 * ~39 address, loop and barrier instructions: 7.2 a pixel, against the ~25
 * a pixel an H100 issues at copy speed (KB 2: 105, KB 5: 137, KB 7: 173).
 * Runs of R rows compute T for R + 16 (KB - 1) rows: runs are as short
 * as keeps every block resident at once (4K GRAY8: 112 rows, 600 blocks
 * of 660 slots, 1.29x the horizontal work; 0.054 mma a pixel, 3.4 k mma
 * an SM, ~2.8 us of tensor pipe at 0.7 mma a clock and SM, and ~2.4 us of
 * issue: both under the 5.7 us of memory time).
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
 * Sharpening (blur.h) takes the 16 output bytes of a lane before their
 * store and the same 16 bytes of the source row, read again (from L2: the
 * block copied them into its ring moments before, and the ring slot may
 * be reused since), one 16-byte load a lane and step.
 *
 * Channels that are not 16-byte aligned (or have step > 1) load their
 * slots byte by byte instead (same layout, no cp.async; a kernel of its
 * own, used when a launch has such a channel); stores that are not
 * 16-byte aligned, or reach past the channel, go byte by byte. */
#include "blur-internal.h"

#include <cuda_fp16.h>
#include <string.h>

#define WARPS 4                 /* strips of 32 columns a block */
#define THREADS (32 * WARPS)
#define TILE_W (32 * WARPS)     /* output columns a block */
#define MIN_RUN 32              /* output rows a block, at least */
#define MAX_RUN 1024

/* Geometry of the input slots for KB k-blocks */
template < int KB > struct Slot
{
  /* columns (and rows) a window reaches past its outputs */
  static constexpr int HALO = 8 * (KB - 1);
  /* loaded halo: 16-byte chunks */
  static constexpr int HX = (HALO + 15) & ~15;
  static constexpr int CW = TILE_W + 2 * HX;    /* loaded columns */
  static constexpr int CHUNKS = CW / 16;
  /* row pitch = 16 mod 32: the 8 rows x 16 bytes of a warp's 4-byte
   * loads fall in 32 different banks */
  static constexpr int PITCH = CW + 16;
  static constexpr int BYTES = 16 * PITCH;
  /* 16-row slots in the ring: STAGES - 1 in flight (the large radii run
   * fewer blocks an SM, each keeps more rows in flight) */
  static constexpr int STAGES = KB <= 4 ? 4 : KB == 5 ? 5 : 6;
  /* blocks an SM the registers must allow (KB <= 3: 96 registers, 4 and
   * 5: 128, 6 and 7: 255; the tap fragments and the T ring take 16 KB;
   * ptxas -v: 84, 96, 122, 128, 208, 224 without spills) */
  static constexpr int MIN_BLOCKS = KB <= 3 ? 5 : KB <= 5 ? 4 : 2;
};

struct DirectSub
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, src_step, dst_pitch, dst_step;
  int width, height;
  int strips, block0;
  int src_vec, dst_vec;         /* 16-byte copies / stores allowed */
  int amount;                   /* CFX_BLUR_NO_SHARPEN, or the unsharp mask's */
  int rx, ry;
  float ch, cv;                 /* accumulator starts, see above */
  uint16_t wx[CFX_BLUR_MAX_TAPS], wy[CFX_BLUR_MAX_TAPS];        /* fp16 bits */
};

struct DirectParams
{
  int n, run_rows;
  DirectSub s[CFX_BLUR_MAX_SUBS];
};

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

/* fp16 bits of tap offset k (zero outside -r .. r) */
__device__ __forceinline__ uint32_t
tap (const uint16_t * w, int r, int k)
{
  return (k >= -r && k <= r) ? w[k + r] : 0u;
}

/* Rows y0 .. y0 + 15 (mirrored), columns [lo, hi) of the window starting
 * at column xs, byte by byte: channels the 16-byte copies cannot read
 * (packed components, odd pitches). Columns tid and tid + THREADS of 4
 * rows at a time: 8 loads in flight a thread (few registers: the ring
 * and the taps stay live through this). */
template < int KB >
__device__ __forceinline__ void
load_slot_bytes (const uint8_t * src, int pitch, int step, int height,
    uint8_t * slot, int y0, int xs, int lo, int hi)
{
  typedef Slot < KB > G;
  const int n = hi - lo;        /* <= CW <= 2 THREADS */

#pragma unroll 1
  for (int h = 0; h < 16; h += 4) {
    uint8_t v[4][2];
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const uint8_t *row = src + (size_t) mirror (y0 + h + r, height) * pitch;
#pragma unroll
      for (int k = 0; k < 2; k++) {
        const int c = threadIdx.x + k * THREADS;
        v[r][k] = c < n ? __ldg (row + (size_t) (lo + c) * step) : 0;
      }
    }
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
      for (int k = 0; k < 2; k++) {
        const int c = threadIdx.x + k * THREADS;
        if (c < n)
          slot[(h + r) * G::PITCH + lo + c - xs] = v[r][k];
      }
  }
}

/* Where a block works, and this thread's share of a slot's copies: the
 * 16-byte chunk column cc of rows r0 and r0 + 8 (threads from 8 * CHUNKS
 * on copy nothing): the chunk at window column 16 cc (smem: its offset in
 * a slot), channel column x, holds @bytes samples (0: it lies outside the
 * channel; the last one may hold fewer than 16, its tail is zeroed and
 * later filled like the columns outside). Few fields: they stay in
 * registers through the loop. */
struct Place
{
  int xs;                       /* channel column of window column 0 */
  int nq;                       /* T blocks (steps) */
  int row0;                     /* t0 + r0: T block 0 starts at row t0 */
  int smem, x, bytes;
  bool outside;                 /* the window reaches past the channel */
};

__device__ __forceinline__ int
window_lo (const Place & pl)
{
  return max (pl.xs, 0);
}

template < int KB >
__device__ __forceinline__ int
window_hi (const Place & pl, int width)
{
  return min (width, pl.xs + Slot < KB >::CW);
}

/* Issue the copies of T block q's rows (mirrored) into a slot. BYTES:
 * some sub-channel of the launch cannot be copied 16 bytes at a time (a
 * kernel of its own: the byte path costs the 16-byte one registers) */
template < int KB, bool BYTES >
__device__ __forceinline__ void
load_slot (const DirectSub & s, const Place & pl, uint8_t * slot, int q)
{
  typedef Slot < KB > G;

  if (BYTES && !s.src_vec) {
    load_slot_bytes < KB > (s.src, s.src_pitch, s.src_step, s.height, slot,
        pl.row0 - (int) threadIdx.x / G::CHUNKS + 16 * q, pl.xs,
        window_lo (pl), window_hi < KB > (pl, s.width));
    return;
  }
  if (pl.bytes) {
#pragma unroll
    for (int h = 0; h < 2; h++)
      cp_async16 (slot + pl.smem + 8 * h * G::PITCH, s.src + (size_t) mirror
          (pl.row0 + 16 * q + 8 * h, s.height) * s.src_pitch + pl.x,
          pl.bytes);
  }
}

/* Columns of a slot outside the channel ([lo, hi) holds its samples):
 * the mirrored column, which the valid outputs only ever need within one
 * reflection (their taps reach at most the folded radius <= width - 1, so
 * the mirrored column lies in [lo, hi)); other columns get any sample (they
 * meet zero taps only). Reads [lo, hi), writes outside it: no overlap. */
template < int KB >
__device__ __forceinline__ void
fill_outside (uint8_t * slot, int xs, int lo, int hi, int width)
{
  typedef Slot < KB > G;
  const int left = lo - xs, right = xs + G::CW - hi, n = left + right;

  for (int i = threadIdx.x; i < 16 * n; i += THREADS) {
    const int r = i / n, k = i - r * n;
    const int j = k < left ? k : G::CW - right + (k - left);
    const int x = xs + j;
    int m = x < 0 ? -x : 2 * (width - 1) - x;
    m = min (max (m, lo), hi - 1);
    slot[r * G::PITCH + j] = slot[r * G::PITCH + m - xs];
  }
}

/* Horizontal pass of one 8-row group: T of its 8 rows for the two m-tiles,
 * as fp16 pairs: tv[2 i] = column g of m-tile i, tv[2 i + 1] = column
 * g + 8 */
template < int KB >
__device__ __forceinline__ void
horizontal (const uint8_t * row, const uint32_t ah[KB][4], float ch,
    uint32_t tv[4])
{
  uint32_t b0[KB + 1], b1[KB + 1];
  const float c[4] = { ch, ch, ch, ch };

#pragma unroll
  for (int j = 0; j < KB + 1; j++) {
    const uint32_t u = *(const uint32_t *) (row + 16 * j);
    b0[j] = __byte_perm (u, 0x64646464u, 0x4140);
    b1[j] = __byte_perm (u, 0x64646464u, 0x4342);
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

/* One step's input side: wait for slot q, issue the copies of slot
 * q + STAGES - 1, fill slot q's columns outside the channel, and compute T
 * block q (rows t0 + 16 q .. + 15) for this warp's 32 columns */
template < int KB, bool BYTES >
__device__ __forceinline__ void
step_in (const DirectSub & s, uint8_t (*in_s)[Slot < KB >::BYTES],
    const Place & pl, int q, int lane_col, const uint32_t ah[KB][4],
    uint32_t tq[4][2])
{
  typedef Slot < KB > G;
  const int g = (threadIdx.x & 31) >> 2;

  /* slot q has landed (this thread's copies; the barrier: everyone's) and
   * every warp is done with slot q - 1, which takes q + STAGES - 1 */
  cp_async_wait < G::STAGES - 2 > ();
  __syncthreads ();
  if (q + G::STAGES - 1 < pl.nq)
    load_slot < KB, BYTES > (s, pl, in_s[(q + G::STAGES - 1) % G::STAGES],
        q + G::STAGES - 1);
  cp_async_commit ();
  uint8_t *slot = in_s[q % G::STAGES];
  if (pl.outside) {
    fill_outside < KB > (slot, pl.xs, window_lo (pl),
        window_hi < KB > (pl, s.width), s.width);
    __syncthreads ();
  }

  uint32_t tv[4];
  horizontal < KB > (slot + g * G::PITCH + lane_col, ah, s.ch, tv);
#pragma unroll
  for (int v = 0; v < 4; v++)
    tq[v][0] = tv[v];
  horizontal < KB > (slot + (8 + g) * G::PITCH + lane_col, ah, s.ch, tv);
#pragma unroll
  for (int v = 0; v < 4; v++)
    tq[v][1] = tv[v];
}

/* 16 output bytes at column x of a row, byte by byte (unaligned or
 * strided channels, the last columns) */
__device__ __forceinline__ void
store_bytes (uint8_t * out, int x, int width, int step, uint4 word)
{
#pragma unroll
  for (int k = 0; k < 16; k++) {
    const uint32_t w = k < 4 ? word.x : k < 8 ? word.y : k < 12 ? word.z :
        word.w;
    if (x + k < width)
      out[(size_t) (x + k) * step] = (uint8_t) (w >> (8 * (k % 4)));
  }
}

template < int KB, bool BYTES >
__global__ void
__launch_bounds__ (THREADS, Slot < KB >::MIN_BLOCKS - (BYTES && KB <= 3))
blur_direct (const DirectParams p)
{
  typedef Slot < KB > G;
  __shared__ __align__ (16) uint8_t in_s[G::STAGES][G::BYTES];
  __shared__ __align__ (16) uint8_t out_s[WARPS][16 * 32];

  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].block0)
      c = i;
  const DirectSub & s = p.s[c];

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int b = blockIdx.x - s.block0;
  const int run = b / s.strips, strip = b - run * s.strips;
  const int W = s.width;
  const int x0 = strip * TILE_W;
  const int y_first = run * p.run_rows;
  const int y_end = min (y_first + p.run_rows, s.height);
  Place pl;

  pl.xs = x0 - G::HX;
  pl.outside = pl.xs < 0 || pl.xs + G::CW > W;
  /* T blocks q = 0 .. nq - 1: rows t0 + 16 q .. + 15 (nq >= KB) */
  pl.nq = ((y_end - y_first + 15) >> 4) + KB - 1;
  {
    const int t0 = y_first - G::HALO, cc = threadIdx.x % G::CHUNKS;
    const int r0 = threadIdx.x / G::CHUNKS, hi = window_hi < KB > (pl, W);

    pl.row0 = t0 + r0;
    pl.x = pl.xs + 16 * cc;
    pl.smem = r0 * G::PITCH + 16 * cc;
    /* x is a multiple of 16: the chunk holds samples if 0 <= x < hi */
    pl.bytes = r0 < 8 && pl.x >= 0 && pl.x < hi ? min (16, hi - pl.x) : 0;
  }

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
        const int dx = 16 * d - G::HALO + 4 * t + 2 * kh - om - 2 * mh;
        const int dy = 16 * d - G::HALO + 2 * t + 8 * kh - g - 8 * mh;
        ah[d][i] = tap (s.wx, s.rx, dx) | tap (s.wx, s.rx, dx + 1) << 16;
        av[d][i] = tap (s.wy, s.ry, dy) | tap (s.wy, s.ry, dy + 1) << 16;
      }
  }
  /* this lane's 4-byte column in a slot row: window of warp's m-tile 0 */
  const int lane_col = 32 * warp + G::HX - G::HALO + 4 * t;
  /* this lane's 16 output bytes in the stage, and in the channel */
  const int out_row = lane >> 1, out_x = x0 + 32 * warp + 16 * (lane & 1);
  uint8_t *stage = out_s[warp];

#pragma unroll
  for (int q = 0; q < G::STAGES - 1; q++) {
    if (q < pl.nq)
      load_slot < KB, BYTES > (s, pl, in_s[q], q);
    cp_async_commit ();
  }

  /* the ring of T blocks: tb[q % KB][v][h], v = n-tile (2 i + column
   * half), h = group (a loop unrolled KB times keeps the indices fixed) */
  uint32_t tb[KB][4][2];

  for (int q0 = 0; q0 < pl.nq; q0 += KB) {
#pragma unroll
    for (int u = 0; u < KB; u++) {
      const int q = q0 + u;
      if (q >= pl.nq)
        break;
      step_in < KB, BYTES > (s, in_s, pl, q, lane_col, ah, tb[u]);
      if (q < KB - 1)
        continue;

      /* vertical: output rows y0 .. y0 + 15 from T blocks q - KB + 1 .. q,
       * in ring slots (u + 1 + e) % KB; n-tiles 2 i and 2 i + 1 make
       * columns 4t .. 4t+3 of m-tile i: the low bytes of 1024 + value,
       * through the warp's stage to 16 bytes a lane */
#pragma unroll
      for (int i = 0; i < 2; i++) {
        uint32_t h[2][2];
#pragma unroll
        for (int mh = 0; mh < 2; mh++) {
          const int v = 2 * i + mh;
          const float cv[4] = { s.cv, s.cv, s.cv, s.cv };
          float d[4];
          mma16816 (d, av[0], tb[(u + 1) % KB][v][0],
              tb[(u + 1) % KB][v][1], cv);
#pragma unroll
          for (int e = 1; e < KB; e++)
            mma16816 (d, av[e], tb[(u + 1 + e) % KB][v][0],
                tb[(u + 1 + e) % KB][v][1], d);
          h[mh][0] = pack_half2 (d[0], d[1]);
          h[mh][1] = pack_half2 (d[2], d[3]);
        }
#pragma unroll
        for (int r = 0; r < 2; r++)
          *(uint32_t *) (stage + (g + 8 * r) * 32 + 16 * i + 4 * t) =
              __byte_perm (h[0][r], h[1][r], 0x6420);
      }
      __syncwarp ();
      uint4 word = *(const uint4 *) (stage + 16 * lane);
      const int y = y_first + 16 * (q - KB + 1) + out_row;
      if (y < y_end && out_x < W) {
        uint8_t *out = s.dst + (size_t) y * s.dst_pitch;
        /* sharpening: the row's source bytes, read again (from L2) */
        if (s.amount != CFX_BLUR_NO_SHARPEN)
          word = sharpen_bytes16 (word, s.src + (size_t) y * s.src_pitch,
              out_x, W, s.src_step, s.src_vec, s.amount);
        if (s.dst_vec && out_x + 16 <= W)
          *(uint4 *) (out + out_x) = word;
        else
          store_bytes (out, out_x, W, s.dst_step, word);
      }
    }
  }
}

/* Blocks of blur_direct<KB, BYTES> resident at once on the device (cached
 * per device) */
template < int KB, bool BYTES >
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
            blur_direct < KB, BYTES >, THREADS, 0) != cudaSuccess
        || per_sm <= 0)
      per_sm = 2;
    cached[dev] = sms * per_sm;
  }
  return cached[dev];
}

/* The kernel for KB k-blocks: its resident blocks (into *resident), or
 * its launch (resident NULL) */
template < int KB >
static cudaError_t
with_kb (const DirectParams * p, int blocks, bool bytes, int *resident,
    cudaStream_t stream)
{
  if (resident) {
    *resident = bytes ? resident_blocks < KB, true > () :
        resident_blocks < KB, false > ();
    return cudaSuccess;
  }
  if (bytes)
    return cfx_launch (blur_direct < KB, true >, blocks, THREADS, 0, stream,
        *p);
  return cfx_launch (blur_direct < KB, false >, blocks, THREADS, 0, stream,
      *p);
}

static cudaError_t
dispatch (int kb, const DirectParams * p, int blocks, bool bytes,
    int *resident, cudaStream_t stream)
{
  switch (kb) {
    case 2:
      return with_kb < 2 > (p, blocks, bytes, resident, stream);
    case 3:
      return with_kb < 3 > (p, blocks, bytes, resident, stream);
    case 4:
      return with_kb < 4 > (p, blocks, bytes, resident, stream);
    case 5:
      return with_kb < 5 > (p, blocks, bytes, resident, stream);
    case 6:
      return with_kb < 6 > (p, blocks, bytes, resident, stream);
    default:
      return with_kb < 7 > (p, blocks, bytes, resident, stream);
  }
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
  int i, r = 0, kb, blocks = 0, run, slots = 0;
  bool bytes = false;

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
    if (d->src.width > 0 && d->src.height > 0)
      bytes |= !cfx_aligned (d->src.data, d->src.pitch, d->src.step, 16);
  }
  kb = 1 + (r + 7) / 8;
  if (kb < 2)
    kb = 2;

  /* rows per block: the shortest runs (the most blocks) that all fit on
   * the GPU at once, so that no second partial wave doubles the time; at
   * least the 16 (KB - 1) rows of T a run computes beyond its outputs */
  dispatch (kb, NULL, 0, bytes, &slots, stream);
  run = 16 * (kb - 1) > MIN_RUN ? 16 * (kb - 1) : MIN_RUN;
  for (; run < MAX_RUN; run += 16) {
    for (i = 0, blocks = 0; i < n; i++)
      if (subs[i].src.width > 0 && subs[i].src.height > 0)
        blocks += ((subs[i].src.width + TILE_W - 1) / TILE_W) *
            ((subs[i].src.height + run - 1) / run);
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
    s->strips = (s->width + TILE_W - 1) / TILE_W;
    s->block0 = blocks;
    blocks += s->strips * ((s->height + run - 1) / run);
    s->src_vec = cfx_aligned (d->src.data, d->src.pitch, d->src.step, 16);
    s->dst_vec = cfx_aligned (d->dst.data, d->dst.pitch, d->dst.step, 16);
    s->amount = d->amount;
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
  return dispatch (kb, &p, blocks, bytes, NULL, stream);
}
