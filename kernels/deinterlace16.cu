/* Deinterlacing of 10 to 16-bit samples: yadif and bwdif as the two-byte
 * CPU filters of FFmpeg 6.1 to 8.x compute them, ELA and linear as for 8-bit
 * (kernels/deinterlace.md, "High bit depth"). The 8-bit kernels
 * (deinterlace.cu) work four samples to a register; here a thread owns
 * one sample column of one component, or two adjacent ones where the
 * component allows, and walks down a strip of their rows.
 *
 * Samples are 16-bit words holding @depth significant bits @shift bits
 * up (I420_10LE: 10 at 0; P010: 10 at 6); the other bits are ignored on
 * input and 0 on output, copied rows included. Words are read and written
 * whole: planes and pitches must be 2-byte aligned, as every 16-bit frame
 * is.
 *
 * Floor: as the 8-bit kernels, 2.5 frames read and 1 written for yadif
 * and bwdif, at 2 bytes a sample (4K I420_10LE: 87 MB, about 30 us on an
 * H100); ELA, linear and bwdif's intra fields 1 + 1.
 *
 * Access pattern: one launch for every component, a flat range of blocks
 * each; a block is 32 threads across by 4 strips. bwdif and yadif on a
 * planar component (step 2: I420_10LE, I422_10LE, Y444_10LE/16LE,
 * GRAY16, P010's luma) whose four planes' data and pitches are all 4-byte
 * aligned: a thread owns columns x and x + 1 (x even) and reads and
 * writes each row of them as one 32-bit word, so a warp's loads and
 * stores of a row are 128 contiguous bytes; an odd width's last column
 * takes the one-column code. yadif also takes P010's U and V as twins: a
 * thread owns column x of both, one 32-bit word a row (U in the low half),
 * and the V component gets no threads of its own. yadif takes pairs and
 * twins only up to 13 bits (they work in 16-bit lanes, below) and, in
 * the elements, only where every component of the frame can. Otherwise
 * (bwdif on P010's UV, step 4; planes or pitches only 2-byte aligned;
 * ELA, linear and bwdif's intra fields) a thread owns one column, read as
 * 16-bit words: 64 contiguous bytes a warp of a planar row, 128 of P010's
 * UV. yadif and
 * bwdif keep the rows their stencils share in registers as a window that
 * slides two rows (one interpolated, one copied) a step: in the interior
 * a step loads only its new rows (bwdif: C, A, B, P and N, one word each;
 * yadif: A, B, P and N, one word each, and C's columns x - 3 .. x + 4
 * around the pair as five aligned 32-bit words x - 4 .. x + 5, or the
 * twins' seven words x - 3 .. x + 3, which neighbouring threads share
 * through L1; one column: C's seven columns around x as 16-bit words)
 * and stores the copied row from the window. yadif's pairs and twins walk
 * their rows by pointers that move two rows a step (where P, C and N
 * share a pitch), with no bounds and no reads of the launch's component
 * table, and load each step's rows a step ahead of its arithmetic.
 * bwdif's output samples go through the one-column arithmetic
 * (bwdif_value) one at a time; yadif's pairs through the same operations
 * on both columns at once, in the signed 16-bit lanes of
 * deinterlace-simd.cuh (yadif_lanes_value: the direction search as lane
 * masks and blends, as the 8-bit kernel does it). Rows within the
 * stencils' reach of the top and bottom, and the intra-field methods,
 * read every stencil row from memory (L1 and L2 serve the neighbours),
 * through the one-column arithmetic.
 *
 * Launch shape: as deinterlace.cu, the shortest strips that fit the frame
 * in one wave of blocks (the runtime's occupancy times the SMs); a pair
 * thread counts once, so pairs halve the threads a planar row needs and
 * the strips are about half as long as with one column a thread. The
 * elements' yadif takes strips for two waves where one wave's would be
 * longer than 64 rows (YADIF_TWO_WAVES_STRIP). The benchmark's
 * cfx_deinterlace_frame_spread () sizes them for other numbers of waves.
 * (What was measured and tried: kernels/deinterlace.md, "Measurements
 * and things tried".)
 *
 * Every function a thread runs is __host__ __device__: the test
 * tests/kernels/test-deinterlace16-emulated.c runs each thread of a launch
 * on the CPU against the reference.
 *
 * The code, from the bottom up (on deinterlace-simd.cuh's 16-bit lanes):
 *   deinterlace16-memory.cuh    launch arguments; a thread's loads and
 *                               stores of a sample and of a pair
 *   deinterlace16-temporal.cuh  the temporal part yadif and bwdif share
 *   deinterlace16-yadif.cuh     yadif: one sample (from memory or the
 *                               one-column window), then pairs in lanes
 *   deinterlace16-bwdif.cuh     bwdif (its intra fields too): one sample,
 *                               the windows of one column and of a pair
 *   deinterlace16-intra.cuh     ELA and linear: one sample
 *   deinterlace16.cu (here)     the output sample of any method; a
 *                               thread's strip of one column or of a pair,
 *                               its work and the kernel; the host code: the
 *                               components as the kernel takes them, the
 *                               launch shape, the launch (the entry points
 *                               are deinterlace.cu's). */
#include <limits.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "deinterlace-bench.h"
#include "deinterlace-host.h"
#include "deinterlace16-yadif.cuh"
#include "deinterlace16-bwdif.cuh"
#include "deinterlace16-intra.cuh"

namespace
{

/* The frames A and B around the output's instant */
CFX_HD_INLINE void
field_frames (const Field16 & f, int *a, int *b)
{
  int fp = f.parity ^ f.tff;

  *a = fp ? P : C;
  *b = fp ? C : N;
}

/* The output sample at (x, y), significant bits */
CFX_HD_INLINE int
output_sample (const Comp16 & c, const Field16 & f, int x, int y)
{
  int a, b;

  if ((y & 1) == f.parity)
    return at (c, C, x, y);
  field_frames (f, &a, &b);
  switch (f.method) {
    case CFX_DEINT_YADIF:
      return yadif (c, a, b, f.spatial_check, x, y);
    case CFX_DEINT_BWDIF:
      return f.intra_only ? bwdif_end (c, a, b, x, y) : bwdif (c, a, b, x, y);
    case CFX_DEINT_ELA:
      return intra (c, 1, x, y);
    default:
      return intra (c, 0, x, y);
  }
}

/* ---- a thread's strip ----------------------------------------------- */

/* Column x per sample from interpolated row y: each interpolated row
 * before @until and the copied row after it, up to the strip's end @r1
 * (until <= r1). Returns the first interpolated row not done. */
CFX_HD_INLINE int
rows_per_sample (const Comp16 & c, const Field16 & f, int x, int y,
    int until, int r1)
{
  for (; y < until; y += 2) {
    store (c, x, y, output_sample (c, f, x, y));
    if (y + 1 < r1)
      store (c, x, y + 1, at (c, C, x, y + 1));
  }
  return y;
}

/* Rows r0 to r1 - 1 of column x. M: the method's window (CFX_DEINT_YADIF,
 * CFX_DEINT_BWDIF) or none (-1: every row per sample). */
template < int M > CFX_HD_INLINE void
strip (const Comp16 & c, const Field16 & f, int x, int r0, int r1)
{
  int h = c.height, y = r0, a, b;

  if ((y & 1) == f.parity) {
    store (c, x, y, at (c, C, x, y));
    y++;
  }
  if (M < 0) {
    rows_per_sample (c, f, x, y, r1, r1);
    return;
  }
  field_frames (f, &a, &b);
  /* the rows whose stencil has no edge rule: the window's */
  int lo = M == CFX_DEINT_BWDIF ? 4 : 2, hi = M == CFX_DEINT_BWDIF ? h - 5 :
      h - 3, end = imin (r1, hi + 1);

  if (y < lo)
    y = rows_per_sample (c, f, x, y, imin (r1, lo), r1);
  if (y < end) {
    if (M == CFX_DEINT_YADIF) {
      YadifWindow w;
      bool search = 3 <= x && x < c.width - 3;

      yadif_fill (w, c, a, b, x, y);
      for (;;) {
        store (c, x, y, yadif_window_value (w, f, search));
        if (y + 1 < r1)
          store (c, x, y + 1, w.v.cp[3]);
        y += 2;
        if (y >= end)
          break;
        yadif_slide (w, c, a, b, x, y);
      }
    } else {
      BwdifWindow w;

      bwdif_fill (w, c, a, b, x, y);
      for (;;) {
        store (c, x, y, bwdif_window_value (w, c.max));
        if (y + 1 < r1)
          store (c, x, y + 1, w.c[2]);
        y += 2;
        if (y >= end)
          break;
        bwdif_slide (w, c, a, b, x, y);
      }
    }
  }
  rows_per_sample (c, f, x, y, r1, r1);
}

/* ---- a thread's strip of two columns --------------------------------- */

/* A pair component's columns x and x + 1 (x even, x + 1 < width): each
 * row of a frame is one 32-bit word, the windows hold both columns (one
 * window a column, filled and slid from the same words), and every output
 * sample goes through the one-column arithmetic. */


/* rows_per_sample for the pair x; @lane1: the component of lane 1 (@c,
 * or for twins (T) the next one) */
template < bool T > CFX_HD_INLINE int
rows_per_sample2 (const Comp16 & c, const Comp16 & lane1, const Field16 & f,
    int x, int y, int until, int r1)
{
  int x1 = T ? x : x + 1;

  for (; y < until; y += 2) {
    store2 < T > (c, x, y, output_sample (c, f, x, y), output_sample (T ?
            lane1 : c, f, x1, y));
    if (y + 1 < r1)
      copy2 < T > (c, x, y + 1);
  }
  return y;
}

/* strip () for the pair x (M: CFX_DEINT_YADIF or CFX_DEINT_BWDIF; twins:
 * yadif only) */
template < int M, bool T > CFX_HD_INLINE void
strip2 (const Comp16 & c, const Comp16 & lane1, const Field16 & f, int x,
    int r0, int r1)
{
  int h = c.height, y = r0, a, b;

  if ((y & 1) == f.parity) {
    copy2 < T > (c, x, y);
    y++;
  }
  field_frames (f, &a, &b);
  int lo = M == CFX_DEINT_BWDIF ? 4 : 2, hi = M == CFX_DEINT_BWDIF ? h - 5 :
      h - 3, end = imin (r1, hi + 1);

  if (y < lo)
    y = rows_per_sample2 < T > (c, lane1, f, x, y, imin (r1, lo), r1);
  if (y < end) {
    if (M == CFX_DEINT_YADIF) {
      y = yadif_lanes_strip < T > (c, f, a, b, x, y, end, r1);
    } else {
      BwdifWindow w[2];

      bwdif_fill2 (w, c, a, b, x, y);
      for (;;) {
        store2 (c, x, y, bwdif_window_value (w[0], c.max),
            bwdif_window_value (w[1], c.max));
        if (y + 1 < r1)
          store2 (c, x, y + 1, w[0].c[2], w[1].c[2]);
        y += 2;
        if (y >= end)
          break;
        bwdif_slide2 (w, c, a, b, x, y);
      }
    }
  }
  rows_per_sample2 < T > (c, lane1, f, x, y, r1, r1);
}
/* The component, column and rows of thread (tx, ty) of block @block (an
 * OWNS_TWO_COLUMNS component's thread: columns x and x + 1, x even; only
 * PAIRS kernels' launches have pairs); false for a thread past the
 * component's width or height */
template < bool PAIRS > CFX_HD_INLINE bool
thread_work (const Launch16 & L, int block, int tx, int ty, int *k, int *x,
    int *r0, int *r1)
{
  int i = 0, local, h;

  while (i + 1 < L.n_comps && block >= L.first_block[i + 1])
    i++;
  local = block - L.first_block[i];
  *k = i;
  *x = (local % L.blocks_x[i]) * BLOCK_X + tx;
  if (PAIRS)
    *x <<= L.comp[i].pair == OWNS_TWO_COLUMNS;
  *r0 = ((local / L.blocks_x[i]) * BLOCK_Y + ty) * L.strip;
  h = L.comp[i].height;
  *r1 = imin (*r0 + L.strip, h);
  return *x < L.comp[i].width && *r0 < h;
}

/* PAIRS: pair components take two columns a thread (the launch has set
 * their pair flag; a last column alone, odd width, takes the one-column
 * strip) */
template < int M, bool PAIRS > CFX_HD_INLINE void
thread_strip (const Launch16 & L, int block, int tx, int ty)
{
  int k, x, r0, r1;

  if (!thread_work < PAIRS > (L, block, tx, ty, &k, &x, &r0, &r1))
    return;
  if constexpr (PAIRS && M >= 0) {
    if (L.comp[k].pair == OWNS_TWINS || (L.comp[k].pair == OWNS_TWO_COLUMNS
            && x + 1 < L.comp[k].width)) {
      if (M == CFX_DEINT_YADIF && L.comp[k].pair == OWNS_TWINS)
        strip2 < M, true > (L.comp[k], L.comp[k + 1], L.f, x, r0, r1);
      else
        strip2 < M, false > (L.comp[k], L.comp[k], L.f, x, r0, r1);
      return;
    }
  }
  strip < M > (L.comp[k], L.f, x, r0, r1);
}

/* yadif's pair kernel held to 7 blocks an SM (72 registers and a spill
 * of 24 bytes): faster than the 80 registers and 6 blocks it takes left
 * to itself (kernels/deinterlace.md). 0 leaves the others to the compiler
 * (a minimum of 1 made them take 72 to 80 registers, against 48 to 66) */
template < int M, bool PAIRS > __global__ void
__launch_bounds__ (THREADS, M == CFX_DEINT_YADIF && PAIRS ? 7 : 0)
deinterlace16 (Launch16 L)
{
  thread_strip < M, PAIRS > (L, blockIdx.x, threadIdx.x, threadIdx.y);
}

/* The component as the kernel takes it, or false; pair OWNS_TWO_COLUMNS
 * where a thread could own two columns */
bool
comp16 (const CfxDeintComponent & in, Comp16 * c)
{
  const CfxPlane *f[3] = { &in.prev, &in.cur, &in.next };
  const CfxPlane & d = in.dst;
  uintptr_t bits;

  if (!deint_frames_agree (&in, 2) || d.depth < 9 || d.depth > 16
      || d.shift < 0 || d.depth + d.shift > 16 || d.step < 2 || d.step % 2
      || d.width < 1 || d.height < 1 || ((uintptr_t) d.data | d.pitch) % 2)
    return false;
  for (int i = 0; i < 3; i++)
    if (f[i]->depth != d.depth || f[i]->shift != d.shift
        || ((uintptr_t) f[i]->data | f[i]->pitch) % 2)
      return false;
  bits = (uintptr_t) d.data | (uintptr_t) (unsigned) d.pitch;
  for (int i = 0; i < 3; i++) {
    c->frame[i] = f[i]->data;
    c->pitch[i] = f[i]->pitch;
    bits |= (uintptr_t) f[i]->data | (uintptr_t) (unsigned) f[i]->pitch;
  }
  c->dst = d.data;
  c->dst_pitch = d.pitch;
  c->step = d.step;
  c->width = d.width;
  c->height = d.height;
  c->mask = (1u << d.depth) - 1;
  c->shift = d.shift;
  c->max = (int) c->mask;
  c->pair = d.step == 2 && bits % 4 == 0 ? OWNS_TWO_COLUMNS :
      OWNS_ONE_COLUMN;
  c->twin = 0;
  return true;
}

/* Whether components i and i + 1 are twins for yadif: both taken by
 * comp16 (), the two of one plane of step 4 at bytes 0 and 2 (P010's U
 * and V), every plane and pitch 4-byte aligned, at most
 * YADIF_LANES_MAX_DEPTH bits */
bool
twins (const CfxDeintComponent * comps, int n_comps, int i)
{
  Comp16 u, v;

  if (i + 1 >= n_comps || !comp16 (comps[i], &u)
      || !comp16 (comps[i + 1], &v) || u.step != 4 || v.step != 4
      || u.mask != v.mask || u.shift != v.shift || u.width != v.width
      || u.height != v.height || !yadif_lanes_fit (u)
      || v.dst != u.dst + 2 || v.dst_pitch != u.dst_pitch
      || ((uintptr_t) u.dst | (uintptr_t) (unsigned) u.dst_pitch) % 4)
    return false;
  for (int f = 0; f < 3; f++)
    if (v.frame[f] != u.frame[f] + 2 || v.pitch[f] != u.pitch[f]
        || ((uintptr_t) u.frame[f] | (uintptr_t) (unsigned) u.pitch[f]) % 4)
      return false;
  return true;
}

/* A component's threads across a row */
int
threads_across (const Comp16 & c)
{
  return c.twin ? 0 : c.pair == OWNS_TWO_COLUMNS ? (c.width + 1) / 2 :
      c.width;
}

Field16
field16 (const CfxDeintField & in)
{
  Field16 f;

  f.method = in.method;
  f.parity = in.parity & 1;
  f.tff = in.tff ? 1 : 0;
  f.spatial_check = in.spatial_check;
  f.intra_only = in.intra_only;
  return f;
}

/* The kernel's window: yadif's, bwdif's (not its intra fields) or none */
int
window_of (const Field16 & f)
{
  if (f.method == CFX_DEINT_YADIF)
    return CFX_DEINT_YADIF;
  if (f.method == CFX_DEINT_BWDIF && !f.intra_only)
    return CFX_DEINT_BWDIF;
  return -1;
}

}                               /* namespace */

/* Blocks of the launch with strips of @strip rows */
static long
count_blocks (Launch16 * L, int strip)
{
  long blocks = 0;

  for (int i = 0; i < L->n_comps; i++) {
    int strips = (L->comp[i].height + strip - 1) / strip;

    L->blocks_x[i] = (threads_across (L->comp[i]) + BLOCK_X - 1) / BLOCK_X;
    blocks += (long) L->blocks_x[i] * ((strips + BLOCK_Y - 1) / BLOCK_Y);
  }
  return blocks;
}

/* Fills the launch for @target_threads threads and at most @max_blocks
 * blocks (while strips can grow): the shortest even strips that fit;
 * @pairs: two columns a thread where the component allows, and yadif's
 * twins. Returns the number of blocks, or -1 for components the kernel
 * cannot take. */
static long
setup_launch (Launch16 * L, const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, bool pairs, long target_threads,
    long max_blocks)
{
  long columns_rows = 0, blocks, strip;
  int max_h = 1, min_w, min_h;

  memset (L, 0, sizeof (*L));
  if (!deint_args_ok (comps, n_comps, field) || target_threads < 1)
    return -1;
  L->f = field16 (*field);
  cfx_deinterlace_min_size (field->method, 2, &min_w, &min_h);
  L->n_comps = n_comps;
  for (int i = 0; i < n_comps; i++) {
    Comp16 *c = &L->comp[i];

    if (!comp16 (comps[i], c) || c->width < min_w || c->height < min_h)
      return -1;
    if (!pairs || (L->f.method == CFX_DEINT_YADIF && !yadif_pairs (*c)))
      c->pair = OWNS_ONE_COLUMN;
    max_h = c->height > max_h ? c->height : max_h;
  }
  for (int i = 0; pairs && L->f.method == CFX_DEINT_YADIF && i < n_comps;
      i++)
    if (twins (comps, n_comps, i)) {
      L->comp[i].pair = OWNS_TWINS;
      L->comp[++i].twin = 1;
    }
  for (int i = 0; i < n_comps; i++)
    columns_rows += (long) threads_across (L->comp[i]) * L->comp[i].height;
  /* strips of whole row pairs, in rows */
  strip = deint_strip_length (columns_rows, target_threads, 2, max_h, 2,
      max_blocks, [&](long s) -> long {
        return count_blocks (L, (int) s);
      }, &blocks);
  if (blocks > INT_MAX)
    return -1;
  L->strip = (int) strip;
  L->first_block[0] = 0;
  for (int i = 0; i < n_comps; i++) {
    int strips = (L->comp[i].height + L->strip - 1) / L->strip;

    L->first_block[i + 1] = L->first_block[i] +
        L->blocks_x[i] * ((strips + BLOCK_Y - 1) / BLOCK_Y);
  }
  return blocks;
}

/* The kernel of @window (-1: every stencil row from memory), two columns
 * a thread where @pairs */
template < int M > static cudaError_t
launch16 (bool pairs, const Launch16 & L, long blocks, cudaStream_t stream)
{
  if (M >= 0 && pairs)
    return cfx_launch (deinterlace16 < M, (M >= 0) >, (int) blocks,
        dim3 (BLOCK_X, BLOCK_Y), 0, stream, L);
  return cfx_launch (deinterlace16 < M, false >, (int) blocks,
      dim3 (BLOCK_X, BLOCK_Y), 0, stream, L);
}

/* Blocks of the kernel that the current device holds at once */
static cudaError_t
wave_blocks (int window, bool pairs, long *wave)
{
  static int cache[5][CFX_WAVE_MAX_DEVICES];

  if (window == CFX_DEINT_YADIF)
    return pairs ? cfx_wave_blocks (deinterlace16 < CFX_DEINT_YADIF, true >,
        THREADS, cache[0], wave) : cfx_wave_blocks (deinterlace16 <
        CFX_DEINT_YADIF, false >, THREADS, cache[1], wave);
  if (window == CFX_DEINT_BWDIF)
    return pairs ? cfx_wave_blocks (deinterlace16 < CFX_DEINT_BWDIF, true >,
        THREADS, cache[2], wave) : cfx_wave_blocks (deinterlace16 <
        CFX_DEINT_BWDIF, false >, THREADS, cache[3], wave);
  return cfx_wave_blocks (deinterlace16 < -1, false >, THREADS, cache[4],
      wave);
}

/* The window and pairing of @variant for @field; false for a method the
 * kernel does not know */
static bool
variant_kernel (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int variant, int *window, bool *pairs)
{
  if (!field || !deint_method_known (field->method))
    return false;
  *window = variant == DEINT16_WINDOWLESS ? -1 :
      window_of (field16 (*field));
  *pairs = *window >= 0 && variant != DEINT16_ONE_COLUMN;
  /* The elements' yadif takes pairs (two columns or twins) only where
   * every component can: pairs on some components and one column on
   * others were slower than one column on all (kernels/deinterlace.md) */
  if (*window == CFX_DEINT_YADIF && *pairs
      && variant != DEINT16_TWO_COLUMNS)
    for (int i = 0; comps && i < n_comps
        && i < CFX_DEINT_MAX_COMPONENTS; i++) {
      Comp16 c;

      if (twins (comps, n_comps, i))
        i++;
      else if (comp16 (comps[i], &c) && !yadif_pairs (c))
        *pairs = false;
    }
  return true;
}

/* The elements' yadif takes strips for two waves where one wave's strips
 * would be longer than this many rows: faster at 2160i (strips of about
 * 100 rows), not at 1080i (about 26); bwdif and the 8-bit kernels gain
 * nothing from two waves (kernels/deinterlace.md) */
#define YADIF_TWO_WAVES_STRIP 64

cudaError_t
cfx_deinterlace16_launch (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int variant, double waves,
    cudaStream_t stream)
{
  Launch16 L;
  long wave = 0, blocks, target, max_blocks;
  int window;
  bool pairs;
  cudaError_t err;

  if (!variant_kernel (comps, n_comps, field, variant, &window, &pairs)
      || !deint_waves_ok (waves))
    return cudaErrorInvalidValue;
  err = wave_blocks (window, pairs, &wave);
  if (err != cudaSuccess)
    return err;
  if (!cfx_wave_shape (wave, THREADS, waves, &target, &max_blocks))
    return cudaErrorInvalidValue;
  blocks = setup_launch (&L, comps, n_comps, field, pairs, target,
      max_blocks);
  if (blocks >= 0 && variant == DEINT16_ELEMENTS && window == CFX_DEINT_YADIF
      && L.strip > YADIF_TWO_WAVES_STRIP
      && cfx_wave_shape (wave, THREADS, 2, &target, &max_blocks))
    blocks = setup_launch (&L, comps, n_comps, field, pairs, target,
        max_blocks);
  if (blocks < 0)
    return cudaErrorInvalidValue;
  if (window == CFX_DEINT_YADIF)
    return launch16 < CFX_DEINT_YADIF > (pairs, L, blocks, stream);
  if (window == CFX_DEINT_BWDIF)
    return launch16 < CFX_DEINT_BWDIF > (pairs, L, blocks, stream);
  return launch16 < -1 > (false, L, blocks, stream);
}

/* For the benchmark: the same output without the sliding windows (per
 * sample), or with the windows over one or two columns a thread */
extern "C" cudaError_t
cfx_deinterlace16_frame_windowless (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, cudaStream_t stream)
{
  return cfx_deinterlace16_launch (comps, n_comps, field, DEINT16_WINDOWLESS,
      1, stream);
}

extern "C" cudaError_t
cfx_deinterlace16_frame_columns (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int columns,
    cudaStream_t stream)
{
  if (columns != 1 && columns != 2)
    return cudaErrorInvalidValue;
  return cfx_deinterlace16_launch (comps, n_comps, field, columns == 1 ?
      DEINT16_ONE_COLUMN : DEINT16_TWO_COLUMNS, 1, stream);
}
