/* Gaussian of 16-bit components (9 to 16 significant bits at any shift
 * in their word), radii up to 16 (sigma <= 5.33), both passes in one
 * kernel: a block walks down a strip of the plane with the row sums in
 * shared memory, and no scratch plane. The taps are normalised in double
 * on the host (gaussian_weight's formula, the two passes' taps kernel's)
 * and passed as kernel parameters. The sums are float, as the two
 * passes' up to radius 64 (blur16-passes.cu says why that keeps every
 * output within 1 of the reference).
 *
 * Floor: read the component once and write it once (4K 16-bit luma:
 * 33 MB, 11 us at 2.9 TB/s); the kernel moves those bytes and ~1.2x the
 * row sums' work, and the direct sums cost 2 r + 1 operations an output a
 * pass (time grows with sigma). */
#include "blur16-samples.cuh"

#include <type_traits>

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
 * 1.19x), about 2 shared loads, the conversions and the stores: the
 * kernel is bound by instruction issue, not by memory (kernels/blur.md
 * has the measurements and what was tried).
 *
 * Sharpening (blur.h) is the column phase's: it reads the source sample
 * of each output it writes (from L2; the strip's rows were staged a few
 * steps before).
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
  int amount;                   /* CFX_BLUR_NO_SHARPEN, or the unsharp mask's */
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
CFX_HD int
stream_x0 (int bx)
{
  return bx * STREAM_W;
}

/* Whether the plane's rows may be read 16 bytes at a time: 16-bit words
 * at 16-byte aligned rows */
CFX_HD bool
stream_vectors (const CfxPlane & p)
{
  return p.step == 2 && ((uintptr_t) p.data & 15) == 0 && (p.pitch & 15) == 0;
}

/* Input row of row @j of step @i: rows of sums start R above the run */
template < int R > CFX_HD int
stream_row (const StreamArgs & a, int by, int i, int j)
{
  return mirror (by * a.run - R + i * STREAM_STEP + j, a.src.height);
}

/* Output rows of the block's run, and their steps */
CFX_HD int
stream_out_rows (const StreamArgs & a, int by)
{
  return min (a.run, a.src.height - by * a.run);
}

CFX_HD int
stream_out_steps (const StreamArgs & a, int by)
{
  return (stream_out_rows (a, by) + STREAM_STEP - 1) / STREAM_STEP;
}

/* Steps of the block (LAG more than its output steps), and the rows of
 * sums its outputs reach (from the first, R above the run) */
template < int R > CFX_HD int
stream_steps (const StreamArgs & a, int by)
{
  return stream_out_steps (a, by) + StreamGeometry < R >::LAG;
}

template < int R > CFX_HD int
stream_needed (const StreamArgs & a, int by)
{
  return stream_out_rows (a, by) + 2 * R;
}

/* 16 bytes from global memory (read-only for the kernel's life) */
CFX_HD uint4
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
CFX_HD int
stream_chunk_x (int bx, int q)
{
  return stream_x0 (bx) - STREAM_HALO + 8 * (q % STREAM_CHUNKS_ROW);
}

CFX_HD bool
stream_chunk_inside (const CfxPlane & p, int x)
{
  return x >= 0 && x + 8 <= p.width;
}

/* Whether the row of chunk @q of step @i is one an output of the run
 * reaches (rows of sums from @needed on are left out: the last step's,
 * mostly); the others are not loaded (the stage writes zeros for them,
 * which no row sum reads) */
CFX_HD bool
stream_row_needed (int i, int q, int needed)
{
  return i * STREAM_STEP + q / STREAM_CHUNKS_ROW < needed;
}

/* Whether the block's tile has columns outside the plane */
CFX_HD bool
stream_border (const CfxPlane & p, int bx)
{
  return stream_x0 (bx) < STREAM_HALO
      || stream_x0 (bx) + STREAM_W + STREAM_HALO > p.width;
}

/* Whether every chunk the block loads lies inside the plane (no mirrored
 * rows or columns) at an offset that fits 32 bits */
template < int R > CFX_HD bool
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
template < int R > CFX_HD void
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
template < int R > CFX_HD void
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
CFX_HD void
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
template < int R > CFX_HD void
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
template < int R > CFX_HD void
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
     * an integer); the bits past 16 are 2^23's exponent */
    int b = (int) (small_floor (fminf (acc, top) + 0.5f) & 0xffffu);

    /* sharpening: the source sample of the output, read again (rows
     * past the plane's last are never stored, nor read) */
    if (a.amount != CFX_BLUR_NO_SHARPEN && j < rows)
      b = cfx_unsharp (load_sample (a.src, x, y0 + j), b, a.amount,
          (int) top);
    word[j] = (uint16_t) (b << a.dst.shift);
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
  StreamArgs a = { src, dst, rx, ry, run, CFX_BLUR_NO_SHARPEN, {0}, {0} };

  for (int k = 0; k <= rx && k <= STREAM_MAX_RADIUS; k++)
    a.wx[k] = (float) wx[k];
  for (int k = 0; k <= ry && k <= STREAM_MAX_RADIUS; k++)
    a.wy[k] = (float) wy[k];
  return a;
}

#ifdef CFX_BLUR16_EMULATE
#include "blur-testing.h"

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

/* stream_takes, for the host side (blur.cu) */
extern "C" int
cfx_blur16_fused_takes (const CfxPlane * src, int rx, int ry)
{
  return stream_takes (*src, rx, ry);
}

/* The fused kernel takes its taps as parameters: one launch a frame */
extern "C" cudaError_t
cfx_blur16_fused_launch (const CfxBlur16 * s, cudaStream_t stream)
{
  double wx[STREAM_MAX_RADIUS + 1], wy[STREAM_MAX_RADIUS + 1];
  StreamArgs a;

  gaussian_taps_host (s->sigma_x, s->rx, wx);
  gaussian_taps_host (s->sigma_y, s->ry, wy);
  a = stream_args (s->dst, s->src, s->rx, s->ry, 0, wx, wy);
  a.amount = s->amount;
  return stream_at_radius (stream_radius (s->rx, s->ry), [&](auto r) {
        return launch_stream_at < decltype (r)::value > (a, stream);
      });
}
