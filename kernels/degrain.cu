/* Degrain: undecimated ("a trous") wavelet, per-band shrinkage, plain sum.
 * Definition: tests/reference/degrain.c (the GPU matches it within 1 per
 * output sample; soft and identity are the same float operations in the
 * same order, Wiener differs only by float vs double in the window mean).
 *
 * One fused kernel per level, for every channel of the frame in one grid
 * (channels are flattened into one list of tiles). A block owns a T x T
 * tile of outputs and keeps everything else in shared memory:
 *
 *   A  load the low band C (the input at level 0) over the tile plus
 *      a halo of 4 (the Wiener window) plus R = 1 << level (the split),
 *      with mirrored coordinates. Where the tile's columns need no mirror
 *      and its whole aligned chunks lie inside the row (the inner tiles of
 *      a row: not the first, and not the last one or two, nor any tile of
 *      a plane too narrow for them) the rows go in aligned chunks of 4
 *      samples: cp.async of 16 bytes for the float bands of
 *      later levels, one 4- or 8-byte load converted on the way at level 0
 *      (planar, aligned planes); else sample by sample;
 *   B  split it horizontally into L and H over the rows A loaded and the
 *      tile plus 4 columns (level 0 also flags, per element, whether one
 *      of the 3 samples it read is clipped, for the estimate);
 *   C  (Wiener) split L and H vertically into LH, HL and HH over the tile
 *      plus 4, square them and sum 9 rows: one thread per column and 8
 *      rows, sliding down in registers;
 *   D  per output: sum 9 columns of C's sums (the 9x9 mean of w^2; a
 *      thread's windows share their middle columns: 6 of 9 for 4 outputs
 *      a thread, 8 for the 2 of levels 5 to 7), split again at
 *      the output (cheaper than keeping the bands), shrink, add to the
 *      running sum of the shrunk bands, and write the next level's low
 *      band and that sum, or at the last level the result.
 *
 * Samples of 9 to 16 bits (bytes 2, any shift) are read as value / 2^(depth
 * - 8), so the transform, the thresholds (sigma in 8-bit units) and the
 * estimate work in 8-bit units at any depth; scaling by a power of two is
 * exact in float, so this is the same arithmetic as working in the
 * format's own units with sigma scaled. The result goes back times
 * 2^(depth - 8), rounded, clipped to the depth, unused bits 0.
 *
 * Mirrored loads make the whole tile mirror-consistent: the band computed
 * at an outside coordinate X from mirrored samples equals the band at
 * mirror (X) (mirror is even and periodic, so {m(X+R), m(X-R)} equals
 * {m(m(X)+R), m(m(X)-R)}), which is what the reference's mirrored window
 * reads. No band image ever goes to global memory.
 *
 * Large radii: only the rows and columns X, X - R and X + R of the tile
 * are needed. The C tile holds them as three strips per axis, which
 * overlap into one span while R < T + 8 (offset D = min (R, T + 8)).
 *
 * Floor and traffic. The operation must read and write each sample once
 * (2 bytes per 8-bit sample, 4 per 16-bit). The transform moves, per
 * sample: level 0 reads 1 byte and writes 8 (low band, sum), a middle level
 * reads 8 and writes 8, the last level reads 9 and writes 1 (2 more bytes
 * at 16 bits): 4K I420 with 5 levels is 12.4 Msamples x 67 bytes = 834 MB,
 * 0.29 ms at 2.9 TB/s. The halo reads come from L2 (a tile of 32 at R = 16
 * reads 5x its area). The kernels are bound by instructions, not bytes:
 * Nsight Compute (H200, 4K I420, 5 levels) shows 59-71% occupancy, about
 * 3 instructions issued a cycle per SM and DRAM under 40% busy; a middle
 * level executes about 190 instructions per output sample (A 33, B 33,
 * C 46, D 77), level 0 and the last level about 270 (the estimate; the
 * output's rounding and clipping). Fewer instructions is what makes them
 * faster; storing LL and the sum as fp16 (within the quality budget:
 * degrain.md) would halve the middle levels' DRAM bytes, which are not
 * what limits them now (not tried). Next, by the profile: wider tiles
 * (64 x 32 outputs: phases B and C work on 1.55 and 1.41 elements per
 * output instead of 1.72 and 1.56), phase C computing each band row once
 * instead of twice (K = 16 rows a thread broke the prefix/suffix sums,
 * which need K <= 8: tried, test-degrain caught it), the estimate's
 * histogram atomics, and several levels in one kernel.
 *
 * Noise estimate (tests/reference/degrain-estimator.md): at level 0 every
 * 32 x 32 tile histograms |16 * HH0| (exact in float: integers at 8 bits,
 * rounded to nearest from the quarters and finer of deeper samples) of its
 * valid samples in shared memory and writes its lower median; a one-block
 * kernel per channel takes the 10th percentile of the tile medians, as an
 * integer, exactly as the reference does. */
#include "cudafx-kernels.h"
#include "degrain-testing.h"
#include "kernel-helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WR CFX_DEGRAIN_WIENER_RADIUS    /* 4 */
#define WIN (2 * WR + 1)                /* 9 */
#define EST_TILE CFX_DEGRAIN_EST_TILE   /* 32 */
#define EST_BINS 2048   /* |16 * HH0| is 0 .. 2040 (8-bit), < 2048 deeper */
#define EST_PERCENTILE_DEN 10
#define PERC_THREADS 1024

/* ---- scratch --------------------------------------------------------- */

struct _CfxDegrainScratch
{
  int n;
  int width[CFX_DEGRAIN_MAX_CHANNELS];
  int height[CFX_DEGRAIN_MAX_CHANNELS];
  int fpitch[CFX_DEGRAIN_MAX_CHANNELS]; /* floats, a multiple of 32 */
  float *low[CFX_DEGRAIN_MAX_CHANNELS][2];      /* ping-pong low band */
  float *acc[CFX_DEGRAIN_MAX_CHANNELS]; /* sum of the shrunk bands */
  int *tile_med;                /* per estimate tile: median or -1 */
  int tile_off[CFX_DEGRAIN_MAX_CHANNELS];
  int tiles[CFX_DEGRAIN_MAX_CHANNELS];
  int *result;                  /* per channel: the percentile M */
  void *mem;
  size_t bytes;
  int keep_float;               /* tests: cfx_degrain_keep_float () */
};

/* ---- kernel arguments ------------------------------------------------ */

struct LevelChannel
{
  const uint8_t *src;
  uint8_t *dst;
  const float *cur;             /* the low band to split (levels > 0) */
  float *next;                  /* its LL (not the last level) */
  float *acc;
  int *tile_med;
  int src_pitch, src_step, dst_pitch, dst_step;
  /* samples: 1 or 2 bytes, depth bits at shift; the transform works in
   * 8-bit units (sample * to8, a power of two: exact), the output goes back
   * by from8 and is clipped to top */
  int bytes, shift;
  unsigned mask;
  float to8, from8, top, top8;
  int width, height, fpitch;
  int blocks_x, block_start;
  float inv_blocks_x;           /* 1 / blocks_x, for the tile's row */
  int vec;                      /* input rows readable 4 samples at once */
  int dst_vec;                  /* output rows writable 4 samples at once */
  int est_tiles_x, est_tiles_y, est_tw, est_th;
  float sb[3], sb2[3];          /* thresholds of LH, HL, HH and squares */
};

struct LevelArgs
{
  LevelChannel ch[CFX_DEGRAIN_MAX_CHANNELS];
  int n_channels;
  int shrink;
  int last;
  int output_noise;
  int keep_float;
  float amount;
  const float *sigma_scale;     /* NULL: 1 */
};

struct PercentileArgs
{
  const int *tile_med;
  int *result;
  int off[CFX_DEGRAIN_MAX_CHANNELS];
  int count[CFX_DEGRAIN_MAX_CHANNELS];
};

/* ---- device helpers -------------------------------------------------- */

/* The input sample at @p in 8-bit units (unused bits ignored) */
__device__ __forceinline__ float
load_at (const LevelChannel & ch, const uint8_t * p)
{
  if (ch.bytes == 1)
    return __ldg (p);
  return (float) ((__ldg ((const uint16_t *) p) >> ch.shift) & ch.mask) *
      ch.to8;
}

/* Sample (x, y) of the channel's input in 8-bit units */
__device__ __forceinline__ float
load_sample (const LevelChannel & ch, int x, int y)
{
  return load_at (ch, ch.src + (size_t) y * ch.src_pitch + (size_t) x *
      ch.src_step);
}

/* A rounded, clipped output value (0 .. top) into the channel's output,
 * unused bits 0 */
__device__ __forceinline__ void
store_sample (const LevelChannel & ch, int x, int y, float o)
{
  uint8_t *p = ch.dst + (size_t) y * ch.dst_pitch + (size_t) x * ch.dst_step;

  if (ch.bytes == 1)
    *p = (uint8_t) o;
  else
    *(uint16_t *) p = (uint16_t) ((unsigned) o << ch.shift);
}

/* The output sample (0 .. top, a whole number) for input @in and
 * transform result @r, both in 8-bit units */
__device__ __forceinline__ float
output_value (const LevelChannel & ch, const LevelArgs & a, float in, float r)
{
  /* no contraction: the reference rounds the product */
  const float blended = __fadd_rn (in, __fmul_rn (a.amount, r - in));
  float o;

  /* back to the sample's units (times a power of two: exact) */
  if (a.output_noise)
    o = roundf ((in - blended) * ch.from8) + 128.f * ch.from8;
  else
    o = roundf (blended * ch.from8);
  return fminf (fmaxf (o, 0.f), ch.top);
}

/* Tile coordinate (relative to the tile's first output) of index i of the
 * C tile along one axis: three strips of TE at -R, 0, +R around the band
 * tile [-WR, T + WR), merged into one span when D == R. */
template < int R, int TE, int D > __device__ __forceinline__ int
strip_coord (int i)
{
  if (D == R)
    return i - WR - R;
  int s = i / TE;
  return i - s * TE - WR + (s - 1) * R;
}

/* One split, exactly the reference's float operations */
__device__ __forceinline__ float
split_high (float x, float p, float m)
{
  return (x - (p + m) * 0.5f) * 0.5f;
}

/* (row, column) of element i = tid, tid + NT, tid + 2 NT ... of a W-wide
 * tile, stepped without dividing again */
template < int W, int NT > struct TileWalk
{
  int r, c;
  __device__ __forceinline__ explicit TileWalk (int tid)
  : r (tid / W), c (tid % W)
  {
  }
  __device__ __forceinline__ void next ()
  {
    r += NT / W;
    c += NT % W;
    if (c >= W) {
      c -= W;
      r++;
    }
  }
};

/* x * (1 / y) as __fdividef computes it (MUFU.RCP, FMUL) without its
 * range checks: y must be a normal float below 2^126 */
__device__ __forceinline__ float
fast_ratio (float x, float y)
{
  float r;
  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f" (r) : "f" (y));
  return x * r;
}

/* Inclusive block scan of one int per thread; *total gets the sum */
template < int NT > __device__ __forceinline__ int
block_scan (int v, int *s_warp, int *total)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int NW = NT / 32;
  int o;

#pragma unroll
  for (o = 1; o < 32; o <<= 1) {
    int n = __shfl_up_sync (0xffffffffu, v, o);
    if (lane >= o)
      v += n;
  }
  if (lane == 31)
    s_warp[warp] = v;
  __syncthreads ();
  if (warp == 0) {
    int wv = lane < NW ? s_warp[lane] : 0;
#pragma unroll
    for (o = 1; o < 32; o <<= 1) {
      int n = __shfl_up_sync (0xffffffffu, wv, o);
      if (lane >= o)
        wv += n;
    }
    if (lane < NW)
      s_warp[lane] = wv;
  }
  __syncthreads ();
  *total = s_warp[NW - 1];
  return v + (warp > 0 ? s_warp[warp - 1] : 0);
}

/* The smallest bin whose cumulative count exceeds rank, from a histogram
 * of EST_BINS bins in shared memory; every thread of the block calls it
 * and the one that finds it returns the bin (the others -1). */
template < int NT > __device__ __forceinline__ int
histogram_select (const int *hist, int rank, int *s_warp, int *total)
{
  constexpr int BPT = EST_BINS / NT;
  const int base = threadIdx.x * BPT;
  int local = 0, incl, excl, j;

#pragma unroll
  for (j = 0; j < BPT; j++)
    local += hist[base + j];
  incl = block_scan < NT > (local, s_warp, total);
  excl = incl - local;
  if (rank < 0 || rank < excl || rank >= incl)
    return -1;
  for (j = 0; j < BPT; j++) {
    excl += hist[base + j];
    if (excl > rank)
      return base + j;
  }
  return -1;
}

/* ---- the level kernel ------------------------------------------------ */

template < int M > struct FloatVec;
template <> struct FloatVec <4 >
{
  typedef float4 T;
};
template <> struct FloatVec <2 >
{
  typedef float2 T;
};

template < int R, int T, int NT, bool EST > __global__ void
__launch_bounds__ (NT)
degrain_level (const __grid_constant__ LevelArgs a)
{
  constexpr int TE = T + 2 * WR;        /* band tile: outputs + window halo */
  constexpr int D = R < TE ? R : TE;    /* strip offset in the C tile */
  constexpr int CN = TE + 2 * D;        /* C tile rows and columns */
  /* The C tile's rows are loaded as chunks of 4 samples where the span is
   * contiguous (D == R), from the aligned column PAD before it; the pitch
   * then is whole chunks (16 bytes) */
  constexpr bool VEC = D == R;
  constexpr int PAD = VEC ? (4 - D % 4) % 4 : 0;
  constexpr int CHUNKS = (PAD + CN + 3) / 4;
  constexpr int CP = VEC ? 4 * CHUNKS : CN | 1; /* odd: no bank conflicts */
  constexpr int BP = TE | 1;
  constexpr int K = T == 32 ? 8 : 4;    /* rows per thread in phase C */
  constexpr int M = T * T / NT;         /* outputs per thread in phase D */
  constexpr int SEGS = T / M;
  constexpr int C_SIZE = CN * CP + PAD;
  constexpr int V_SIZE = 3 * T * BP;
  /* C is dead once L and H exist, so the window sums V reuse it (the
   * estimate's clipped-sample flags are taken in phase B) */
  constexpr int R1 = C_SIZE > V_SIZE ? C_SIZE : V_SIZE;
  /* TileWalk loops: iterations, and those with every thread in the tile */
  constexpr int A_ITER = (CN * CHUNKS + NT - 1) / NT;
  constexpr int A_FULL = CN * CHUNKS / NT;
  constexpr int B_ITER = (CN * TE + NT - 1) / NT, B_FULL = CN * TE / NT;
  typedef typename FloatVec < M >::T vec;

  __shared__ __align__ (16) float s_r1[R1];
  __shared__ float s_lh[2 * CN * BP];
  __shared__ int s_hist[EST ? EST_BINS : 1];
  /* estimate: 1 where one of the 3 samples a horizontal split read is
   * clipped (0 or the top), per phase-B element */
  __shared__ uint8_t s_clip[EST ? CN * TE : 1];
  __shared__ int s_warp[NT / 32];

  float *const s_c = s_r1 + PAD;
  /* the temporal degrain's noise scale: exactly 1 (no change) without */
  const float scale = a.sigma_scale ? __ldg (a.sigma_scale) : 1.f;
  const float scale2 = scale * scale;
  float *const s_v = s_r1;
  float *const s_l = s_lh;
  float *const s_h = s_lh + CN * BP;
  const int tid = threadIdx.x;

  /* which channel, which tile */
  int c = 0;
  if (a.n_channels > 1 && (int) blockIdx.x >= a.ch[1].block_start)
    c = 1;
  if (a.n_channels > 2 && (int) blockIdx.x >= a.ch[2].block_start)
    c = 2;
  const LevelChannel & ch = a.ch[c];
  const int b = blockIdx.x - ch.block_start;
  /* b / blocks_x through the float reciprocal (b < 2^24: exact in float),
   * one step corrected: a handful of instructions, not a division */
  int by = __float2int_rz (((float) b + 0.5f) * ch.inv_blocks_x);
  int bx = b - by * ch.blocks_x;
  if (bx < 0) {
    by--;
    bx += ch.blocks_x;
  } else if (bx >= ch.blocks_x) {
    by++;
    bx -= ch.blocks_x;
  }
  const int x0 = bx * T, y0 = by * T;
  const int w = ch.width, h = ch.height;
  const bool wiener = a.shrink == CFX_DEGRAIN_WIENER;
  const bool est_tile = EST && bx < ch.est_tiles_x && by < ch.est_tiles_y;
  int i;

  /* A: the low band with its halo, mirrored. Where the tile's columns
   * need no mirror, whole aligned chunks of 4 samples a row: level 0
   * converts them on the way (when the plane allows 4-sample loads),
   * later levels copy their float band with cp.async, every copy of the
   * tile in flight at once. Else sample by sample. */
  if (EST)
    for (i = tid; i < EST_BINS; i += NT)
      s_hist[i] = 0;
  if (VEC && (R > 1 || ch.vec) && x0 - WR - D - PAD >= 0
      && x0 - WR - D - PAD + 4 * CHUNKS <= w) {
    const int a0 = x0 - WR - D - PAD;
    TileWalk < CHUNKS, NT > t (tid);

    if (R > 1) {
#pragma unroll
      for (i = 0; i < A_ITER; i++, t.next ()) {
        if (i < A_FULL || t.r < CN) {
          const int gy = mirror (y0 + strip_coord < R, TE, D > (t.r), h);

          cp_async16 (s_r1 + t.r * CP + 4 * t.c, ch.cur + (size_t) gy *
              ch.fpitch + a0 + 4 * t.c, 16);
        }
      }
    } else {
      /* every load first, then the conversions: the loads' latencies
       * overlap instead of adding up */
      uint2 q[A_ITER];
      int at[A_ITER];

#pragma unroll
      for (i = 0; i < A_ITER; i++, t.next ()) {
        at[i] = -1;
        if (i < A_FULL || t.r < CN) {
          const int gy = mirror (y0 + strip_coord < R, TE, D > (t.r), h);
          const uint8_t *p = ch.src + (size_t) gy * ch.src_pitch +
              ch.bytes * (a0 + 4 * t.c);

          if (ch.bytes == 1)
            q[i].x = __ldg ((const uint32_t *) p);
          else
            q[i] = __ldg ((const uint2 *) p);
          at[i] = t.r * CP + 4 * t.c;
        }
      }
#pragma unroll
      for (i = 0; i < A_ITER; i++) {
        float4 v;

        if (at[i] < 0)
          continue;
        if (ch.bytes == 1)
          v = make_float4 (q[i].x & 0xff, (q[i].x >> 8) & 0xff,
              (q[i].x >> 16) & 0xff, q[i].x >> 24);
        else
          v = make_float4 (((q[i].x >> ch.shift) & ch.mask) * ch.to8,
              (((q[i].x >> 16) >> ch.shift) & ch.mask) * ch.to8,
              ((q[i].y >> ch.shift) & ch.mask) * ch.to8,
              (((q[i].y >> 16) >> ch.shift) & ch.mask) * ch.to8);
        *(float4 *) (s_r1 + at[i]) = v;
      }
    }
  } else {
    TileWalk < CN, NT > t (tid);

#pragma unroll 4
    for (i = 0; i < (CN * CN + NT - 1) / NT; i++, t.next ()) {
      if (t.r < CN) {
        int gy = mirror (y0 + strip_coord < R, TE, D > (t.r), h);
        int gx = mirror (x0 + strip_coord < R, TE, D > (t.c), w);
        float *dst = s_c + t.r * CP + t.c;

        if (R == 1)
          *dst = load_sample (ch, gx, gy);
        else
          cp_async4 (dst, ch.cur + (size_t) gy * ch.fpitch + gx);
      }
    }
  }
  if (R > 1) {
    cp_async_commit ();
    cp_async_wait < 0 > ();
  }
  __syncthreads ();

  /* B: horizontal split over every loaded row, columns [-WR, T + WR) */
  {
    TileWalk < TE, NT > t (tid);

#pragma unroll
    for (i = 0; i < B_ITER; i++, t.next ()) {
      if (i < B_FULL || t.r < CN) {
        const float *row = s_c + t.r * CP + t.c;
        float x = row[D], p = row[2 * D], m = row[0];
        float hi = split_high (x, p, m);

        s_h[t.r * BP + t.c] = hi;
        s_l[t.r * BP + t.c] = x - hi;
        if (EST)
          s_clip[t.r * TE + t.c] = x == 0.f || x == ch.top8 || p == 0.f
              || p == ch.top8 || m == 0.f || m == ch.top8;
      }
    }
  }
  __syncthreads ();

  /* Vertical split at band-tile row ey (0 .. TE-1), column X */
#define BANDS(X, ey, LL, LH, HL, HH) do { \
    const float *l_ = s_l + (ey) * BP + (X), *h_ = s_h + (ey) * BP + (X); \
    float l0_ = l_[D * BP], h0_ = h_[D * BP]; \
    LH = split_high (l0_, l_[2 * D * BP], l_[0]); \
    LL = l0_ - LH; \
    HH = split_high (h0_, h_[2 * D * BP], h_[0]); \
    HL = h0_ - HH; \
  } while (0)

  /* C: vertical sums of w^2 over 9 rows, for T output rows and TE columns.
   * The first 9 squares become suffix sums, then a prefix slides on. */
  if (wiener) {
    for (i = tid; i < TE * (T / K); i += NT) {
      const int X = i % TE, ey0 = (i / TE) * K;
      float q0[WIN], q1[WIN], q2[WIN], p0 = 0.f, p1 = 0.f, p2 = 0.f;
      float *v0 = s_v + ey0 * BP + X, *v1 = v0 + T * BP, *v2 = v1 + T * BP;
      int j;

#pragma unroll
      for (j = 0; j < WIN; j++) {
        float ll, lh, hl, hh;
        BANDS (X, ey0 + j, ll, lh, hl, hh);
        (void) ll;
        q0[j] = lh * lh;
        q1[j] = hl * hl;
        q2[j] = hh * hh;
      }
#pragma unroll
      for (j = WIN - 2; j >= 0; j--) {
        q0[j] += q0[j + 1];
        q1[j] += q1[j + 1];
        q2[j] += q2[j + 1];
      }
      v0[0] = q0[0];
      v1[0] = q1[0];
      v2[0] = q2[0];
#pragma unroll
      for (j = WIN; j < K + 2 * WR; j++) {
        float ll, lh, hl, hh;
        BANDS (X, ey0 + j, ll, lh, hl, hh);
        (void) ll;
        p0 += lh * lh;
        p1 += hl * hl;
        p2 += hh * hh;
        v0[(j - 2 * WR) * BP] = q0[j - 2 * WR] + p0;
        v1[(j - 2 * WR) * BP] = q1[j - 2 * WR] + p1;
        v2[(j - 2 * WR) * BP] = q2[j - 2 * WR] + p2;
      }
    }
    __syncthreads ();
  }

  /* D: M consecutive outputs of one row per thread */
  {
    const int y = tid / SEGS, xs = (tid - y * SEGS) * M;
    const int gy = y0 + y;
    float e[3][M];
    float ll[M], res[M];
    int k, bnd;

    if (wiener) {
#pragma unroll
      for (bnd = 0; bnd < 3; bnd++) {
        const float *vrow = s_v + bnd * T * BP + y * BP + xs;
        float v[M + 2 * WR];
#pragma unroll
        for (k = 0; k < M + 2 * WR; k++)
          v[k] = vrow[k];
        /* the M windows share v[M - 1 .. WIN - 1]: summed once */
        float mid = v[M - 1];
#pragma unroll
        for (k = M; k < WIN; k++)
          mid += v[k];
#pragma unroll
        for (k = 0; k < M; k++) {
          float s = mid;
#pragma unroll
          for (int d = k; d < M - 1; d++)
            s += v[d];
#pragma unroll
          for (int d = WIN; d < WIN + k; d++)
            s += v[d];
          e[bnd][k] = s * (1.0f / (WIN * WIN));
        }
      }
    }

    /* the bands' thresholds (times the temporal noise scale) */
    float sb[3], sb2[3];
#pragma unroll
    for (bnd = 0; bnd < 3; bnd++) {
      sb[bnd] = ch.sb[bnd] * scale;
      sb2[bnd] = ch.sb2[bnd] * scale2;
    }

    /* the sum so far: level 0 starts it */
    if (R == 1) {
#pragma unroll
      for (k = 0; k < M; k++)
        res[k] = 0.f;
    } else {
      vec av = *(const vec *) (ch.acc + (size_t) gy * ch.fpitch + x0 + xs);
      const float *ap = (const float *) &av;
#pragma unroll
      for (k = 0; k < M; k++)
        res[k] = ap[k];
    }

#pragma unroll
    for (k = 0; k < M; k++) {
      const int X = xs + k + WR, ey = y + WR;
      float band[3], hh0;

      BANDS (X, ey, ll[k], band[0], band[1], band[2]);
      hh0 = band[2];
      if (wiener) {
#pragma unroll
        for (bnd = 0; bnd < 3; bnd++) {
          float s2 = fmaxf (e[bnd][k] - sb2[bnd], 0.f);
          /* s2 == 0: the gain is 0 (or w is 0 with E). Below FLT_MIN
           * (which keeps the reciprocal's input normal) |w| is under
           * 1e-18 and its shrunk value smaller still: 0 too. */
          band[bnd] = s2 >= 1.17549435e-38f ?
              band[bnd] * fast_ratio (s2, s2 + sb2[bnd]) : 0.f;
        }
      } else if (a.shrink == CFX_DEGRAIN_SOFT) {
#pragma unroll
        for (bnd = 0; bnd < 3; bnd++) {
          float m = fabsf (band[bnd]) - sb[bnd];
          band[bnd] = m <= 0.f ? 0.f : copysignf (m, band[bnd]);
        }
      }
      res[k] = ((res[k] + band[0]) + band[1]) + band[2];

      if (EST && est_tile && xs + k < ch.est_tw && y < ch.est_th) {
        /* none of the 3 x 3 samples around the output clipped: rows
         * ey - 1 .. ey + 1 of phase B's flags (at level 0, D = 1) */
        const uint8_t *f = s_clip + (ey + D - 1) * TE + X;
        bool valid = !(f[0] | f[TE] | f[2 * TE]);
        /* exact in float; deeper samples have fractions: rounded */
        if (valid)
          atomicAdd (&s_hist[min ((int) (fabsf (16.f * hh0) + 0.5f),
                      EST_BINS - 1)], 1);
      }
    }

    if (!a.last) {
      vec lv, av;
      float *lp = (float *) &lv, *ap = (float *) &av;
#pragma unroll
      for (k = 0; k < M; k++) {
        lp[k] = ll[k];
        ap[k] = res[k];
      }
      /* the scratch is padded to whole tiles: no bounds */
      *(vec *) (ch.next + (size_t) gy * ch.fpitch + x0 + xs) = lv;
      *(vec *) (ch.acc + (size_t) gy * ch.fpitch + x0 + xs) = av;
    } else {
      if (a.keep_float) {
        vec rv;
        float *rp = (float *) &rv;
#pragma unroll
        for (k = 0; k < M; k++)
          rp[k] = res[k] + ll[k];
        *(vec *) (ch.acc + (size_t) gy * ch.fpitch + x0 + xs) = rv;
      }
      if (gy < h && M == 4 && ch.vec && ch.dst_vec && x0 + xs + M <= w) {
        /* planar, aligned rows: the 4 inputs in one load, the 4 outputs
         * in one store */
        const size_t in_at = (size_t) gy * ch.src_pitch + ch.bytes * (x0 + xs);
        const size_t out_at = (size_t) gy * ch.dst_pitch +
            ch.bytes * (x0 + xs);
        uint2 q = make_uint2 (0, 0);
        unsigned o[4];

        if (ch.bytes == 1)
          q.x = __ldg ((const uint32_t *) (ch.src + in_at));
        else
          q = __ldg ((const uint2 *) (ch.src + in_at));
#pragma unroll
        for (k = 0; k < 4; k++) {
          const unsigned word = k < 2 ? q.x : q.y;
          const float in = ch.bytes == 1 ? (float) ((q.x >> (8 * k)) & 0xff)
              : (float) (((word >> (16 * (k & 1))) >> ch.shift) & ch.mask) *
              ch.to8;

          o[k] = (unsigned) output_value (ch, a, in, res[k] + ll[k]);
        }
        if (ch.bytes == 1)
          *(uint32_t *) (ch.dst + out_at) = o[0] | o[1] << 8 | o[2] << 16 |
              o[3] << 24;
        else
          *(uint2 *) (ch.dst + out_at) = make_uint2 ((o[0] << ch.shift) |
              (o[1] << ch.shift) << 16, (o[2] << ch.shift) |
              (o[3] << ch.shift) << 16);
      } else if (gy < h) {
#pragma unroll
        for (k = 0; k < M; k++) {
          const int gx = x0 + xs + k;

          if (gx >= w)
            break;
          /* from global memory: at level 0 the C tile may hold V now */
          store_sample (ch, gx, gy, output_value (ch, a, load_sample (ch, gx,
                      gy), res[k] + ll[k]));
        }
      }
    }
  }
#undef BANDS

  /* the estimate tile's lower median of its valid |16 * HH0| */
  if (EST && est_tile) {
    int total, m;

    __syncthreads ();
    m = histogram_select < NT > (s_hist, 0, s_warp, &total);
    /* the rank needs the total: a second pass over the same histogram */
    __syncthreads ();
    if (2 * total >= ch.est_tw * ch.est_th) {
      m = histogram_select < NT > (s_hist, (total - 1) / 2, s_warp, &total);
      if (m >= 0)
        ch.tile_med[by * ch.est_tiles_x + bx] = m;
    } else if (tid == 0) {
      ch.tile_med[by * ch.est_tiles_x + bx] = -1;
    }
  }
}

/* ---- the percentile over the tiles ----------------------------------- */

/* One block per channel: the 10th percentile (index (N - 1) / 10 in
 * ascending order) of the N counting tile medians, by histogram. */
__global__ void __launch_bounds__ (PERC_THREADS)
degrain_percentile (const __grid_constant__ PercentileArgs a)
{
  __shared__ int hist[EST_BINS];
  __shared__ int s_warp[PERC_THREADS / 32];
  const int c = blockIdx.x;
  const int *med = a.tile_med + a.off[c];
  int i, total, m;

  for (i = threadIdx.x; i < EST_BINS; i += PERC_THREADS)
    hist[i] = 0;
  __syncthreads ();
  for (i = threadIdx.x; i < a.count[c]; i += PERC_THREADS) {
    int v = med[i];
    if (v >= 0)
      atomicAdd (&hist[v], 1);
  }
  __syncthreads ();
  m = histogram_select < PERC_THREADS > (hist, 0, s_warp, &total);
  __syncthreads ();
  if (total == 0) {
    if (threadIdx.x == 0)
      a.result[c] = -1;
    return;
  }
  m = histogram_select < PERC_THREADS > (hist,
      (total - 1) / EST_PERCENTILE_DEN, s_warp, &total);
  if (m >= 0)
    a.result[c] = m;
}

/* ---- host side ------------------------------------------------------- */

/* One 1-D split of a zero-padded impulse response (support stays inside) */
static void
split_1d (double *low, double *high, const double *x, int n, int r)
{
  for (int i = 0; i < n; i++) {
    double xp = i + r < n ? x[i + r] : 0.0;
    double xm = i - r >= 0 ? x[i - r] : 0.0;
    double hi = (x[i] - (xp + xm) * 0.5) * 0.5;

    high[i] = hi;
    low[i] = x[i] - hi;
  }
}

static double
compute_band_gain (int level, int band)
{
  /* the chain up to level 7 reaches 2^8 - 1 samples either side */
  enum
  { N = 4 * (1 << (CFX_DEGRAIN_MAX_LEVELS - 1)) + 1 };
  double x[N] = { 0 }, lo[N], hi[N], na = 0.0, nd = 0.0;
  int n = 4 * (1 << level) + 1, l, i;

  x[n / 2] = 1.0;
  for (l = 0; l < level; l++) {
    split_1d (lo, hi, x, n, 1 << l);
    memcpy (x, lo, n * sizeof (double));
  }
  split_1d (lo, hi, x, n, 1 << level);
  for (i = 0; i < n; i++) {
    na += lo[i] * lo[i];
    nd += hi[i] * hi[i];
  }
  return band == 2 ? nd : sqrt (na * nd);
}

extern "C" double
cfx_degrain_band_gain (int level, int band)
{
  /* thread-safe once: C++ static initialisation */
  static const struct Gains
  {
    double g[CFX_DEGRAIN_MAX_LEVELS][3];
      Gains ()
    {
      for (int l = 0; l < CFX_DEGRAIN_MAX_LEVELS; l++)
        for (int b = 0; b < 3; b++)
          g[l][b] = compute_band_gain (l, b);
    }
  } gains;

  if (level < 0 || level >= CFX_DEGRAIN_MAX_LEVELS || band < 0 || band > 2)
    return 0.0;
  return gains.g[level][band];
}

extern "C" double
cfx_degrain_sigma_from_median (int median)
{
  if (median < 0)
    return 0.0;
  return median / 16.0 / 0.6745 / cfx_degrain_band_gain (0, 2) * 1.07;
}

static int
round_up (int v, int m)
{
  return (v + m - 1) / m * m;
}

static int
est_tiles (int n)
{
  if (n <= 0)
    return 0;
  return n < EST_TILE ? 1 : n / EST_TILE;
}

extern "C" cudaError_t
cfx_degrain_scratch_new (CfxDegrainScratch ** scratch, int n_channels,
    const int *widths, const int *heights)
{
  CfxDegrainScratch *s;
  size_t floats = 0, off;
  int c, tiles = 0;
  cudaError_t err;

  *scratch = NULL;
  if (n_channels < 1 || n_channels > CFX_DEGRAIN_MAX_CHANNELS)
    return cudaErrorInvalidValue;
  s = (CfxDegrainScratch *) calloc (1, sizeof (*s));
  if (!s)
    return cudaErrorMemoryAllocation;
  s->n = n_channels;
  for (c = 0; c < n_channels; c++) {
    if (widths[c] < 0 || heights[c] < 0) {
      free (s);
      return cudaErrorInvalidValue;
    }
    s->width[c] = widths[c];
    s->height[c] = heights[c];
    /* whole 32 x 32 tiles: the kernels store without bounds checks */
    s->fpitch[c] = round_up (widths[c], 32);
    floats += 3 * (size_t) s->fpitch[c] * round_up (heights[c], 32);
    s->tile_off[c] = tiles;
    s->tiles[c] = est_tiles (widths[c]) * est_tiles (heights[c]);
    tiles += s->tiles[c];
  }

  s->bytes = floats * sizeof (float) + (size_t) (tiles + 4 +
      CFX_DEGRAIN_MAX_CHANNELS) * sizeof (int);
  err = cudaMalloc (&s->mem, s->bytes);
  if (err != cudaSuccess) {
    free (s);
    return err;
  }
  /* no memset: it would run on the legacy stream, which a non-blocking
   * stream does not wait for; and every location is written before it is
   * read (level 0 covers all tiles of later levels, including padding) */

  off = 0;
  for (c = 0; c < n_channels; c++) {
    size_t plane = (size_t) s->fpitch[c] * round_up (s->height[c], 32);
    s->low[c][0] = (float *) s->mem + off;
    s->low[c][1] = (float *) s->mem + off + plane;
    s->acc[c] = (float *) s->mem + off + 2 * plane;
    off += 3 * plane;
  }
  s->result = (int *) ((float *) s->mem + off);
  s->tile_med = s->result + 4;
  *scratch = s;
  return cudaSuccess;
}

extern "C" void
cfx_degrain_scratch_free (CfxDegrainScratch * scratch)
{
  if (!scratch)
    return;
  cudaFree (scratch->mem);
  free (scratch);
}

extern "C" size_t
cfx_degrain_scratch_bytes (const CfxDegrainScratch * scratch)
{
  return scratch ? scratch->bytes : 0;
}

extern "C" const int *
cfx_degrain_estimate_device (const CfxDegrainScratch * scratch)
{
  return scratch->result;
}

extern "C" void
cfx_degrain_keep_float (CfxDegrainScratch * scratch, int keep)
{
  if (scratch)
    scratch->keep_float = keep != 0;
}

extern "C" cudaError_t
cfx_degrain_float_result (const CfxDegrainScratch * scratch, int channel,
    const float **data, int *pitch)
{
  if (!scratch || channel < 0 || channel >= scratch->n)
    return cudaErrorInvalidValue;
  *data = scratch->acc[channel];
  *pitch = scratch->fpitch[channel];
  return cudaSuccess;
}

/* Tile shapes: 32 x 32 with 256 threads up to R = 16 (at most 45 KB of
 * static shared memory, 4 blocks per SM), 16 x 16 with 128 threads for
 * the rare larger radii, whose C tile holds three separate strips. */
#define BIG_T 32
#define BIG_NT 256
/* level 0's blocks are the noise estimate's tiles (one block index) */
static_assert (BIG_T == EST_TILE, "level-0 tiles must be estimate tiles");
#define SMALL_T 16
#define SMALL_NT 128

static int
level_tile (int level)
{
  return level <= 4 ? BIG_T : SMALL_T;
}

/* One level's launch. The first launch of each instance on each device
 * asks for the largest shared-memory carveout (a hint, once per device): at
 * ~45 KB of static shared memory per block, 5 blocks of 256 threads then
 * fit an SM of sm_80/sm_90. (Two threads may both ask: harmless.) */
template < int R, int T, int NT, bool EST > static cudaError_t
launch_one (int blocks, const LevelArgs & args, cudaStream_t stream)
{
  static bool hinted[64];
  int dev = 0;

  if (cudaGetDevice (&dev) == cudaSuccess && dev >= 0 && dev < 64
      && !hinted[dev]) {
    if (cudaFuncSetAttribute ((const void *) degrain_level < R, T, NT, EST >,
            cudaFuncAttributePreferredSharedMemoryCarveout,
            cudaSharedmemCarveoutMaxShared) != cudaSuccess)
      (void) cudaGetLastError ();       /* only a hint: not this launch's */
    hinted[dev] = true;
  }
  return cfx_launch (degrain_level < R, T, NT, EST >, blocks, NT, 0, stream,
      args);
}

static cudaError_t
launch_level (int level, bool est, int blocks, const LevelArgs & args,
    cudaStream_t stream)
{
  if (blocks == 0)
    return cudaSuccess;
  switch (level) {
    case 0:
      return est ? launch_one < 1, BIG_T, BIG_NT, true > (blocks, args,
          stream) : launch_one < 1, BIG_T, BIG_NT, false > (blocks, args,
          stream);
    case 1:
      return launch_one < 2, BIG_T, BIG_NT, false > (blocks, args, stream);
    case 2:
      return launch_one < 4, BIG_T, BIG_NT, false > (blocks, args, stream);
    case 3:
      return launch_one < 8, BIG_T, BIG_NT, false > (blocks, args, stream);
    case 4:
      return launch_one < 16, BIG_T, BIG_NT, false > (blocks, args, stream);
    case 5:
      return launch_one < 32, SMALL_T, SMALL_NT, false > (blocks, args,
          stream);
    case 6:
      return launch_one < 64, SMALL_T, SMALL_NT, false > (blocks, args,
          stream);
    case 7:
      return launch_one < 128, SMALL_T, SMALL_NT, false > (blocks, args,
          stream);
    default:
      return cudaErrorInvalidValue;
  }
}

static bool
channel_matches (const CfxPlane * ch, const CfxDegrainScratch * s, int c)
{
  bool words = ch->bytes == 2 && ch->depth >= 9 && ch->depth <= 16
      && ch->shift >= 0 && ch->shift <= 16 - ch->depth;

  return ch->width == s->width[c] && ch->height == s->height[c]
      && (ch->bytes == 1 || words) && ch->step >= ch->bytes
      && (ch->width == 0
      || ch->height == 0 || ch->data != NULL);
}

static cudaError_t
launch_percentile (CfxDegrainScratch * s, int n, cudaStream_t stream)
{
  PercentileArgs p;

  memset (&p, 0, sizeof (p));
  p.tile_med = s->tile_med;
  p.result = s->result;
  for (int c = 0; c < n; c++) {
    p.off[c] = s->tile_off[c];
    p.count[c] = s->tiles[c];
  }
  return cfx_launch (degrain_percentile, n, PERC_THREADS, 0, stream, p);
}

/* The sample layout of @src (dst must have the same: checked by run) */
static void
set_depth (LevelChannel * lc, const CfxPlane * src)
{
  int depth = src->bytes == 1 ? 8 : src->depth;

  lc->bytes = src->bytes;
  lc->shift = src->bytes == 1 ? 0 : src->shift;
  lc->mask = (1u << depth) - 1;
  lc->to8 = ldexpf (1.f, 8 - depth);
  lc->from8 = ldexpf (1.f, depth - 8);
  lc->top = (float) lc->mask;
  lc->top8 = lc->top * lc->to8;
}

/* dst NULL: estimate only (level 0 without shrinkage, nothing written but
 * the scratch) */
static cudaError_t
run (const CfxPlane * dst, const CfxPlane * src, int n,
    const CfxDegrainParams * p, CfxDegrainScratch * s, cudaStream_t stream)
{
  int levels = dst ? p->levels : 1, level, c;
  bool estimate = !dst || p->estimate;
  cudaError_t err;

  if (!s || n < 1 || n > s->n || levels < 1
      || levels > CFX_DEGRAIN_MAX_LEVELS)
    return cudaErrorInvalidValue;
  for (c = 0; c < n; c++)
    if (!channel_matches (&src[c], s, c) || (dst
            && (!channel_matches (&dst[c], s, c)
                || dst[c].bytes != src[c].bytes
                || (src[c].bytes == 2 && (dst[c].depth != src[c].depth
                        || dst[c].shift != src[c].shift)))))
      return cudaErrorInvalidValue;

  for (level = 0; level < levels; level++) {
    LevelArgs args;
    int t = level_tile (level), blocks = 0;

    memset (&args, 0, sizeof (args));
    args.n_channels = n;
    args.shrink = dst ? p->shrink : CFX_DEGRAIN_IDENTITY;
    args.last = dst && level == levels - 1;
    args.output_noise = dst ? p->output_noise : 0;
    args.keep_float = dst ? s->keep_float : 0;
    args.amount = dst ? p->amount : 1.0f;
    args.sigma_scale = dst ? p->sigma_scale : NULL;

    for (c = 0; c < n; c++) {
      LevelChannel *lc = &args.ch[c];
      int bx = (s->width[c] + t - 1) / t, by = (s->height[c] + t - 1) / t;

      lc->src = src[c].data;
      lc->src_pitch = src[c].pitch;
      lc->src_step = src[c].step;
      set_depth (lc, &src[c]);
      if (dst) {
        lc->dst = dst[c].data;
        lc->dst_pitch = dst[c].pitch;
        lc->dst_step = dst[c].step;
      }
      lc->cur = level > 0 ? s->low[c][(level - 1) & 1] : NULL;
      lc->next = s->low[c][level & 1];
      lc->acc = s->acc[c];
      lc->tile_med = s->tile_med + s->tile_off[c];
      lc->width = s->width[c];
      lc->height = s->height[c];
      lc->fpitch = s->fpitch[c];
      lc->blocks_x = bx;
      lc->inv_blocks_x = bx > 0 ? 1.f / bx : 0.f;
      /* 4 samples at once (level 0's input, the last level's input and
       * output): contiguous, aligned rows */
      lc->vec = src[c].step == src[c].bytes
          && (uintptr_t) src[c].data % (4 * src[c].bytes) == 0
          && src[c].pitch % (4 * src[c].bytes) == 0;
      lc->dst_vec = dst && dst[c].step == dst[c].bytes
          && (uintptr_t) dst[c].data % (4 * dst[c].bytes) == 0
          && dst[c].pitch % (4 * dst[c].bytes) == 0;
      lc->block_start = blocks;
      lc->est_tiles_x = est_tiles (s->width[c]);
      lc->est_tiles_y = est_tiles (s->height[c]);
      lc->est_tw = s->width[c] < EST_TILE ? s->width[c] : EST_TILE;
      lc->est_th = s->height[c] < EST_TILE ? s->height[c] : EST_TILE;
      for (int bnd = 0; bnd < 3; bnd++) {
        /* as the reference: float (double strength * sigma * gain) */
        float sb = dst ? (float) ((double) p->strength[c] * p->sigma[c] *
            cfx_degrain_band_gain (level, bnd)) : 0.f;
        lc->sb[bnd] = sb;
        lc->sb2[bnd] = sb * sb;
      }
      /* an empty channel gets no blocks; it still occupies its slot */
      if (bx > 0 && by > 0) {
        blocks += bx * by;
      } else {
        lc->blocks_x = 1;
        lc->inv_blocks_x = 1.f;
      }
    }

    /* the kernel's tile row b / blocks_x in float is exact below 2^24 */
    if (blocks >= (1 << 24))
      return cudaErrorInvalidValue;
    err = launch_level (level, level == 0 && estimate, blocks, args, stream);
    if (err != cudaSuccess)
      return err;
    if (level == 0 && estimate) {
      err = launch_percentile (s, n, stream);
      if (err != cudaSuccess)
        return err;
    }
  }
  return cudaSuccess;
}

extern "C" cudaError_t
cfx_degrain (const CfxPlane * dst, const CfxPlane * src, int n_channels,
    const CfxDegrainParams * params, CfxDegrainScratch * scratch,
    cudaStream_t stream)
{
  if (!dst || !src || !params)
    return cudaErrorInvalidValue;
  return run (dst, src, n_channels, params, scratch, stream);
}

extern "C" cudaError_t
cfx_degrain_estimate (const CfxPlane * src, int n_channels,
    CfxDegrainScratch * scratch, cudaStream_t stream)
{
  if (!src)
    return cudaErrorInvalidValue;
  return run (NULL, src, n_channels, NULL, scratch, stream);
}
