/* Temporal degrain: motion search, warp, robust weights and the temporal
 * mean (tests/reference/temporal.c is the definition; the spatial stage
 * after it is degrain.cu). The GPU gives the reference's mean exactly on
 * 8-bit luma:
 *   - the search works in integers (3x3 window sums, 2x2 sums of those,
 *     SADs and the zero-vector bias), so costs and vectors do not depend
 *     on the order of the sums; one thread searches one block and takes
 *     its candidates in the reference's order (ties keep the earlier);
 *   - the warp, the weights and the mean use the reference's float
 *     operations in its order, with products and sums rounded separately
 *     (__fmul_rn, __fadd_rn: no fused multiply-add, which the host
 *     reference has not either).
 * Samples of 9 to 16 bits are searched in their own integer units (the
 * bias scaled by 2^(depth - 8)) and warped in 8-bit units (value /
 * 2^(depth - 8), exact), so sigma stays in 8-bit units at every depth.
 *
 * Kernels, per output frame with N neighbours (2 R inside a stream):
 *   search_image (once per input frame): luma -> 3x3 sums; two 2x2 levels
 *   match (3 launches, one per level, all neighbours in one grid): one
 *     thread per 8x8 block; level 0 adds the sub-pixel parabola
 *   warp_error: each neighbour's warped luma, stored, and per 32x8 tile
 *     the integer sums of its samples (not warped) and of their squares,
 *     and of the current frame's; sum_parts_int adds the tiles
 *   match_gains (one thread per neighbour): its gain and offset from
 *     those sums (the reference's double operations)
 *   residual: per neighbour, the matched warped luma against the
 *     current frame: per tile the integer sums of the rounded squared
 *     difference and of the rounded squared 3x3 sum of differences (the
 *     scene-cut tests); sum_parts_int adds the tiles. Integer sums are
 *     exact in any order: the tests see the reference's numbers.
 *   decide (one thread): which neighbours count, read by the means (the
 *     double operations of the tests once, not in every thread)
 *   luma_mean: a 32x8 tile with a 1-sample halo; per neighbour kept, the
 *     matched warped tile in shared memory, 3x3 error windows, weights, running
 *     sums; writes the mean, sums the variance, and leaves each weight
 *     (quantised to 1/255) where chroma finds it
 *   chroma_mean: per chroma sample, luma's vector of the co-sited luma
 *     sample scaled by the subsampling and its weight (chroma is not
 *     brightness-matched: the reference defines luma only, and a gain on
 *     luma says little about chroma's)
 *   noise_scale: one thread, sqrt (mean variance)
 *
 * Floor (4K I420, R = 2): read the current frame and four neighbours, write
 * the mean: 75 MB, 26 us at 2.9 TB/s. The search reads each block's window
 * from L1/L2 once per candidate (about 15 at levels 0 and 1, 81 at level
 * 2); the warp reads 16 taps per sample, from L1/L2. */
#include "cudafx-kernels.h"
#include "kernel-helpers.h"

#include <stdlib.h>
#include <string.h>

#define BLK CFX_TEMPORAL_BLOCK
#define LEVELS 3
#define SEARCH2 4
#define LAMBDA 1
#define MAX_REFINE 4
#define CUT_RATIO 3.0
#define LOW_RATIO 2.0
#define LOW_FLOOR 200.0
#define STAT_SCALE 16.0f
#define BRIGHT_SKIP 30.0
#define MAXN (2 * CFX_TEMPORAL_MAX_RADIUS)
#define MAXC CFX_TEMPORAL_MAX_CHANNELS

/* rows of the integer frame sums: the current frame's sum of samples and
 * of their squares, then per neighbour k the same of its samples, then
 * per neighbour the sums of the cut tests (residual) */
#define ISUM_CUR 0
#define ISUM_NB(k) (2 + 2 * (k))
#define ISUM_CUT(k) (2 + 2 * MAXN + 2 * (k))
#define ISUM_ROWS (2 + 4 * MAXN)

#define TX 32                   /* luma_mean tile */
#define TY 8
#define HX (TX + 2)
#define HY (TY + 2)

/* ---- scratch --------------------------------------------------------- */

struct _CfxTemporalScratch
{
  int n, radius;
  int width[MAXC], height[MAXC];
  /* search images: per slot and level, sums in int32 */
  int lw[LEVELS], lh[LEVELS];
  int *search[CFX_TEMPORAL_SLOTS][LEVELS];
  /* which frame each slot's search image is of (cfx_temporal_search_images):
   * its key, where held */
  uint64_t key[CFX_TEMPORAL_SLOTS];
  bool held[CFX_TEMPORAL_SLOTS];
  /* per neighbour: integer vectors of each level, sub-pixel level 0 */
  int bw[LEVELS], bh[LEVELS];
  int2 *ivec[MAXN][LEVELS];
  float2 *vec[MAXN];
  /* per neighbour: its luma warped onto the current frame */
  float *warped[MAXN];
  /* per neighbour: weights at chroma resolution, x 255 */
  uint8_t *weight[MAXN];
  int cw, ch;
  /* the mean, one tight plane per component (2 bytes a sample: any depth) */
  uint8_t *mean[MAXC];
  int mean_pitch[MAXC];
  /* frame sums in integers (exact in any order), rows of ISUM_*: the
   * current frame's samples, each neighbour's and its cut tests' squares;
   * per luma tile in ipart (one row per sum), added up by sum_parts_int */
  long long *isum;
  long long *ipart;
  float *gain, *offset;         /* per neighbour: its brightness match */
  unsigned *kept;               /* bit k: neighbour k counts (decide) */
  double *var;                  /* sum of the mean's relative variance */
  /* per luma tile: the partial sums of var, summed in a fixed order by
   * sum_parts (no atomics: one address taking an atomic from every tile
   * serialises them) */
  double *part;
  int tiles;
  float *scale;
  void *mem;
  size_t bytes;
};

static size_t
align_up (size_t v, size_t a)
{
  return (v + a - 1) / a * a;
}

extern "C" cudaError_t
cfx_temporal_scratch_new (CfxTemporalScratch ** scratch, int n_channels,
    const int *widths, const int *heights, int radius)
{
  CfxTemporalScratch *s;
  size_t off = 0;
  uint8_t *base;
  cudaError_t err;
  int pass, c, l, k;

  *scratch = NULL;
  if (n_channels < 1 || n_channels > MAXC || radius < 1
      || radius > CFX_TEMPORAL_MAX_RADIUS || widths[0] < 1 || heights[0] < 1)
    return cudaErrorInvalidValue;
  s = (CfxTemporalScratch *) calloc (1, sizeof (*s));
  if (!s)
    return cudaErrorMemoryAllocation;
  s->n = n_channels;
  s->radius = radius;
  for (c = 0; c < n_channels; c++) {
    s->width[c] = widths[c];
    s->height[c] = heights[c];
    s->mean_pitch[c] = (int) align_up ((size_t) widths[c] * 2, 256);
  }
  s->cw = n_channels > 1 ? widths[1] : 0;
  s->ch = n_channels > 1 ? heights[1] : 0;
  for (l = 0; l < LEVELS; l++) {
    s->lw[l] = l ? (s->lw[l - 1] + 1) / 2 : widths[0];
    s->lh[l] = l ? (s->lh[l - 1] + 1) / 2 : heights[0];
    s->bw[l] = (s->lw[l] + BLK - 1) / BLK;
    s->bh[l] = (s->lh[l] + BLK - 1) / BLK;
  }

  /* pass 0 sizes, pass 1 hands out */
  base = NULL;
  for (pass = 0; pass < 2; pass++) {
#define TAKE(ptr, type, count) do { \
      off = align_up (off, 256); \
      if (pass) (ptr) = (type *) (base + off); \
      off += (size_t) (count) * sizeof (type); \
    } while (0)
    off = 0;
    for (k = 0; k < CFX_TEMPORAL_SLOTS; k++)
      for (l = 0; l < LEVELS; l++)
        TAKE (s->search[k][l], int, (size_t) s->lw[l] * s->lh[l]);
    for (k = 0; k < 2 * radius; k++) {
      for (l = 0; l < LEVELS; l++)
        TAKE (s->ivec[k][l], int2, (size_t) s->bw[l] * s->bh[l]);
      TAKE (s->vec[k], float2, (size_t) s->bw[0] * s->bh[0]);
      TAKE (s->warped[k], float, (size_t) widths[0] * heights[0]);
      if (n_channels > 1)
        TAKE (s->weight[k], uint8_t, (size_t) s->cw * s->ch);
    }
    for (c = 0; c < n_channels; c++)
      TAKE (s->mean[c], uint8_t, (size_t) s->mean_pitch[c] * heights[c]);
    TAKE (s->var, double, 1);
    TAKE (s->isum, long long, ISUM_ROWS);
    TAKE (s->gain, float, MAXN);
    TAKE (s->offset, float, MAXN);
    TAKE (s->kept, unsigned, 1);
    s->tiles = ((widths[0] + TX - 1) / TX) * ((heights[0] + TY - 1) / TY);
    TAKE (s->part, double, (size_t) s->tiles);
    TAKE (s->ipart, long long, (size_t) ISUM_ROWS * s->tiles);
    TAKE (s->scale, float, 1);
#undef TAKE
    if (!pass) {
      err = cudaMalloc (&s->mem, off);
      if (err != cudaSuccess) {
        free (s);
        return err;
      }
      base = (uint8_t *) s->mem;
      s->bytes = off;
    }
  }
  *scratch = s;
  return cudaSuccess;
}

extern "C" void
cfx_temporal_scratch_free (CfxTemporalScratch * scratch)
{
  if (!scratch)
    return;
  cudaFree (scratch->mem);
  free (scratch);
}

extern "C" size_t
cfx_temporal_scratch_bytes (const CfxTemporalScratch * scratch)
{
  return scratch ? scratch->bytes : 0;
}

extern "C" void
cfx_temporal_mean_planes (const CfxTemporalScratch * s, const CfxPlane * cur,
    int n_channels, CfxPlane * planes)
{
  for (int c = 0; c < n_channels && c < s->n; c++) {
    CfxPlane p = cur[c];

    p.data = s->mean[c];
    p.pitch = s->mean_pitch[c];
    p.step = p.bytes;
    p.offset = 0;
    planes[c] = p;
  }
}

extern "C" const float *
cfx_temporal_noise_scale_device (const CfxTemporalScratch * scratch)
{
  return scratch->scale;
}

/* ---- samples --------------------------------------------------------- */

/* a component as the kernels read and write it */
struct Comp
{
  uint8_t *data;
  int pitch, step, bytes, shift, width, height;
  unsigned mask;
  float to8, from8, top;
};

static Comp
comp_of (const CfxPlane & p)
{
  Comp c;
  int depth = p.bytes == 1 ? 8 : p.depth;

  c.data = p.data;
  c.pitch = p.pitch;
  c.step = p.step;
  c.bytes = p.bytes;
  c.shift = p.bytes == 1 ? 0 : p.shift;
  c.width = p.width;
  c.height = p.height;
  c.mask = (1u << depth) - 1u;
  c.to8 = ldexpf (1.f, 8 - depth);
  c.from8 = ldexpf (1.f, depth - 8);
  c.top = (float) c.mask;
  return c;
}

/* the integer sample at @p (unused bits dropped) */
__device__ __forceinline__ int
raw_at (const Comp & c, const uint8_t * p)
{
  if (c.bytes == 1)
    return __ldg (p);
  return (int) ((__ldg ((const uint16_t *) p) >> c.shift) & c.mask);
}

__device__ __forceinline__ int
raw (const Comp & c, int x, int y)
{
  return raw_at (c, c.data + (size_t) y * c.pitch + (size_t) x * c.step);
}

/* in 8-bit units, mirrored coordinates */
__device__ __forceinline__ float
sample8 (const Comp & c, int x, int y)
{
  return (float) raw (c, mirror (x, c.width), mirror (y, c.height)) * c.to8;
}

/* a value in 8-bit units, rounded to @c's grid and clipped, into sample x
 * of a planar @row with @c's sample layout */
__device__ __forceinline__ void
store8 (uint8_t * row, int x, const Comp & c, float v8)
{
  float v = floorf (__fadd_rn (__fmul_rn (v8, c.from8), 0.5f));

  v = fminf (fmaxf (v, 0.f), c.top);
  if (c.bytes == 1)
    row[x] = (uint8_t) v;
  else
    ((uint16_t *) row)[x] = (uint16_t) ((unsigned) v << c.shift);
}

/* ---- search images --------------------------------------------------- */

/* A 32 x 8 block stages its samples and a 1-sample mirrored border in
 * shared memory (each sample read once), then each thread sums its 3x3
 * window there: integers, so the same sums as nine loads a thread, which
 * took 84 us at 4K on the H100 */
#define SEARCH_TX 32
#define SEARCH_TY 8

__global__ void __launch_bounds__ (SEARCH_TX * SEARCH_TY)
search_level0 (const Comp luma, int *out)
{
  __shared__ int s_in[SEARCH_TY + 2][SEARCH_TX + 2];
  const int x0 = blockIdx.x * SEARCH_TX, y0 = blockIdx.y * SEARCH_TY;
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  const int tid = threadIdx.y * SEARCH_TX + threadIdx.x;

  for (int i = tid; i < (SEARCH_TY + 2) * (SEARCH_TX + 2);
      i += SEARCH_TX * SEARCH_TY) {
    const int hx = i % (SEARCH_TX + 2), hy = i / (SEARCH_TX + 2);

    s_in[hy][hx] = raw (luma, mirror (x0 + hx - 1, luma.width),
        mirror (y0 + hy - 1, luma.height));
  }
  __syncthreads ();
  if (x >= luma.width || y >= luma.height)
    return;
  int sum = 0;
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
      sum += s_in[threadIdx.y + dy][threadIdx.x + dx];
  out[(size_t) y * luma.width + x] = sum;
}

__device__ __forceinline__ int
iat (const int *im, int w, int h, int x, int y)
{
  return __ldg (&im[(size_t) mirror (y, h) * w + mirror (x, w)]);
}

__global__ void
search_down (const int *in, int w, int h, int *out, int ow, int oh)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= ow || y >= oh)
    return;
  out[(size_t) y * ow + x] = iat (in, w, h, 2 * x, 2 * y) +
      iat (in, w, h, 2 * x + 1, 2 * y) + iat (in, w, h, 2 * x, 2 * y + 1) +
      iat (in, w, h, 2 * x + 1, 2 * y + 1);
}

extern "C" cudaError_t
cfx_temporal_prepare (CfxTemporalScratch * s, int slot, const CfxPlane * luma,
    cudaStream_t stream)
{
  dim3 block (32, 8);
  cudaError_t err;

  if (!s || !luma || slot < 0 || slot >= CFX_TEMPORAL_SLOTS
      || luma->width != s->width[0] || luma->height != s->height[0])
    return cudaErrorInvalidValue;
  err = cfx_launch (search_level0, dim3 ((s->lw[0] + SEARCH_TX - 1) /
          SEARCH_TX, (s->lh[0] + SEARCH_TY - 1) / SEARCH_TY),
      dim3 (SEARCH_TX, SEARCH_TY), 0, stream, comp_of (*luma),
      s->search[slot][0]);
  for (int l = 1; l < LEVELS && err == cudaSuccess; l++)
    err = cfx_launch (search_down, dim3 ((s->lw[l] + 31) / 32,
            (s->lh[l] + 7) / 8), block, 0, stream,
        (const int *) s->search[slot][l - 1], s->lw[l - 1], s->lh[l - 1],
        s->search[slot][l], s->lw[l], s->lh[l]);
  return err;
}

/* A window's frames keep their search images from one output to the next:
 * a frame's key names its content, so an image is made once per frame.
 * Slots not in the window are let go, so there is always one free for
 * each new frame (a window has fewer frames than slots). */
extern "C" cudaError_t
cfx_temporal_search_images (CfxTemporalScratch * s, const uint64_t * keys,
    const CfxPlane * const *lumas, int n, int restart, int *slot_of,
    cudaStream_t stream)
{
  bool used[CFX_TEMPORAL_SLOTS] = { false };
  cudaError_t err = cudaSuccess;

  if (!s || n < 1 || n >= CFX_TEMPORAL_SLOTS)
    return cudaErrorInvalidValue;
  if (restart)
    memset (s->held, 0, sizeof (s->held));
  for (int f = 0; f < n; f++) {
    slot_of[f] = -1;
    for (int i = 0; i < CFX_TEMPORAL_SLOTS && slot_of[f] < 0; i++)
      if (!used[i] && s->held[i] && s->key[i] == keys[f]) {
        used[i] = true;
        slot_of[f] = i;
      }
  }
  for (int f = 0; f < n && err == cudaSuccess; f++) {
    int i;

    if (slot_of[f] >= 0)
      continue;
    for (i = 0; used[i]; i++);
    err = cfx_temporal_prepare (s, i, lumas[f], stream);
    used[i] = true;
    s->key[i] = keys[f];
    slot_of[f] = i;
  }
  for (int i = 0; i < CFX_TEMPORAL_SLOTS; i++)
    s->held[i] = used[i] && err == cudaSuccess;
  return err;
}

/* ---- block matching -------------------------------------------------- */

struct MatchArgs
{
  const int *cur;
  const int *ref[MAXN];
  const int2 *parent[MAXN];     /* NULL: full search (the coarsest level) */
  int2 *out[MAXN];
  float2 *sub[MAXN];            /* level 0: sub-pixel vectors */
  int w, h, bw, bh, pbw, pbh;
  int unit;                     /* bias per sample and vector unit */
};

/* Eight lanes search one block: lane i holds column i of the block's 8
 * rows of the current image and sums its column's absolute differences;
 * three shuffles among the group's lanes give the block's SAD in each.
 * Costs are integers, so this order gives the reference's costs. Groups
 * go their own ways (their shuffles name only their own lanes). */
#define MATCH_THREADS 256
/* a CUDA block searches 8 x 4 motion blocks; the reference image around
 * them, MARGIN samples wider on every side, is in shared memory: the
 * candidates within +-MARGIN (all of the coarsest level's, most of the
 * others) read it there, farther ones read global memory */
#define MATCH_TX 8
#define MATCH_TY 4
#define MARGIN 8
#define RT_W (MATCH_TX * BLK + 2 * MARGIN)
#define RT_H (MATCH_TY * BLK + 2 * MARGIN)

struct BlockCtx
{
  unsigned mask;                /* the group's lanes */
  const int *ref;
  const int *tile;              /* ref at (tx0 .., ty0 ..), mirrored */
  int tx0, ty0;
  int col;                      /* this lane's column, x */
  bool col_ok;
  int y0, rows, n;              /* first row, rows and samples in the block */
  int cur[BLK];
};

__device__ __forceinline__ int
block_cost (const MatchArgs & a, const BlockCtx & b, int vx, int vy)
{
  int sad = 0;

  if (b.col_ok && abs (vx) <= MARGIN && abs (vy) <= MARGIN) {
    const int *t = b.tile + (b.y0 + vy - b.ty0) * RT_W + b.col + vx - b.tx0;
#pragma unroll
    for (int r = 0; r < BLK; r++)
      if (r < b.rows)
        sad += abs (b.cur[r] - t[r * RT_W]);
  } else if (b.col_ok) {
    int rx = mirror (b.col + vx, a.w);
#pragma unroll
    for (int r = 0; r < BLK; r++)
      if (r < b.rows)
        sad += abs (b.cur[r] - __ldg (&b.ref[(size_t) mirror (b.y0 + r + vy,
                        a.h) * a.w + rx]));
  }
  sad += __shfl_xor_sync (b.mask, sad, 1);
  sad += __shfl_xor_sync (b.mask, sad, 2);
  sad += __shfl_xor_sync (b.mask, sad, 4);
  return sad + LAMBDA * a.unit * b.n * (abs (vx) + abs (vy));
}

__device__ __forceinline__ float
parabola (int cm, int c0, int cp)
{
  int den = cm - 2 * c0 + cp;

  if (den <= 0)
    return 0.f;
  return fminf (fmaxf (__fdiv_rn (0.5f * (float) (cm - cp), (float) den),
          -0.5f), 0.5f);
}

__global__ void __launch_bounds__ (MATCH_THREADS)
match (const __grid_constant__ MatchArgs a)
{
  __shared__ int s_tile[RT_H * RT_W];
  const int lane = threadIdx.x & (BLK - 1), k = blockIdx.z;
  const int g = threadIdx.x / BLK;
  const int bx = blockIdx.x * MATCH_TX + g % MATCH_TX;
  const int by = blockIdx.y * MATCH_TY + g / MATCH_TX;
  const bool valid = bx < a.bw && by < a.bh;
  const int blk = by * a.bw + bx;
  const int2 *parent = a.parent[k];
  BlockCtx b;

  b.ref = a.ref[k];
  b.tx0 = blockIdx.x * MATCH_TX * BLK - MARGIN;
  b.ty0 = blockIdx.y * MATCH_TY * BLK - MARGIN;
  if (b.tx0 >= 0 && b.ty0 >= 0 && b.tx0 + RT_W <= a.w
      && b.ty0 + RT_H <= a.h) {
    /* inside the image (most tiles): no mirror */
    const int *from = b.ref + (size_t) b.ty0 * a.w + b.tx0;

    for (int i = threadIdx.x; i < RT_H * RT_W; i += MATCH_THREADS)
      s_tile[i] = __ldg (&from[(size_t) (i / RT_W) * a.w + i % RT_W]);
  } else {
    for (int i = threadIdx.x; i < RT_H * RT_W; i += MATCH_THREADS)
      s_tile[i] = __ldg (&b.ref[(size_t) mirror (b.ty0 + i / RT_W, a.h) *
              a.w + mirror (b.tx0 + i % RT_W, a.w)]);
  }
  __syncthreads ();
  if (!valid)
    return;                     /* the whole group */
  b.tile = s_tile;
  b.mask = 0xFFu << (threadIdx.x & 24);
  b.col = bx * BLK + lane;
  b.col_ok = b.col < a.w;
  b.y0 = by * BLK;
  b.rows = min (BLK, a.h - b.y0);
  b.n = min (BLK, a.w - bx * BLK) * b.rows;
#pragma unroll
  for (int r = 0; r < BLK; r++)
    b.cur[r] = b.col_ok && r < b.rows ?
        __ldg (&a.cur[(size_t) (b.y0 + r) * a.w + b.col]) : 0;

  int2 best = make_int2 (0, 0);
  int cost = block_cost (a, b, 0, 0);

  if (!parent) {
    for (int dy = -SEARCH2; dy <= SEARCH2; dy++)
      for (int dx = -SEARCH2; dx <= SEARCH2; dx++) {
        int c = block_cost (a, b, dx, dy);
        if (c < cost) {
          cost = c;
          best = make_int2 (dx, dy);
        }
      }
  } else {
    const int nx[5] = { 0, -1, 1, 0, 0 }, ny[5] = { 0, 0, 0, -1, 1 };
#pragma unroll
    for (int i = 0; i < 5; i++) {
      int px = min (max (bx / 2 + nx[i], 0), a.pbw - 1);
      int py = min (max (by / 2 + ny[i], 0), a.pbh - 1);
      int2 p = parent[py * a.pbw + px];
      int2 cand = make_int2 (2 * p.x, 2 * p.y);
      int c = block_cost (a, b, cand.x, cand.y);
      if (c < cost) {
        cost = c;
        best = cand;
      }
    }
  }
  /* +-1 steps while they improve */
  for (int step = 0; step < MAX_REFINE; step++) {
    const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
    int2 from = best;
#pragma unroll
    for (int i = 0; i < 4; i++) {
      int c = block_cost (a, b, from.x + dx[i], from.y + dy[i]);
      if (c < cost) {
        cost = c;
        best = make_int2 (from.x + dx[i], from.y + dy[i]);
      }
    }
    if (best.x == from.x && best.y == from.y)
      break;
  }
  if (a.sub[k]) {
    /* cost is the cost at best: the parabola through its neighbours */
    int cxm = block_cost (a, b, best.x - 1, best.y);
    int cxp = block_cost (a, b, best.x + 1, best.y);
    int cym = block_cost (a, b, best.x, best.y - 1);
    int cyp = block_cost (a, b, best.x, best.y + 1);
    if (lane == 0)
      a.sub[k][blk] = make_float2 ((float) best.x + parabola (cxm, cost,
              cxp), (float) best.y + parabola (cym, cost, cyp));
  }
  if (lane == 0)
    a.out[k][blk] = best;
}

/* ---- warp ------------------------------------------------------------ */

/* Catmull-Rom weights for fraction f, the reference's operations */
__device__ __forceinline__ void
catmull_rom (float f, float w[4])
{
  float f2 = __fmul_rn (f, f), f3 = __fmul_rn (f2, f);

  w[0] = __fmul_rn (0.5f, __fsub_rn (__fadd_rn (-f3, __fmul_rn (2.0f, f2)),
          f));
  w[1] = __fmul_rn (0.5f, __fadd_rn (__fsub_rn (__fmul_rn (3.0f, f3),
              __fmul_rn (5.0f, f2)), 2.0f));
  w[2] = __fmul_rn (0.5f, __fadd_rn (__fadd_rn (__fmul_rn (-3.0f, f3),
              __fmul_rn (4.0f, f2)), f));
  w[3] = __fmul_rn (0.5f, __fsub_rn (f3, f2));
}

/* The 4x4 window's weighted sum at rows iy - 1 .., columns @xo (byte
 * offsets); BYTES1: 8-bit samples read as bytes (to8 is 1: the same
 * products), else through raw_at and scaled */
template < bool BYTES1 > __device__ __forceinline__ float
bicubic_sum (const Comp & c, const int *xo, int iy, bool inside,
    const float *wx, const float *wy)
{
  float sum = 0.f;

#pragma unroll
  for (int j = 0; j < 4; j++) {
    const uint8_t *row = c.data + (size_t) (inside ? iy - 1 + j :
        mirror (iy - 1 + j, c.height)) * c.pitch;
    float r = 0.f;
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const float v = BYTES1 ? (float) __ldg (row + xo[i]) :
          (float) raw_at (c, row + xo[i]) * c.to8;

      r = __fadd_rn (r, __fmul_rn (wx[i], v));
    }
    sum = __fadd_rn (sum, __fmul_rn (wy[j], r));
  }
  return sum;
}

/* The same sum for bytes in a row (step 1) with the window inside and 4
 * more bytes after it: a row's 4 samples come from 2 aligned word loads
 * (the same bytes, the same products and sums) */
__device__ __forceinline__ float
bicubic_sum_words (const Comp & c, int ix, int iy, const float *wx,
    const float *wy)
{
  float sum = 0.f;

#pragma unroll
  for (int j = 0; j < 4; j++) {
    const uintptr_t a = (uintptr_t) (c.data + (size_t) (iy - 1 + j) *
        c.pitch + ix - 1);
    const uint32_t *w = (const uint32_t *) (a & ~(uintptr_t) 3);
    const uint32_t q = __funnelshift_r (__ldg (w), __ldg (w + 1),
        8 * (unsigned) (a & 3));
    float r = 0.f;
#pragma unroll
    for (int i = 0; i < 4; i++)
      r = __fadd_rn (r, __fmul_rn (wx[i], (float) ((q >> (8 * i)) & 0xff)));
    sum = __fadd_rn (sum, __fmul_rn (wy[j], r));
  }
  return sum;
}

/* Catmull-Rom sample of @c at (x, y), 8-bit units, mirrored borders: the
 * reference's products and sums in its order. 8-bit samples take a path
 * of their own (byte loads, no scaling) and the mirror is skipped where
 * the 4x4 window is inside the image: this is most of the warps' time. */
__device__ float
bicubic (const Comp & c, float x, float y)
{
  float fx = floorf (x), fy = floorf (y), wx[4], wy[4];
  int ix = (int) fx, iy = (int) fy, xo[4];
  const bool inside = ix >= 1 && iy >= 1 && ix + 2 < c.width
      && iy + 2 < c.height;

  catmull_rom (__fsub_rn (x, fx), wx);
  catmull_rom (__fsub_rn (y, fy), wy);
  /* the word loads read up to 4 bytes past the window (inside the row
   * here) and up to 3 before it (in the aligned word of its first byte:
   * never outside the allocation) */
  if (c.bytes == 1 && c.step == 1 && inside && ix + 7 <= c.width)
    return bicubic_sum_words (c, ix, iy, wx, wy);
#pragma unroll
  for (int i = 0; i < 4; i++)
    xo[i] = (inside ? ix - 1 + i : mirror (ix - 1 + i, c.width)) * c.step;
  return c.bytes == 1 ? bicubic_sum < true > (c, xo, iy, inside, wx, wy) :
      bicubic_sum < false > (c, xo, iy, inside, wx, wy);
}

/* the warped neighbour's luma at (x, y), from its block's vector */
__device__ __forceinline__ float
warp_luma (const Comp & nb, const float2 * vec, int bw, int x, int y)
{
  float2 v = vec[(y / BLK) * bw + x / BLK];

  return bicubic (nb, __fadd_rn ((float) x, v.x), __fadd_rn ((float) y, v.y));
}

struct WarpArgs
{
  Comp cur;
  Comp nb[MAXN];
  const float2 *vec[MAXN];
  float *warped[MAXN];
  long long *ipart;             /* ISUM_ROWS rows of one sum per tile */
  int bw, tiles;
};

__device__ __forceinline__ double
block_sum (double v)
{
  __shared__ double s_part[32];
  int lane = (threadIdx.y * blockDim.x + threadIdx.x) & 31;
  int wid = (threadIdx.y * blockDim.x + threadIdx.x) >> 5;
  int nw = (blockDim.x * blockDim.y + 31) >> 5;

  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  if (lane == 0)
    s_part[wid] = v;
  __syncthreads ();
  v = 0.0;
  if (wid == 0) {
    v = lane < nw ? s_part[lane] : 0.0;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync (0xffffffffu, v, o);
  }
  return v;                     /* in thread 0 */
}

/* Two integer sums over the block at once (exact: any order), into
 * thread 0's @a and @b */
__device__ __forceinline__ void
block_sum_int2 (long long &a, long long &b)
{
  __shared__ long long s_part[2][32];
  int lane = (threadIdx.y * blockDim.x + threadIdx.x) & 31;
  int wid = (threadIdx.y * blockDim.x + threadIdx.x) >> 5;
  int nw = (blockDim.x * blockDim.y + 31) >> 5;

  for (int o = 16; o > 0; o >>= 1) {
    a += __shfl_xor_sync (0xffffffffu, a, o);
    b += __shfl_xor_sync (0xffffffffu, b, o);
  }
  if (lane == 0) {
    s_part[0][wid] = a;
    s_part[1][wid] = b;
  }
  __syncthreads ();
  a = b = 0;
  if (wid == 0) {
    a = lane < nw ? s_part[0][lane] : 0;
    b = lane < nw ? s_part[1][lane] : 0;
    for (int o = 16; o > 0; o >>= 1) {
      a += __shfl_xor_sync (0xffffffffu, a, o);
      b += __shfl_xor_sync (0xffffffffu, b, o);
    }
  }
  __syncthreads ();             /* s_part is free for a next call */
}

/* a value in 8-bit units rounded to 1/STAT_SCALE, as the reference's
 * lrintf (v * STAT_SCALE) (to nearest, ties to even) */
__device__ __forceinline__ long long
stat_q (float v)
{
  return (long long) __float2int_rn (__fmul_rn (v, STAT_SCALE));
}

/* Each neighbour's luma warped (kept for the next kernels) and, per tile,
 * the sums of its integer samples and of their squares; the blocks of
 * neighbour 0 sum the current frame's too */
__global__ void __launch_bounds__ (256)
warp_error (const __grid_constant__ WarpArgs a)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  const size_t tile = blockIdx.y * gridDim.x + blockIdx.x;
  long long q1 = 0, q2 = 0, c1 = 0, c2 = 0;

  if (x < a.cur.width && y < a.cur.height) {
    a.warped[k][(size_t) y * a.cur.width + x] = warp_luma (a.nb[k], a.vec[k],
        a.bw, x, y);
    q1 = raw (a.nb[k], x, y);
    q2 = q1 * q1;
    if (k == 0) {
      c1 = raw (a.cur, x, y);
      c2 = c1 * c1;
    }
  }
  block_sum_int2 (q1, q2);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    a.ipart[(size_t) ISUM_NB (k) * a.tiles + tile] = q1;
    a.ipart[(size_t) (ISUM_NB (k) + 1) * a.tiles + tile] = q2;
  }
  if (k == 0) {                 /* the same for the whole block */
    block_sum_int2 (c1, c2);
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      a.ipart[(size_t) ISUM_CUR * a.tiles + tile] = c1;
      a.ipart[(size_t) (ISUM_CUR + 1) * a.tiles + tile] = c2;
    }
  }
}

/* A frame's mean in 8-bit levels from the sum of its @n integer samples,
 * @scale of them to a level (1 for 8 bits: the reference's plane_stats,
 * its double operations one by one; powers of 2 for more bits, exact) */
__device__ __forceinline__ double
mean_of (long long sum, double n, double scale)
{
  return __ddiv_rn (__ddiv_rn ((double) sum, n), scale);
}

/* ... and its variance, with @sum2 the sum of the squares */
__device__ __forceinline__ double
var_of (long long sum, long long sum2, double n, double scale)
{
  double m = mean_of (sum, n, scale);
  double v = __dsub_rn (__ddiv_rn (__ddiv_rn ((double) sum2, n),
          __dmul_rn (scale, scale)), __dmul_rn (m, m));

  return v < 0.0 ? 0.0 : v;
}

/* Neighbour @k's gain and offset onto the current frame (the reference's
 * match_gain), from the frame sums; @scale: samples per 8-bit level */
__device__ __forceinline__ void
match_gain (const long long *isum, int k, double npix, double scale,
    float *gain, float *offset)
{
  double cm = mean_of (isum[ISUM_CUR], npix, scale);
  double cv = var_of (isum[ISUM_CUR], isum[ISUM_CUR + 1], npix, scale);
  double wm = mean_of (isum[ISUM_NB (k)], npix, scale);
  double wv = var_of (isum[ISUM_NB (k)], isum[ISUM_NB (k) + 1], npix, scale);
  double g = wv >= 1.0 / 16.0 ? __dsqrt_rn (__ddiv_rn (cv, wv)) : 1.0;

  *gain = (float) g;
  *offset = (float) __dsub_rn (cm, __dmul_rn (g, wm));
}

/* The warped luma @warped (w x h) at mirrored (x, y), brightness-matched:
 * the reference's g W + o, product and sum rounded one by one */
__device__ __forceinline__ float
matched_at (const float *warped, int w, int h, int x, int y, float g,
    float o)
{
  return __fadd_rn (__fmul_rn (g, __ldg (&warped[(size_t) mirror (y, h) * w +
                  mirror (x, w)])), o);
}

struct ResidualArgs
{
  Comp cur;
  const float *warped[MAXN];
  long long *ipart;
  const float *gain, *offset;
  int tiles;
};

/* Each neighbour's gain and offset (thread k), once per output frame:
 * double operations that every tile would otherwise wait for */
__global__ void
match_gains (const long long *isum, int n, double npix, double scale,
    float *gain, float *offset)
{
  const int k = threadIdx.x;

  if (k < n)
    match_gain (isum, k, npix, scale, &gain[k], &offset[k]);
}

/* The cut tests' sums of neighbour blockIdx.z, per tile: with D the
 * matched warped luma minus the current one, the squares of D and of its
 * 3x3 window's sum (row by row, the reference's order), each rounded to
 * 1/16 first. */
__global__ void __launch_bounds__ (TX * TY)
residual (const __grid_constant__ ResidualArgs a)
{
  __shared__ float s_d[HY][HX];
  const int tid = threadIdx.y * TX + threadIdx.x, k = blockIdx.z;
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  const float g = __ldg (&a.gain[k]), o = __ldg (&a.offset[k]);
  long long d2 = 0, low2 = 0;

  for (int i = tid; i < HX * HY; i += TX * TY) {
    int hx = i % HX, hy = i / HX;

    s_d[hy][hx] = __fsub_rn (matched_at (a.warped[k], a.cur.width,
            a.cur.height, x0 + hx - 1, y0 + hy - 1, g, o),
        sample8 (a.cur, x0 + hx - 1, y0 + hy - 1));
  }
  __syncthreads ();
  if (x < a.cur.width && y < a.cur.height) {
    float s9 = 0.f;
    long long q = stat_q (s_d[threadIdx.y + 1][threadIdx.x + 1]);

    d2 = q * q;
    for (int dy = 0; dy < 3; dy++)
      for (int dx = 0; dx < 3; dx++)
        s9 = __fadd_rn (s9, s_d[threadIdx.y + dy][threadIdx.x + dx]);
    q = stat_q (s9);
    low2 = q * q;
  }
  block_sum_int2 (d2, low2);
  if (tid == 0) {
    const size_t tile = blockIdx.y * gridDim.x + blockIdx.x;

    a.ipart[(size_t) ISUM_CUT (k) * a.tiles + tile] = d2;
    a.ipart[(size_t) (ISUM_CUT (k) + 1) * a.tiles + tile] = low2;
  }
}

/* ---- the mean -------------------------------------------------------- */

/* Another shot: the reference's two tests on neighbour @k's sums, its
 * double operations */
__device__ __forceinline__ bool
other_shot (const long long *isum, int k, float noise2, double npix)
{
  const double sq = (double) (STAT_SCALE * STAT_SCALE);
  double mse = __ddiv_rn (__ddiv_rn ((double) isum[ISUM_CUT (k)], npix), sq);
  double low = __ddiv_rn (__ddiv_rn ((double) isum[ISUM_CUT (k) + 1], npix),
      __dmul_rn (sq, 81.0));

  return mse > __dmul_rn (CUT_RATIO, (double) noise2)
      || (low > __ddiv_rn (__dmul_rn (LOW_RATIO, (double) noise2), 9.0)
      && low > LOW_FLOOR);
}

/* Skipped for its brightness: neighbour @k's mean further than
 * BRIGHT_SKIP levels from the current frame's */
__device__ __forceinline__ bool
too_bright (const long long *isum, int k, double npix, double scale)
{
  return fabs (__dsub_rn (mean_of (isum[ISUM_CUR], npix, scale),
          mean_of (isum[ISUM_NB (k)], npix, scale))) > BRIGHT_SKIP;
}

/* Which neighbours count: outward on each side, those not skipped for
 * their brightness up to the first that is another shot (k < n_past:
 * past k + 1; then the future ones). @scale: luma samples per 8-bit
 * level. */
__device__ __forceinline__ unsigned
kept_neighbours (const long long *isum, int n_past, int n_future,
    float noise2, double npix, double scale)
{
  unsigned kept = 0;

  if (!(noise2 > 0.f))
    return 0;
  for (int side = 0; side < 2; side++) {
    const int first = side ? n_past : 0, n = side ? n_future : n_past;

    for (int k = first; k < first + n; k++) {
      if (too_bright (isum, k, npix, scale))
        continue;
      if (other_shot (isum, k, noise2, npix))
        break;
      kept |= 1u << k;
    }
  }
  return kept;
}

/* The neighbours that count, once per output frame (one thread): every
 * sample of the mean reads the decision */
__global__ void
decide (const long long *isum, int n_past, int n_future, float noise2,
    double npix, double scale, unsigned *kept)
{
  *kept = kept_neighbours (isum, n_past, n_future, noise2, npix, scale);
}

struct MeanArgs
{
  Comp cur;
  const float *warped[MAXN];
  uint8_t *weight[MAXN];        /* NULL: no chroma */
  const unsigned *kept;
  const float *gain, *offset;
  double *var_part;             /* one partial sum per tile */
  uint8_t *mean;
  int mean_pitch;
  int n_past, n_future, bw;
  int sx, sy, cw, ch;           /* chroma subsampling (shifts) and size */
  float noise2;
};

__global__ void __launch_bounds__ (TX * TY)
luma_mean (const __grid_constant__ MeanArgs a)
{
  /* s_d2: (warped - current)^2 of each sample of the tile, computed once
   * and summed over each 3x3 window in the reference's order: the same
   * products and sums as computing them per window */
  __shared__ float s_cur[HY][HX], s_warp[HY][HX], s_d2[HY][HX];
  const int tid = threadIdx.y * TX + threadIdx.x;
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  const bool inside = x < a.cur.width && y < a.cur.height;
  const int n = a.n_past + a.n_future;
  const unsigned kept = __ldg (a.kept);
  float acc = 0.f, wsum = 0.f, w2sum = 0.f;

  for (int i = tid; i < HX * HY; i += TX * TY) {
    int hx = i % HX, hy = i / HX;
    s_cur[hy][hx] = sample8 (a.cur, x0 + hx - 1, y0 + hy - 1);
  }
  __syncthreads ();
  if (inside)
    acc = s_cur[threadIdx.y + 1][threadIdx.x + 1];

  for (int k = 0; k < n; k++) {
    if (!(kept >> k & 1u))
      continue;                 /* the same for the whole block */
    const float g = a.gain[k], o = a.offset[k];
    for (int i = tid; i < HX * HY; i += TX * TY) {
      int hx = i % HX, hy = i / HX;
      /* the reference's window reads the matched image at mirrored
       * coordinates */
      float w = matched_at (a.warped[k], a.cur.width, a.cur.height,
          x0 + hx - 1, y0 + hy - 1, g, o);
      float d = __fsub_rn (w, s_cur[hy][hx]);

      s_warp[hy][hx] = w;
      s_d2[hy][hx] = __fmul_rn (d, d);
    }
    __syncthreads ();
    if (inside) {
      float e = 0.f, r, wt;
      for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
          e = __fadd_rn (e, s_d2[threadIdx.y + dy][threadIdx.x + dx]);
      r = __fdiv_rn (__fdiv_rn (e, 9.0f), a.noise2);
      wt = r <= 1.5f ? 1.0f : r >= 4.0f ? 0.0f : __fdiv_rn (__fsub_rn (4.0f,
              r), 2.5f);
      acc = __fadd_rn (acc, __fmul_rn (wt, s_warp[threadIdx.y +
                  1][threadIdx.x + 1]));
      wsum = __fadd_rn (wsum, wt);
      w2sum = __fadd_rn (w2sum, __fmul_rn (wt, wt));
      if (a.weight[k] && !(x & ((1 << a.sx) - 1))
          && !(y & ((1 << a.sy) - 1)) && (x >> a.sx) < a.cw
          && (y >> a.sy) < a.ch)
        a.weight[k][(size_t) (y >> a.sy) * a.cw + (x >> a.sx)] =
            (uint8_t) __float2int_rn (wt * 255.f);
    }
    __syncthreads ();
  }

  double v = 0.0;
  if (inside) {
    float norm = __fadd_rn (1.0f, wsum);
    store8 (a.mean + (size_t) y * a.mean_pitch, x, a.cur,
        __fdiv_rn (acc, norm));
    v = (double) __fdiv_rn (__fadd_rn (1.0f, w2sum), __fmul_rn (norm, norm));
  }
  v = block_sum (v);
  if (tid == 0)
    a.var_part[blockIdx.y * gridDim.x + blockIdx.x] = v;
}

struct ChromaArgs
{
  Comp cur[2];
  Comp nb[MAXN][2];
  const float2 *vec[MAXN];
  const uint8_t *weight[MAXN];
  const unsigned *kept;
  uint8_t *mean[2];
  int mean_pitch[2];
  int n_past, n_future, bw, luma_w, luma_h, sx, sy;
};

/* chroma follows luma: the vector of the co-sited luma sample's block,
 * scaled by the subsampling, and that sample's weight */
__global__ void __launch_bounds__ (256)
chroma_mean (const __grid_constant__ ChromaArgs a)
{
  const int c = blockIdx.z;
  const Comp & cur = a.cur[c];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= cur.width || y >= cur.height)
    return;
  const unsigned kept = __ldg (a.kept);
  const int lx = min (x << a.sx, a.luma_w - 1), ly = min (y << a.sy,
      a.luma_h - 1);
  const float fx = 1.f / (float) (1 << a.sx), fy = 1.f / (float) (1 << a.sy);
  float acc = (float) raw (cur, x, y) * cur.to8, wsum = 0.f;

  for (int k = 0; k < a.n_past + a.n_future; k++) {
    if (!(kept >> k & 1u))
      continue;
    float2 v = a.vec[k][(ly / BLK) * a.bw + lx / BLK];
    float wt = (float) a.weight[k][(size_t) y * cur.width + x] *
        (1.f / 255.f);
    if (wt > 0.f) {
      acc += wt * bicubic (a.nb[k][c], (float) x + v.x * fx,
          (float) y + v.y * fy);
      wsum += wt;
    }
  }
  store8 (a.mean[c] + (size_t) y * a.mean_pitch[c], x, cur,
      acc / (1.f + wsum));
}

/* sums[i] = the sum of the @n partial sums parts[i * n ..], in a fixed
 * order (one block per sum) */
__global__ void __launch_bounds__ (1024)
sum_parts (const double *parts, int n, double *sums)
{
  const double *p = parts + (size_t) blockIdx.x * n;
  double v = 0.0;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    v += p[i];
  v = block_sum (v);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = v;
}

/* The same for integer sums (exact: the order does not matter) */
__global__ void __launch_bounds__ (1024)
sum_parts_int (const long long *parts, int n, long long *sums)
{
  const long long *p = parts + (size_t) blockIdx.x * n;
  long long v = 0, unused = 0;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    v += p[i];
  block_sum_int2 (v, unused);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = v;
}

__global__ void
noise_scale (const double *var, double npix, float *scale)
{
  *scale = sqrtf ((float) (*var / npix));
}

/* ---- launch ---------------------------------------------------------- */

static bool
comp_ok (const CfxPlane & p, int w, int h)
{
  bool words = p.bytes == 2 && p.depth >= 9 && p.depth <= 16
      && p.shift >= 0 && p.shift <= 16 - p.depth;

  return p.width == w && p.height == h && (p.bytes == 1 || words)
      && p.step >= p.bytes && p.data != NULL;
}

extern "C" cudaError_t
cfx_temporal_mean (const CfxPlane * cur, int cur_slot, int n_channels,
    const CfxTemporalParams * p, CfxTemporalScratch * s, cudaStream_t stream)
{
  const CfxTemporalNeighbour *nbs[MAXN];
  cudaError_t err;
  int n = 0, c, k, l;

  if (!s || !cur || !p || n_channels != s->n || cur_slot < 0
      || cur_slot >= CFX_TEMPORAL_SLOTS || p->n_past < 0
      || p->n_future < 0 || p->n_past > s->radius
      || p->n_future > s->radius)
    return cudaErrorInvalidValue;
  for (k = 0; k < p->n_past; k++)
    nbs[n++] = &p->past[k];
  for (k = 0; k < p->n_future; k++)
    nbs[n++] = &p->future[k];
  for (c = 0; c < n_channels; c++) {
    if (!comp_ok (cur[c], s->width[c], s->height[c]))
      return cudaErrorInvalidValue;
    for (k = 0; k < n; k++)
      if (!nbs[k]->frame || nbs[k]->slot < 0
          || nbs[k]->slot >= CFX_TEMPORAL_SLOTS
          || !comp_ok (nbs[k]->frame[c], s->width[c], s->height[c])
          || nbs[k]->frame[c].bytes != cur[c].bytes
          || nbs[k]->frame[c].depth != cur[c].depth)
        return cudaErrorInvalidValue;
  }


  Comp luma = comp_of (cur[0]);
  const float noise2 = 2.0f * p->sigma * p->sigma;

  if (n > 0 && p->sigma > 0.f) {
    /* motion, coarse to fine */
    for (l = LEVELS - 1; l >= 0; l--) {
      MatchArgs m;

      memset (&m, 0, sizeof (m));
      m.cur = s->search[cur_slot][l];
      for (k = 0; k < n; k++) {
        m.ref[k] = s->search[nbs[k]->slot][l];
        m.parent[k] = l < LEVELS - 1 ? s->ivec[k][l + 1] : NULL;
        m.out[k] = s->ivec[k][l];
        m.sub[k] = l == 0 ? s->vec[k] : NULL;
      }
      m.w = s->lw[l];
      m.h = s->lh[l];
      m.bw = s->bw[l];
      m.bh = s->bh[l];
      m.pbw = l < LEVELS - 1 ? s->bw[l + 1] : 0;
      m.pbh = l < LEVELS - 1 ? s->bh[l + 1] : 0;
      m.unit = (9 << (2 * l)) << (luma.bytes == 1 ? 0 : cur[0].depth - 8);
      err = cfx_launch (match, dim3 ((m.bw + MATCH_TX - 1) / MATCH_TX,
              (m.bh + MATCH_TY - 1) / MATCH_TY, n), dim3 (MATCH_THREADS), 0,
          stream, m);
      if (err != cudaSuccess)
        return err;
    }

    WarpArgs wa;
    memset (&wa, 0, sizeof (wa));
    wa.cur = luma;
    for (k = 0; k < n; k++) {
      wa.nb[k] = comp_of (nbs[k]->frame[0]);
      wa.vec[k] = s->vec[k];
      wa.warped[k] = s->warped[k];
    }
    wa.ipart = s->ipart;
    wa.bw = s->bw[0];
    wa.tiles = s->tiles;
    const dim3 tiles ((luma.width + TX - 1) / TX, (luma.height + TY - 1) / TY,
        n);
    err = cfx_launch (warp_error, tiles, dim3 (TX, TY), 0, stream, wa);
    if (err == cudaSuccess)
      err = cfx_launch (sum_parts_int, dim3 (ISUM_NB (n)), dim3 (1024), 0,
          stream, (const long long *) s->ipart, s->tiles, s->isum);
    if (err == cudaSuccess)
      err = cfx_launch (match_gains, dim3 (1), dim3 (MAXN), 0, stream,
          (const long long *) s->isum, n,
          (double) luma.width * luma.height, (double) luma.from8, s->gain,
          s->offset);
    if (err != cudaSuccess)
      return err;

    ResidualArgs ra;
    memset (&ra, 0, sizeof (ra));
    ra.cur = luma;
    for (k = 0; k < n; k++)
      ra.warped[k] = s->warped[k];
    ra.ipart = s->ipart;
    ra.gain = s->gain;
    ra.offset = s->offset;
    ra.tiles = s->tiles;
    err = cfx_launch (residual, tiles, dim3 (TX, TY), 0, stream, ra);
    if (err == cudaSuccess)
      err = cfx_launch (sum_parts_int, dim3 (2 * n), dim3 (1024), 0, stream,
          (const long long *) (s->ipart + (size_t) ISUM_CUT (0) * s->tiles),
          s->tiles, s->isum + ISUM_CUT (0));
    if (err != cudaSuccess)
      return err;
  }

  MeanArgs ma;
  memset (&ma, 0, sizeof (ma));
  ma.cur = luma;
  for (k = 0; k < n; k++) {
    ma.warped[k] = s->warped[k];
    ma.weight[k] = n_channels > 1 ? s->weight[k] : NULL;
  }
  ma.kept = s->kept;
  ma.gain = s->gain;
  ma.offset = s->offset;
  ma.var_part = s->part;
  ma.mean = s->mean[0];
  ma.mean_pitch = s->mean_pitch[0];
  ma.n_past = p->sigma > 0.f ? p->n_past : 0;
  ma.n_future = p->sigma > 0.f ? p->n_future : 0;
  ma.bw = s->bw[0];
  if (n_channels > 1) {
    ma.sx = s->cw < s->width[0] ? 1 : 0;
    ma.sy = s->ch < s->height[0] ? 1 : 0;
    ma.cw = s->cw;
    ma.ch = s->ch;
  }
  ma.noise2 = noise2;
  err = cfx_launch (decide, dim3 (1), dim3 (1), 0, stream,
      (const long long *) s->isum, ma.n_past, ma.n_future, noise2,
      (double) luma.width * luma.height, (double) luma.from8, s->kept);
  if (err != cudaSuccess)
    return err;
  err = cfx_launch (luma_mean, dim3 ((luma.width + TX - 1) / TX,
          (luma.height + TY - 1) / TY), dim3 (TX, TY), 0, stream, ma);
  if (err != cudaSuccess)
    return err;

  if (n_channels > 1 && s->cw > 0 && s->ch > 0) {
    ChromaArgs ca;
    memset (&ca, 0, sizeof (ca));
    for (c = 0; c < n_channels - 1; c++) {
      ca.cur[c] = comp_of (cur[c + 1]);
      ca.mean[c] = s->mean[c + 1];
      ca.mean_pitch[c] = s->mean_pitch[c + 1];
      for (k = 0; k < n; k++)
        ca.nb[k][c] = comp_of (nbs[k]->frame[c + 1]);
    }
    for (k = 0; k < n; k++) {
      ca.vec[k] = s->vec[k];
      ca.weight[k] = s->weight[k];
    }
    ca.kept = s->kept;
    ca.n_past = ma.n_past;
    ca.n_future = ma.n_future;
    ca.bw = s->bw[0];
    ca.luma_w = s->width[0];
    ca.luma_h = s->height[0];
    ca.sx = ma.sx;
    ca.sy = ma.sy;
    err = cfx_launch (chroma_mean, dim3 ((s->cw + 31) / 32, (s->ch + 7) / 8,
            n_channels - 1), dim3 (32, 8), 0, stream, ca);
    if (err != cudaSuccess)
      return err;
  }

  err = cfx_launch (sum_parts, dim3 (1), dim3 (1024), 0, stream,
      (const double *) s->part, s->tiles, s->var);
  if (err != cudaSuccess)
    return err;
  return cfx_launch (noise_scale, dim3 (1), dim3 (1), 0, stream,
      (const double *) s->var, (double) s->width[0] * s->height[0],
      s->scale);
}
