/* Motion-compensated deinterlacing (method mc): kernels/deinterlace-mc.md
 * is the method, tests/reference/deinterlace-mc.c (cfx_ref_deinterlace_mc)
 * its definition, and every value here is that reference's integer
 * arithmetic, so the output is the reference's bit for bit:
 *   - search images, SADs, vectors: integer sums (any order gives the same
 *     costs); one 8-lane group searches one block and takes its
 *     candidates in the reference's order (ties keep the earlier);
 *   - the parabola, the Catmull-Rom taps, the phases, confidences and the
 *     blend: the reference's integer expressions. Its denominators are
 *     powers of two here (VEC_DEN << s, twice that, and their cubes), so
 *     its floor divisions by them are arithmetic shifts (floor_shift);
 *   - the scene-cut sums: 64-bit integer atomics (exact in any order).
 *
 * Per output field (parity p; fields k -+ 2 are prev's and next's fields
 * of parity p, k -+ 1 the opposite fields bwdif calls A and B):
 *   bwdif          cfx_deinterlace_frame () into dst, every component: the
 *                  kept rows and the floor (the same kernel as
 *                  method=bwdif, so the same samples)
 *   field_image    (per input field, kept by key and parity in the
 *                  scratch's slots: a field serves up to four outputs)
 *                  the luma field scaled to 8 bits, 3x3 sums, mirrored;
 *   field_down     two levels of 2x2 sums
 *   match          3 launches (levels 2, 1, 0), both sides in one grid;
 *                  level 0 adds the 1/8-sample parabola and sums the
 *                  inner blocks' SADs (the cut measure)
 *   blend          every missing sample of every component, in place over
 *                  bwdif's: per side, the prediction (Catmull-Rom in the
 *                  field of smaller phase), the agreement E on the 6 kept
 *                  neighbours, the confidence; the blend. A field with a
 *                  cut, or no side, keeps bwdif's output (the threads read
 *                  the cut sums and return).
 *
 * Floor (2160i I420, one output field): bwdif's 2.5 frames read + 1
 * written (43.5 MB, ~15 us); the field images read the luma of the new
 * field (4 MB) and write 3 int levels (~22 MB); the blend reads bwdif's
 * missing rows and writes them back (6 MB) and reads four fields'
 * samples around each output through L1/L2: about 60 MB of DRAM in all,
 * ~25 us at 2.4 TB/s. The time is arithmetic, not bytes: the blend's
 * 2 x 7 Catmull-Rom samples of 16 taps (64-bit products) per missing
 * sample, and the search's SADs (81 candidates at level 2, about 15 at
 * levels 1 and 0, 64 samples each; one 1080-row field image per side).
 *
 * Access pattern: field_image stages a 32x8 tile plus border in shared
 * memory; match (as temporal.cu's) a thread column per block column, the
 * reference image around 8x4 blocks in shared memory; blend: a thread per
 * missing sample, 32 consecutive samples of a row a warp, its taps from
 * L1/L2 (four fields' rows around it, reused by the neighbours). */
#include <string.h>

#include "cudafx-kernels.h"
#include "kernel-helpers.h"

/* the reference's constants (tests/reference/deinterlace-mc.c) */
#define BLOCK 8
#define LEVELS 3
#define SEARCH2 4
#define LAMBDA 0
#define MAX_REFINE 4
#define VEC_DEN 8
#define VEC_DEN_LOG2 3
#define CUT_COST (16 * 7)
#define AGREE_LO 3
#define AGREE_HI 15

/* search-image slots: prev, cur and next of both parities, and two to
 * spare */
#define SLOTS 8
#define SIDES 2                 /* prev (k - 1, k - 2), next (k + 1, k + 2) */
#define MAX_COMPS CFX_DEINT_MAX_COMPONENTS

/* ---- state ------------------------------------------------------------ */

struct _CfxDeintMc
{
  int width, height;            /* luma */
  /* level sizes of the taller field ((height + 1) / 2 rows): the
   * allocation; a call's own are field_levels () */
  int lw[LEVELS], lh[LEVELS], bw[LEVELS], bh[LEVELS];
  /* search images: per slot and level, int sums */
  int *image[SLOTS][LEVELS];
  uint64_t key[SLOTS];
  int parity[SLOTS];
  bool held[SLOTS];
  unsigned long long used_at[SLOTS];    /* the call that last used it */
  unsigned long long calls;
  /* per side: integer vectors of each level; level 0 in 1/VEC_DEN */
  int2 *ivec[SIDES][LEVELS];
  int2 *vec[SIDES];
  /* per side: the inner blocks' level-0 SADs, summed */
  unsigned long long *sad_sum;
  void *mem;
  size_t bytes;
};

static size_t
align_up (size_t v, size_t a)
{
  return (v + a - 1) / a * a;
}

/* rows of the field of parity r of a plane of h rows (the reference's
 * field_rows) */
static inline int
field_rows (int h, int r)
{
  return (h - r + 1) / 2;
}

/* The level sizes of a w x h image: w, h halved rounding up */
static void
field_levels (int w, int h, int *lw, int *lh, int *bw, int *bh)
{
  for (int l = 0; l < LEVELS; l++) {
    lw[l] = l ? (lw[l - 1] + 1) / 2 : w;
    lh[l] = l ? (lh[l - 1] + 1) / 2 : h;
    bw[l] = (lw[l] + BLOCK - 1) / BLOCK;
    bh[l] = (lh[l] + BLOCK - 1) / BLOCK;
  }
}

extern "C" cudaError_t
cfx_deint_mc_new (CfxDeintMc ** mc, int luma_width, int luma_height)
{
  CfxDeintMc *s;
  size_t off = 0;
  uint8_t *base = NULL;
  cudaError_t err;

  if (!mc)
    return cudaErrorInvalidValue;
  *mc = NULL;
  if (luma_width < 1 || luma_height < 2)
    return cudaErrorInvalidValue;
  s = (CfxDeintMc *) calloc (1, sizeof (*s));
  if (!s)
    return cudaErrorMemoryAllocation;
  s->width = luma_width;
  s->height = luma_height;
  field_levels (luma_width, field_rows (luma_height, 0), s->lw, s->lh, s->bw,
      s->bh);

  /* pass 0 sizes, pass 1 hands out */
  for (int pass = 0; pass < 2; pass++) {
#define TAKE(ptr, type, count) do { \
      off = align_up (off, 256); \
      if (pass) (ptr) = (type *) (base + off); \
      off += (size_t) (count) * sizeof (type); \
    } while (0)
    off = 0;
    for (int k = 0; k < SLOTS; k++)
      for (int l = 0; l < LEVELS; l++)
        TAKE (s->image[k][l], int, (size_t) s->lw[l] * s->lh[l]);
    for (int side = 0; side < SIDES; side++) {
      for (int l = 0; l < LEVELS; l++)
        TAKE (s->ivec[side][l], int2, (size_t) s->bw[l] * s->bh[l]);
      TAKE (s->vec[side], int2, (size_t) s->bw[0] * s->bh[0]);
    }
    TAKE (s->sad_sum, unsigned long long, SIDES);
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
  *mc = s;
  return cudaSuccess;
}

extern "C" void
cfx_deint_mc_free (CfxDeintMc * mc)
{
  if (!mc)
    return;
  cudaFree (mc->mem);
  free (mc);
}

extern "C" size_t
cfx_deint_mc_bytes (const CfxDeintMc * mc)
{
  return mc ? mc->bytes : 0;
}

/* the kernels and their types: this file's own (temporal.cu has a match
 * kernel and MatchArgs of its own) */
namespace
{

/* ---- samples ---------------------------------------------------------- */

/* a component as the kernels read it: sample x of row y at data + y pitch
 * + x step; 16-bit words hold depth bits at shift */
struct Comp
{
  uint8_t *data;
  int pitch, step, bytes, shift, width, height;
  unsigned mask;
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
  return c;
}

/* the reference's px (): the sample's significant bits */
__device__ __forceinline__ int
px (const Comp & c, int x, int y)
{
  const uint8_t *p = c.data + (size_t) y * c.pitch + (size_t) x * c.step;

  if (c.bytes == 1)
    return __ldg (p);
  return (int) ((__ldg ((const uint16_t *) p) >> c.shift) & c.mask);
}

/* sample (x, j) of the field image of parity r, mirrored in the field
 * (the reference's field_px) */
__device__ __forceinline__ int
field_px (const Comp & c, int r, int x, int j)
{
  return px (c, mirror (x, c.width),
      2 * mirror (j, (c.height - r + 1) / 2) + r);
}

/* floor (a / 2^lg): the reference's floor_div by a power of two */
__device__ __forceinline__ long long
floor_shift (long long a, int lg)
{
  return a >> lg;               /* arithmetic: rounds towards -inf */
}

/* ---- search images ---------------------------------------------------- */

#define IMG_TX 32
#define IMG_TY 8

/* Level 0 of the field of parity r: each sample the sum of its 3x3 window
 * of 8-bit-scaled field samples (>> down), mirrored in the field. A 32x8
 * tile and its border in shared memory: each sample loaded once. */
__global__ void __launch_bounds__ (IMG_TX * IMG_TY)
field_image (const Comp luma, int r, int down, int *out, int w, int h)
{
  __shared__ int s_in[IMG_TY + 2][IMG_TX + 2];
  const int x0 = blockIdx.x * IMG_TX, y0 = blockIdx.y * IMG_TY;
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  const int tid = threadIdx.y * IMG_TX + threadIdx.x;

  for (int i = tid; i < (IMG_TY + 2) * (IMG_TX + 2); i += IMG_TX * IMG_TY) {
    const int hx = i % (IMG_TX + 2), hy = i / (IMG_TX + 2);

    s_in[hy][hx] = field_px (luma, r, x0 + hx - 1, y0 + hy - 1) >> down;
  }
  __syncthreads ();
  if (x >= w || y >= h)
    return;
  int sum = 0;
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
      sum += s_in[threadIdx.y + dy][threadIdx.x + dx];
  out[(size_t) y * w + x] = sum;
}

__device__ __forceinline__ int
iat (const int *im, int w, int h, int x, int y)
{
  return __ldg (&im[(size_t) mirror (y, h) * w + mirror (x, w)]);
}

/* the next level: 2x2 sums (the reference's downsample) */
__global__ void __launch_bounds__ (256)
field_down (const int *in, int w, int h, int *out, int ow, int oh)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= ow || y >= oh)
    return;
  out[(size_t) y * ow + x] = iat (in, w, h, 2 * x, 2 * y) +
      iat (in, w, h, 2 * x + 1, 2 * y) + iat (in, w, h, 2 * x, 2 * y + 1) +
      iat (in, w, h, 2 * x + 1, 2 * y + 1);
}

static cudaError_t
make_field_image (CfxDeintMc * s, int slot, const CfxPlane & luma, int r,
    cudaStream_t stream)
{
  int lw[LEVELS], lh[LEVELS], bw[LEVELS], bh[LEVELS];
  const int depth = luma.bytes == 1 ? 8 : luma.depth;
  cudaError_t err;

  field_levels (luma.width, field_rows (luma.height, r), lw, lh, bw, bh);
  err = cfx_launch (field_image, dim3 ((lw[0] + IMG_TX - 1) / IMG_TX,
          (lh[0] + IMG_TY - 1) / IMG_TY), dim3 (IMG_TX, IMG_TY), 0, stream,
      comp_of (luma), r, depth - 8, s->image[slot][0], lw[0], lh[0]);
  for (int l = 1; l < LEVELS && err == cudaSuccess; l++)
    err = cfx_launch (field_down, dim3 ((lw[l] + 31) / 32, (lh[l] + 7) / 8),
        dim3 (32, 8), 0, stream, (const int *) s->image[slot][l - 1],
        lw[l - 1], lh[l - 1], s->image[slot][l], lw[l], lh[l]);
  return err;
}

/* The slot of the search image of field (key, r): kept from an earlier
 * call, or made into the slot used longest ago that this call does not
 * need (@taken: the slots it has already claimed) */
static cudaError_t
field_slot (CfxDeintMc * s, uint64_t key, int r, const CfxPlane & luma,
    unsigned *taken, int *slot, cudaStream_t stream)
{
  int best = -1;
  cudaError_t err;

  for (int i = 0; i < SLOTS; i++)
    if (s->held[i] && s->key[i] == key && s->parity[i] == r) {
      *taken |= 1u << i;
      s->used_at[i] = s->calls;
      *slot = i;
      return cudaSuccess;
    }
  /* a free slot, else the one used longest ago */
  for (int i = 0; i < SLOTS; i++) {
    if (*taken >> i & 1u)
      continue;
    if (!s->held[i]) {
      best = i;
      break;
    }
    if (best < 0 || s->used_at[i] < s->used_at[best])
      best = i;
  }
  /* (a call takes at most 3 of the SLOTS: there is always one) */
  err = make_field_image (s, best, luma, r, stream);
  s->held[best] = err == cudaSuccess;
  s->key[best] = key;
  s->parity[best] = r;
  s->used_at[best] = s->calls;
  *taken |= 1u << best;
  *slot = best;
  return err;
}

/* ---- block matching --------------------------------------------------- */

struct MatchArgs
{
  const int *cur;
  const int *ref[SIDES];
  const int2 *parent[SIDES];    /* NULL: the full search (level 2) */
  int2 *out[SIDES];
  int2 *sub[SIDES];             /* level 0: vectors in 1/VEC_DEN */
  unsigned long long *sad_sum;  /* level 0: per side, the inner blocks' */
  int side_of[SIDES];           /* blockIdx.z -> side */
  int w, h, bw, bh, pbw, pbh;
  int unit;                     /* the bias's unit: 9 * 4^level */
};

/* Eight lanes search one block: lane i holds column i of the block's 8
 * rows of the current image and sums its column's absolute differences;
 * three shuffles among the group's lanes give the block's SAD in each
 * (integers: the reference's sums). A CUDA block searches 8 x 4 motion
 * blocks; the reference image around them, MARGIN samples wider on every
 * side, is in shared memory (candidates within +-MARGIN read it there:
 * all of level 2's, most of the others; farther ones read global memory,
 * mirrored). */
#define MATCH_THREADS 256
#define MATCH_TX 8
#define MATCH_TY 4
#define MARGIN 8
#define RT_W (MATCH_TX * BLOCK + 2 * MARGIN)
#define RT_H (MATCH_TY * BLOCK + 2 * MARGIN)

struct BlockCtx
{
  unsigned mask;                /* the group's lanes */
  const int *ref;
  const int *tile;              /* ref at (tx0 .., ty0 ..), mirrored */
  int tx0, ty0;
  int col;                      /* this lane's column, x */
  bool col_ok;
  int y0, rows, n;              /* first row, rows and samples in the block */
  int cur[BLOCK];
};

/* the reference's block_sad: SAD of the block against ref displaced by
 * (vx, vy) */
__device__ __forceinline__ int
block_sad (const MatchArgs & a, const BlockCtx & b, int vx, int vy)
{
  int sad = 0;

  if (b.col_ok && abs (vx) <= MARGIN && abs (vy) <= MARGIN) {
    const int *t = b.tile + (b.y0 + vy - b.ty0) * RT_W + b.col + vx - b.tx0;
#pragma unroll
    for (int r = 0; r < BLOCK; r++)
      if (r < b.rows)
        sad += abs (b.cur[r] - t[r * RT_W]);
  } else if (b.col_ok) {
    const int rx = mirror (b.col + vx, a.w);
#pragma unroll
    for (int r = 0; r < BLOCK; r++)
      if (r < b.rows)
        sad += abs (b.cur[r] - __ldg (&b.ref[(size_t) mirror (b.y0 + r + vy,
                        a.h) * a.w + rx]));
  }
  sad += __shfl_xor_sync (b.mask, sad, 1);
  sad += __shfl_xor_sync (b.mask, sad, 2);
  sad += __shfl_xor_sync (b.mask, sad, 4);
  return sad;
}

/* the reference's block_cost: SAD plus the bias towards zero */
__device__ __forceinline__ int
bias (const MatchArgs & a, const BlockCtx & b, int vx, int vy)
{
  return LAMBDA * a.unit * b.n * (abs (vx) + abs (vy)) / 16;
}

__device__ __forceinline__ int
block_cost (const MatchArgs & a, const BlockCtx & b, int vx, int vy)
{
  return block_sad (a, b, vx, vy) + bias (a, b, vx, vy);
}

/* the reference's parabola: the minimum through the costs at -1, 0, +1 in
 * 1/VEC_DEN, rounded half up, within +-VEC_DEN / 2; none at an exact
 * match */
__device__ __forceinline__ int
parabola (int cm, int c0, int cp)
{
  const long long den = (long long) cm - 2 * (long long) c0 + cp;
  const long long num = (long long) VEC_DEN * (cm - cp);
  long long q, d;

  if (den <= 0 || c0 == 0)
    return 0;
  /* floor ((num + den) / (2 den)), den > 0 */
  d = 2 * den;
  q = (num + den) / d;
  if ((num + den) % d != 0 && num + den < 0)
    q--;
  return (int) min (max (q, (long long) -VEC_DEN / 2),
      (long long) VEC_DEN / 2);
}

__global__ void __launch_bounds__ (MATCH_THREADS)
match (const __grid_constant__ MatchArgs a)
{
  __shared__ int s_tile[RT_H * RT_W];
  __shared__ unsigned long long s_sad;
  const int lane = threadIdx.x & (BLOCK - 1);
  const int side = a.side_of[blockIdx.z];
  const int g = threadIdx.x / BLOCK;
  const int bx = blockIdx.x * MATCH_TX + g % MATCH_TX;
  const int by = blockIdx.y * MATCH_TY + g / MATCH_TX;
  const bool valid = bx < a.bw && by < a.bh;
  const int2 *parent = a.parent[side];
  BlockCtx b;

  if (threadIdx.x == 0)
    s_sad = 0;
  b.ref = a.ref[side];
  b.tx0 = blockIdx.x * MATCH_TX * BLOCK - MARGIN;
  b.ty0 = blockIdx.y * MATCH_TY * BLOCK - MARGIN;
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

  /* (a group is valid or not as a whole: its shuffles name only its own
   * lanes) */
  if (valid) {
    b.tile = s_tile;
    b.mask = 0xFFu << (threadIdx.x & 24);
    b.col = bx * BLOCK + lane;
    b.col_ok = b.col < a.w;
    b.y0 = by * BLOCK;
    b.rows = min (BLOCK, a.h - b.y0);
    b.n = min (BLOCK, a.w - bx * BLOCK) * b.rows;
#pragma unroll
    for (int r = 0; r < BLOCK; r++)
      b.cur[r] = b.col_ok && r < b.rows ?
          __ldg (&a.cur[(size_t) (b.y0 + r) * a.w + b.col]) : 0;

    /* the reference's match_level: zero first, then the full search or
     * the parents' candidates, then +-1 steps while they improve */
    int2 best = make_int2 (0, 0);
    int cost = block_cost (a, b, 0, 0);

    if (!parent) {
      for (int dy = -SEARCH2; dy <= SEARCH2; dy++)
        for (int dx = -SEARCH2; dx <= SEARCH2; dx++) {
          const int c = block_cost (a, b, dx, dy);

          if (c < cost) {
            cost = c;
            best = make_int2 (dx, dy);
          }
        }
    } else {
      const int nx[5] = { 0, -1, 1, 0, 0 }, ny[5] = { 0, 0, 0, -1, 1 };
#pragma unroll
      for (int i = 0; i < 5; i++) {
        const int qx = min (max (bx / 2 + nx[i], 0), a.pbw - 1);
        const int qy = min (max (by / 2 + ny[i], 0), a.pbh - 1);
        const int2 p = parent[qy * a.pbw + qx];
        const int2 cand = make_int2 (2 * p.x, 2 * p.y);
        const int c = block_cost (a, b, cand.x, cand.y);

        if (c < cost) {
          cost = c;
          best = cand;
        }
      }
    }
    for (int step = 0; step < MAX_REFINE; step++) {
      const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
      const int2 from = best;
#pragma unroll
      for (int i = 0; i < 4; i++) {
        const int c = block_cost (a, b, from.x + dx[i], from.y + dy[i]);

        if (c < cost) {
          cost = c;
          best = make_int2 (from.x + dx[i], from.y + dy[i]);
        }
      }
      if (best.x == from.x && best.y == from.y)
        break;
    }
    if (lane == 0)
      a.out[side][by * a.bw + bx] = best;

    if (a.sub[side]) {
      /* the reference's estimate_motion: cost is block_cost at best */
      const int cxm = block_cost (a, b, best.x - 1, best.y);
      const int cxp = block_cost (a, b, best.x + 1, best.y);
      const int cym = block_cost (a, b, best.x, best.y - 1);
      const int cyp = block_cost (a, b, best.x, best.y + 1);
      /* the cut measure leaves out the border blocks, where there are
       * others */
      const bool inner = (a.bw < 3 || (bx > 0 && bx < a.bw - 1))
          && (a.bh < 3 || (by > 0 && by < a.bh - 1));

      if (lane == 0) {
        a.sub[side][by * a.bw + bx] =
            make_int2 (VEC_DEN * best.x + parabola (cxm, cost, cxp),
            VEC_DEN * best.y + parabola (cym, cost, cyp));
        if (inner)
          atomicAdd (&s_sad, (unsigned long long) (cost - bias (a, b,
                      best.x, best.y)));
      }
    }
  }
  if (a.sub[side]) {
    __syncthreads ();
    if (threadIdx.x == 0 && s_sad)
      atomicAdd (&a.sad_sum[side], s_sad);
  }
}

/* ---- the blend -------------------------------------------------------- */

/* Catmull-Rom weights for fraction f / 2^lg, times 2 (2^lg)^3 (the
 * reference's cr_weights; they fit an int for every denominator here,
 * up to 2^6) */
__device__ __forceinline__ void
cr_weights (int f, int lg, int w[4])
{
  const int d = 1 << lg, f2 = f * f, f3 = f2 * f;

  w[0] = -f3 + 2 * d * f2 - d * d * f;
  w[1] = 3 * f3 - 5 * d * f2 + 2 * d * d * d;
  w[2] = -3 * f3 + 4 * d * f2 + d * d * f;
  w[3] = f3 - d * f2;
}

/* The field image of parity r of @c at (nx / 2^lx, ny / 2^ly) field
 * samples, Catmull-Rom, rounded to nearest, clipped to 0..maxv (the
 * reference's cr_sample; its norm 4 dx^3 dy^3 is 2^(2 + 3 lx + 3 ly)) */
__device__ int
cr_sample (const Comp & c, int r, long long nx, int lx, long long ny, int ly,
    int maxv)
{
  const long long ix = floor_shift (nx, lx), iy = floor_shift (ny, ly);
  const int fh = (c.height - r + 1) / 2;
  const int norm_lg = 2 + 3 * lx + 3 * ly;
  int wx[4], wy[4], col[4];
  long long sum = 0;

  cr_weights ((int) (nx - ix * (1ll << lx)), lx, wx);
  cr_weights ((int) (ny - iy * (1ll << ly)), ly, wy);
#pragma unroll
  for (int i = 0; i < 4; i++)
    col[i] = mirror ((int) ix - 1 + i, c.width);
#pragma unroll
  for (int j = 0; j < 4; j++) {
    const int row = 2 * mirror ((int) iy - 1 + j, fh) + r;
    long long acc = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
      acc += (long long) wx[i] * px (c, col[i], row);
    sum += wy[j] * acc;
  }
  return (int) min (max (floor_shift (sum + (1ll << (norm_lg - 1)),
              norm_lg), 0ll), (long long) maxv);
}

/* distance of n / 2^lg to the nearest integer, in 1/2^lg (the
 * reference's phase_dist) */
__device__ __forceinline__ int
phase_dist (long long n, int lg)
{
  const int d = 1 << lg;
  const int f = (int) (n - floor_shift (n, lg) * d);

  return f < d - f ? f : d - f;
}

/* One side of the current field on one component: its two source fields
 * (far: k -+ 2, parity p; near: k -+ 1, parity q) and the vector's
 * denominators 2^lx, 2^ly (VEC_DEN << s; one period away: twice) */
struct Side
{
  Comp far, near;
  int p, q;
  int lx, ly;
};

/* The reference's side_sample: the side's warp of frame row y at column x
 * with vector (vx, vy), from the source of smaller phase (ties: near);
 * *q256 gets 256 (1 - 2 phase) */
__device__ __forceinline__ int
side_sample (const Side & s, int x, int y, int vx, int vy, int maxv,
    int *q256)
{
  const int dy = 1 << s.ly;
  const long long far_ny = (long long) (y - s.p) * dy / 2 + vy;
  const long long near_ny = (long long) (y - s.q) * dy + vy;
  const int far_d = 2 * phase_dist (far_ny, s.ly);
  const int near_d = phase_dist (near_ny, s.ly + 1);

  if (near_d <= far_d) {
    *q256 = 256 * (2 * dy - 2 * near_d) / (2 * dy);
    return cr_sample (s.near, s.q, ((long long) x << (s.lx + 1)) + vx,
        s.lx + 1, near_ny, s.ly + 1, maxv);
  }
  *q256 = 256 * (2 * dy - 2 * far_d) / (2 * dy);
  return cr_sample (s.far, s.p, ((long long) x << s.lx) + vx, s.lx, far_ny,
      s.ly, maxv);
}

struct BlendArgs
{
  /* per component: the current frame, bwdif's output (in and out), the
   * sides' far and near fields, the subsampling */
  Comp cur[MAX_COMPS], dst[MAX_COMPS];
  Comp far[MAX_COMPS][SIDES], near[MAX_COMPS][SIDES];
  int sx[MAX_COMPS], sy[MAX_COMPS];
  int n_comps;
  int has[SIDES];               /* the stream has the side's frames */
  const int2 *vec[SIDES];
  const unsigned long long *sad_sum;
  long long cut_count;          /* samples in the inner blocks */
  int bw, bh;                   /* level-0 blocks of the luma field image */
  int p, q, depth;
};

#define BLEND_TX 32
#define BLEND_TY 8

/* Missing sample (x, y) of component blockIdx.z: bwdif's value in dst
 * pulled towards the sides' prediction (the reference's last loop) */
__global__ void __launch_bounds__ (BLEND_TX * BLEND_TY)
blend (const __grid_constant__ BlendArgs a)
{
  const int ci = blockIdx.z;
  const Comp & c = a.cur[ci];
  const Comp & d = a.dst[ci];
  const int x = blockIdx.x * BLEND_TX + threadIdx.x;
  const int y = a.q + 2 * (int) (blockIdx.y * BLEND_TY + threadIdx.y);
  const int maxv = (1 << a.depth) - 1;
  int cut[SIDES], used[SIDES], lo = AGREE_LO << (a.depth - 8),
      hi = AGREE_HI << (a.depth - 8);

  if (x >= c.width || y >= c.height)
    return;
  for (int side = 0; side < SIDES; side++) {
    /* the side's mean level-0 SAD in 1/16 of the 3x3 mean per sample */
    const long long mean = a.has[side] ?
        (long long) (a.sad_sum[side] * 16 / (9 * a.cut_count)) : 0;

    cut[side] = a.has[side] && mean > CUT_COST;
    used[side] = a.has[side] && !cut[side];
  }
  if (cut[0] || cut[1] || !(used[0] || used[1]))
    return;                     /* bwdif's, as written */
  /* one side alone: half the tolerance */
  if (used[0] != used[1]) {
    lo /= 2;
    hi /= 2;
  }

  const int sx = a.sx[ci], sy = a.sy[ci];
  const int ym = mirror (y - 1, c.height), yp = mirror (y + 1, c.height);
  const int by = min (max (((y >> 1) << sy) / BLOCK, 0), a.bh - 1);
  const int bx = min (max ((x << sx) / BLOCK, 0), a.bw - 1);
  uint8_t *out = d.data + (size_t) y * d.pitch + (size_t) x * d.step;
  const int bwv = px (d, x, y);
  int csum = 0, msum = 0, alpha = 0, result = bwv;

  for (int side = 0; side < SIDES; side++) {
    Side s;
    int qual, dummy, e = 0, g, conf, m;

    if (!used[side])
      continue;
    s.far = a.far[ci][side];
    s.near = a.near[ci][side];
    s.p = a.p;
    s.q = a.q;
    s.lx = VEC_DEN_LOG2 + sx;
    s.ly = VEC_DEN_LOG2 + sy;
    const int2 v = a.vec[side][by * a.bw + bx];

    m = side_sample (s, x, y, v.x, v.y, maxv, &qual);
    for (int k = -1; k <= 1; k++) {
      const int xx = mirror (x + k, c.width);

      e += abs (side_sample (s, xx, ym, v.x, v.y, maxv, &dummy) - px (c, xx,
              ym));
      e += abs (side_sample (s, xx, yp, v.x, v.y, maxv, &dummy) - px (c, xx,
              yp));
    }
    g = e <= lo ? 256 : e >= hi ? 0 : 256 * (hi - e) / (hi - lo);
    conf = qual * g / 256;
    csum += conf;
    msum += conf * m;           /* <= 2 x 256 x 65535: an int */
    if (conf > alpha)
      alpha = conf;
  }
  if (csum > 0) {
    const int mc = (msum + csum / 2) / csum;

    result = bwv + (int) floor_shift ((long long) alpha * (mc - bwv) + 128,
        8);
  }
  if (d.bytes == 1)
    *out = (uint8_t) result;
  else
    *(uint16_t *) out = (uint16_t) ((unsigned) result << d.shift);
}

}                               /* namespace */

/* ---- launch ----------------------------------------------------------- */

/* subsampling of a component of n samples against luma's lum (the
 * reference's) */
static int
subsampling (int n, int lum)
{
  for (int s = 0; s < 2; s++)
    if (((lum + (1 << s) - 1) >> s) == n)
      return s;
  return 2;
}

/* The components the mc part reads: bwdif's checks (cfx_deinterlace_frame)
 * cover the layouts; here every frame of a component like its cur, one
 * sample size and depth throughout, luma the scratch's size */
static bool
mc_components_ok (const CfxDeintMc * s, const CfxDeintComponent * comps,
    int n_comps)
{
  const CfxPlane *l = &comps[0].cur;

  if (l->width != s->width || l->height != s->height)
    return false;
  for (int i = 0; i < n_comps; i++) {
    const CfxDeintComponent *c = &comps[i];
    const CfxPlane *f[4] = { &c->prev, &c->cur, &c->next, &c->dst };

    for (int j = 0; j < 4; j++)
      if (!f[j]->data || f[j]->bytes != l->bytes || f[j]->width !=
          c->cur.width || f[j]->height != c->cur.height
          || (l->bytes == 2 && (f[j]->depth != l->depth
                  || f[j]->depth < 9 || f[j]->depth > 16)))
        return false;
  }
  return l->bytes == 1 || l->bytes == 2;
}

extern "C" cudaError_t
cfx_deinterlace_mc (CfxDeintMc * s, const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field,
    const CfxDeintMcWindow * window, cudaStream_t stream)
{
  const int p = field && field->parity ? 1 : 0, q = 1 - p;
  CfxDeintField bw_field;
  cudaError_t err;
  int lw[LEVELS], lh[LEVELS], bw[LEVELS], bh[LEVELS];
  int slot_cur, slot_far[SIDES] = { -1, -1 }, has[SIDES];
  unsigned taken = 0;
  long long cut_count = 0;

  if (!s || !comps || !field || !window || n_comps < 1
      || n_comps > MAX_COMPS || !mc_components_ok (s, comps, n_comps))
    return cudaErrorInvalidValue;

  /* bwdif first: the kept rows and the floor, every component */
  bw_field = *field;
  bw_field.method = CFX_DEINT_BWDIF;
  err = cfx_deinterlace_frame (comps, n_comps, &bw_field, stream);
  if (err != cudaSuccess)
    return err;

  has[0] = window->has_prev != 0;
  has[1] = window->has_next != 0;
  if (!has[0] && !has[1])
    return cudaSuccess;         /* one frame alone: bwdif */

  /* the luma field images of parity p: cur's, and prev's and next's */
  s->calls++;
  if (window->restart)
    memset (s->held, 0, sizeof (s->held));
  err = field_slot (s, window->keys[1], p, comps[0].cur, &taken, &slot_cur,
      stream);
  for (int side = 0; side < SIDES && err == cudaSuccess; side++)
    if (has[side])
      err = field_slot (s, window->keys[side ? 2 : 0], p,
          side ? comps[0].next : comps[0].prev, &taken, &slot_far[side],
          stream);
  if (err != cudaSuccess)
    return err;

  /* the search, coarse to fine, both sides in one grid */
  field_levels (s->width, field_rows (s->height, p), lw, lh, bw, bh);
  err = cudaMemsetAsync (s->sad_sum, 0, SIDES * sizeof (*s->sad_sum),
      stream);
  for (int l = LEVELS - 1; l >= 0 && err == cudaSuccess; l--) {
    MatchArgs m;
    int n = 0;

    memset (&m, 0, sizeof (m));
    m.cur = s->image[slot_cur][l];
    for (int side = 0; side < SIDES; side++) {
      if (!has[side])
        continue;
      m.side_of[n++] = side;
      m.ref[side] = s->image[slot_far[side]][l];
      m.parent[side] = l < LEVELS - 1 ? s->ivec[side][l + 1] : NULL;
      m.out[side] = s->ivec[side][l];
      m.sub[side] = l == 0 ? s->vec[side] : NULL;
    }
    m.sad_sum = s->sad_sum;
    m.w = lw[l];
    m.h = lh[l];
    m.bw = bw[l];
    m.bh = bh[l];
    m.pbw = l < LEVELS - 1 ? bw[l + 1] : 0;
    m.pbh = l < LEVELS - 1 ? bh[l + 1] : 0;
    m.unit = 9 << (2 * l);
    err = cfx_launch (match, dim3 ((m.bw + MATCH_TX - 1) / MATCH_TX,
            (m.bh + MATCH_TY - 1) / MATCH_TY, n), dim3 (MATCH_THREADS), 0,
        stream, m);
  }
  if (err != cudaSuccess)
    return err;

  /* the samples of the inner blocks (the cut measure's denominator: the
   * geometry alone): inner columns' widths times inner rows' heights */
  {
    long long cols = 0, rows = 0;

    for (int bx = 0; bx < bw[0]; bx++)
      if (bw[0] < 3 || (bx > 0 && bx < bw[0] - 1))
        cols += min (BLOCK, lw[0] - bx * BLOCK);
    for (int by = 0; by < bh[0]; by++)
      if (bh[0] < 3 || (by > 0 && by < bh[0] - 1))
        rows += min (BLOCK, lh[0] - by * BLOCK);
    cut_count = cols * rows;
  }

  /* the blend, every component */
  BlendArgs b;
  const int fp = p ^ (field->tff ? 1 : 0);
  int max_w = 0, max_rows = 0;

  memset (&b, 0, sizeof (b));
  b.n_comps = n_comps;
  for (int i = 0; i < n_comps; i++) {
    const CfxDeintComponent *c = &comps[i];
    /* the fields one period away: bwdif's A and B */
    const CfxPlane *near_of[SIDES] = { fp ? &c->prev : &c->cur,
      fp ? &c->cur : &c->next
    };

    b.cur[i] = comp_of (c->cur);
    b.dst[i] = comp_of (c->dst);
    b.far[i][0] = comp_of (c->prev);
    b.far[i][1] = comp_of (c->next);
    for (int side = 0; side < SIDES; side++)
      b.near[i][side] = comp_of (*near_of[side]);
    b.sx[i] = subsampling (c->cur.width, comps[0].cur.width);
    b.sy[i] = subsampling (c->cur.height, comps[0].cur.height);
    max_w = max (max_w, c->cur.width);
    max_rows = max (max_rows, field_rows (c->cur.height, q));
  }
  for (int side = 0; side < SIDES; side++) {
    b.has[side] = has[side];
    b.vec[side] = s->vec[side];
  }
  b.sad_sum = s->sad_sum;
  b.cut_count = cut_count;
  b.bw = bw[0];
  b.bh = bh[0];
  b.p = p;
  b.q = q;
  b.depth = comps[0].cur.bytes == 1 ? 8 : comps[0].cur.depth;
  if (max_rows == 0)
    return cudaSuccess;
  return cfx_launch (blend, dim3 ((max_w + BLEND_TX - 1) / BLEND_TX,
          (max_rows + BLEND_TY - 1) / BLEND_TY, n_comps),
      dim3 (BLEND_TX, BLEND_TY), 0, stream, b);
}
