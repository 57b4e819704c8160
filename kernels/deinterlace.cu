/* Deinterlacing: yadif, bwdif (bit-exact with the CPU filters of FFmpeg
 * 6.1 to 8.x), ELA and linear, per kernels/deinterlace.md.
 *
 * Floor: an output frame reads, of the previous, current and next frames,
 * only the rows it needs, and writes one frame. yadif and bwdif: all of C,
 * all of the bracketing frame (P for the first field, N for the second)
 * and half of the other one (td1/td2 read its copied-parity rows), so
 * 2.5 frames read + 1 written; ELA, linear and bwdif's intra fields: 1
 * read + 1 written (bwdif's: and A, B, P and N at the 3 edge rows each
 * side). Over the copy bandwidth: 4K I420 bwdif, 43.5 MB,
 * about 15 us on an H100; 4K UYVY, 58 MB, about 20 us.
 *
 * Access pattern: one launch covers every plane (a flat block range per
 * plane). A thread owns one 32-bit word (4 bytes) of a row and walks down
 * a strip of row pairs; a warp covers 128 contiguous bytes of each row it
 * loads or stores, a block 32 words by 4 strips. Each row pair is one
 * interpolated row and one copied row; the rows the stencils share (C's
 * copied field, A and B of the other field, P and N) stay in registers,
 * already reduced to what the stencils use (byte pairs, means, absolute
 * differences), as a window that slides two rows per step, so in the
 * interior each needed row of each frame is loaded once per strip (bwdif:
 * C, A, B, P and N, one word each per step) and the copied row is stored
 * from the window. Each step's new rows are loaded a step (intra-field
 * methods: several steps) ahead, so that their latency hides behind the
 * arithmetic; the temporal windows rotate through sets of registers
 * (bwdif five steps a loop, yadif three), so that sliding copies nothing.
 * Rows within the stencil's reach of the top or bottom take a slow path
 * that loads its rows by the page's edge rules. Horizontal neighbours
 * (yadif's direction search, ELA) come from the neighbouring words of the
 * row (L1 hits), loaded once per row.
 *
 * Launch shape: the strips are as short as one wave of blocks allows (the
 * runtime's occupancy for the kernel times the SMs), never more blocks
 * than one wave: a second, partial wave would double the time. (The
 * benchmark's cfx_deinterlace_frame_spread () also sizes them for other
 * numbers of waves: kernels/deinterlace.md has what that measured.)
 *
 * Arithmetic is SIMD within a register, exact throughout: per byte (four
 * samples an instruction) for |a - b|, floor and rounded means; in 16-bit
 * lanes (two samples a register: even bytes, odd bytes) for everything
 * signed or wider than a byte, on sm_90's native 16x2 add, min, max and
 * 3-input min/max (DPX; emulated on older GPUs); bwdif's cubic filters as
 * two-way 16x8-bit dot products (dp2a) on byte pairs. Choices (yadif's
 * direction search, ELA's direction, bwdif's cubic or spatial predictor)
 * are per-byte masks and bitwise blends: no divergence.
 *
 * Packed layouts: byte i of a word belongs to a fixed component (4 is a
 * multiple of every layout's pattern), so the vertical stencils ignore
 * layouts, and a horizontal neighbour k samples away is a compile-time
 * byte permutation of the neighbouring words (each component its own
 * step); each component is filtered exactly as a planar channel.
 *
 * Warps with a column whose words may need an edge rule (a neighbour
 * outside the row, yadif's x < 3 or x >= w - 3, ELA's clamping) run the
 * same window with the edge masks (MODE_EDGE): a few instructions a
 * step more, no divergence, so that the blocks that hold the row's ends
 * take no longer than the others (the kernel waits for its slowest
 * block). Planes that are not 4-byte aligned take a path that loads every
 * row of each pair and checks every access (byte loads, stores that stop
 * at the row's end; the same per-word code, with the edge masks). The
 * rare paths are calls, so that their registers do not weigh on the hot
 * loops'.
 *
 * Every function the kernels call is __host__ __device__, so the
 * per-thread work can be run on a CPU too (see
 * tests/kernels/test-deinterlace-emulated.c).
 *
 * The code, from the bottom up:
 *   deinterlace-simd.cuh      SIMD within a register; the plane layouts
 *                             (which component each byte of a word holds)
 *   deinterlace-memory.cuh    launch arguments; what a thread sees of a
 *                             plane: its view of the frames, loads and
 *                             stores in each access mode (MODE_*), strips
 *   deinterlace-temporal.cuh  the temporal part yadif and bwdif share
 *   deinterlace-bwdif.cuh     bwdif (its intra-only fields too): one word,
 *                             then a thread's strip (window, edge rows)
 *   deinterlace-yadif.cuh     yadif, the same way
 *   deinterlace-intra.cuh     ELA and linear, the same way
 *   deinterlace.cu (here)     a thread's work: its strip and the dispatch
 *                             on method, layout, field and access mode;
 *                             the kernel; the host code: components into
 *                             planes, the launch shape, the launch; the
 *                             entry points of both depths (16-bit words
 *                             go to deinterlace16.cu)
 * and, shared with deinterlace16.cu, deinterlace-host.h (argument checks,
 * the strip length). */
#include <string.h>

#include "cudafx-kernels.h"
#include "deinterlace-bench.h"
#include "deinterlace-host.h"
#include "kernel-helpers.h"

#include "deinterlace-bwdif.cuh"
#include "deinterlace-yadif.cuh"
#include "deinterlace-intra.cuh"

#define BLOCK_X 32              /* words across: one warp */
#define BLOCK_Y 4               /* strips down */
#define THREADS (BLOCK_X * BLOCK_Y)
/* Blocks per SM each method's registers allow without spilling (65536
 * registers an SM; the launch bound): bwdif 7 (72 registers, 28 warps),
 * yadif 6 (its direction search: 80 registers, 24 warps), the others 8
 * (they need fewer: 45 to 52 registers, 9 or 10 blocks). The launch asks
 * the runtime how many fit. */
#define MB_BWDIF 7
#define MB_YADIF 6

namespace
{

enum
{
  M_BWDIF,
  M_BWDIF_INTRA,
  M_YADIF,
  M_ELA,
  M_LINEAR,
};

/* ---- a thread's strip: runs, rare pairs, rare columns ------------------- */

/* rows a method's window needs above (lo <= y) and below (y + hi <= h);
 * MODE_EDGE reads C's rows 1 .. h - 2 only */
CFX_HDC int
reach_up (int m, int mode)
{
  return m == M_BWDIF ? 4 : m == M_BWDIF_INTRA ? 3 : m == M_YADIF ? 2 :
      mode == MODE_EDGE ? 2 : 1;
}

CFX_HDC int
reach_down (int m, int mode)
{
  return reach_up (m, mode) + 1;
}

/* yadif: where the search runs; ELA: the samples whose x - 1 or x + 1
 * falls outside the row */
struct Edges
{
  u32 inside, left, right;
};

template < int M, int LAYOUT, int MODE > CFX_HD Edges
edges_of (const PlaneArgs & pa, int word)
{
  Edges e = { ~0u, 0, 0 };

  if (MODE != MODE_FAST && M == M_YADIF)
    e.inside = inside_mask (LAYOUT, word, pa, 3, 3);
  if (MODE != MODE_FAST && M == M_ELA) {
    e.left = ~inside_mask (LAYOUT, word, pa, 1, 0);
    e.right = ~inside_mask (LAYOUT, word, pa, 0, 1);
  }
  return e;
}

/* the column needs no edge rule and no neighbour word outside the row */
template < int M, int LAYOUT > CFX_HD bool
column_inside (const PlaneArgs & pa, int word)
{
  if constexpr (M == M_YADIF) {
    constexpr int R = reach_of (LAYOUT);
    return word >= R && word + R < pa.words
        && inside_mask (LAYOUT, word, pa, 3, 3) == ~0u;
  } else if constexpr (M == M_ELA) {
    return word >= 1 && word + 1 < pa.words
        && inside_mask (LAYOUT, word, pa, 1, 1) == ~0u;
  }
  return true;
}

/* The mode of the warp that holds column @word (a warp: 32 consecutive
 * words of a row). Columns inside are contiguous, so the warp's first and
 * last say for all. */
template < int M, int LAYOUT > CFX_HD int
column_mode (const PlaneArgs & pa, int word)
{
  int w0 = word - word % BLOCK_X, w1 = imin (w0 + BLOCK_X - 1, pa.words - 1);

  if (!pa.aligned)
    return MODE_SLOW;
  if (column_inside < M, LAYOUT > (pa, w0)
      && column_inside < M, LAYOUT > (pa, w1))
    return MODE_FAST;
  return pa.pitch_cur >= 4 * reach_of (LAYOUT) ? MODE_EDGE : MODE_SLOW;
}

/* One pair with every row loaded for it, by the page's rules for its
 * rows and columns */
template < int M, int LAYOUT, int MODE > CFX_HD void
slow_pair (const LaunchArgs & L, const View & v, const Edges & e, int k)
{
  const int par = L.parity;

  if constexpr (M == M_BWDIF)
    bwdif_slow < MODE > (par, v, k);
  else if constexpr (M == M_BWDIF_INTRA)
    bwdif_intra_slow < MODE > (par, v, k);
  else if constexpr (M == M_YADIF)
    yadif_slow < LAYOUT, MODE > (par, v, k, L.spatial_check != 0, e.inside);
  else if constexpr (M == M_ELA)
    ela_slow < LAYOUT, MODE > (par, v, k, e.left, e.right);
  else
    linear_slow < MODE > (par, v, k);
}

/* Rows within the stencil's reach of the top or bottom of a column that
 * runs on the window: a call (rare), given only scalars (the view is
 * rebuilt) */
template < int M, int LAYOUT, bool FIRST, int MODE > CFX_HD_RARE void
rare_pair (const LaunchArgs & L, int plane, int word, int k)
{
  const PlaneArgs & pa = L.plane[plane];

  slow_pair < M, LAYOUT, MODE > (L, view_of < FIRST > (pa, word),
      edges_of < M, LAYOUT, MODE > (pa, word), k);
}

/* A strip: the slow pairs before fa and from fb on, then the run on the
 * window (fa .. fb - 1), last, so that nothing lives across it. (Not one
 * loop with the run inside: the compiler would hoist the run's set-up out
 * of it and keep it live throughout.) MODE_FAST or MODE_EDGE. */
template < int M, int LAYOUT, bool FIRST, int MODE > CFX_HD void
strip_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* the rare pairs of edge warps clamp their neighbour words */
  constexpr int RARE = MODE == MODE_EDGE ? MODE_CLAMP : MODE;
  const PlaneArgs & pa = L.plane[plane];
  const Strip s = strip_of (L, pa, strip, reach_up (M, MODE),
      reach_down (M, MODE));
  const int head = s.fa >= 0 ? s.fa : s.k1;

NO_UNROLL
  for (int k = s.k0; k < head; k++)
    rare_pair < M, LAYOUT, FIRST, RARE > (L, plane, word, k);
  if (s.fa < 0)
    return;
NO_UNROLL
  for (int k = s.fb; k < s.k1; k++)
    rare_pair < M, LAYOUT, FIRST, RARE > (L, plane, word, k);

  const View v = view_of < FIRST > (pa, word);
  const Edges e = edges_of < M, LAYOUT, MODE > (pa, word);

  if constexpr (M == M_BWDIF)
    bwdif_run < MODE > (s, v);
  else if constexpr (M == M_BWDIF_INTRA)
    bwdif_intra_run < MODE > (s, v);
  else if constexpr (M == M_YADIF) {
    /* the spatial check or not: one loop each */
    if (L.spatial_check)
      yadif_run < LAYOUT, MODE, true > (s, v, e.inside);
    else
      yadif_run < LAYOUT, MODE, false > (s, v, e.inside);
  }
  else if constexpr (M == M_ELA)
    ela_run < LAYOUT, MODE > (s, v, e.left, e.right);
  else
    linear_run < MODE > (s, v);
}

/* A column of an unaligned plane: every pair on its own, every load and
 * store checked. Rare: a call. */
template < int M, int LAYOUT, bool FIRST > CFX_HD_RARE void
rare_strip (const LaunchArgs & L, int plane, int word, int strip)
{
  const PlaneArgs & pa = L.plane[plane];
  const Strip s = strip_of (L, pa, strip, 0, 0);
  const View v = view_of < FIRST > (pa, word);
  const Edges e = edges_of < M, LAYOUT, MODE_SLOW > (pa, word);

NO_UNROLL
  for (int k = s.k0; k < s.k1; k++)
    slow_pair < M, LAYOUT, MODE_SLOW > (L, v, e, k);
}

template < int M, int LAYOUT, bool FIRST > CFX_HD void
column_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* only the horizontal stencils have edge columns */
  if constexpr (M == M_YADIF || M == M_ELA) {
    switch (column_mode < M, LAYOUT > (L.plane[plane], word)) {
      case MODE_FAST:
        strip_thread < M, LAYOUT, FIRST, MODE_FAST > (L, plane, word, strip);
        break;
      case MODE_EDGE:
        strip_thread < M, LAYOUT, FIRST, MODE_EDGE > (L, plane, word, strip);
        break;
      default:
        rare_strip < M, LAYOUT, FIRST > (L, plane, word, strip);
        break;
    }
  } else {
    if (L.plane[plane].aligned)
      strip_thread < M, LAYOUT, FIRST, MODE_FAST > (L, plane, word, strip);
    else
      rare_strip < M, LAYOUT, FIRST > (L, plane, word, strip);
  }
}

template < int M, int LAYOUT > CFX_HD void
layout_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* only the temporal methods read A and B (bwdif's first and last
   * fields on their edge rows) */
  if constexpr (M == M_BWDIF || M == M_BWDIF_INTRA || M == M_YADIF) {
    if (L.parity ^ L.tff) {
      column_thread < M, LAYOUT, true > (L, plane, word, strip);
      return;
    }
  }
  column_thread < M, LAYOUT, false > (L, plane, word, strip);
}

template < int M > CFX_HD void
deint_thread (const LaunchArgs & L, int plane, int word, int strip)
{
  /* only the horizontal stencils care about the layout */
  if constexpr (M == M_YADIF || M == M_ELA) {
    switch (L.plane[plane].layout) {
      case LAYOUT_PLANAR:
        layout_thread < M, LAYOUT_PLANAR > (L, plane, word, strip);
        break;
      case LAYOUT_PAIRS:
        layout_thread < M, LAYOUT_PAIRS > (L, plane, word, strip);
        break;
      case LAYOUT_UYVY:
        layout_thread < M, LAYOUT_UYVY > (L, plane, word, strip);
        break;
      default:
        layout_thread < M, LAYOUT_YUY2 > (L, plane, word, strip);
        break;
    }
  } else {
    layout_thread < M, LAYOUT_PLANAR > (L, plane, word, strip);
  }
}

/* Where thread (tx, ty) of block @block of the flat grid works: plane,
 * word column, strip */
CFX_HD bool
block_work (const LaunchArgs & L, int block, int tx, int ty, int *plane,
    int *word, int *strip)
{
  int pl = block < L.block_end[0] ? 0 : block < L.block_end[1] ? 1 : 2;
  int local = block - (pl ? L.block_end[pl - 1] : 0);
  const PlaneArgs & pa = L.plane[pl];
  int by = local / pa.blocks_x;

  *plane = pl;
  *word = (local - by * pa.blocks_x) * BLOCK_X + tx;
  *strip = by * BLOCK_Y + ty;
  return *word < pa.words && *strip < pa.strips;
}

}                               /* namespace */

constexpr int
min_blocks (int m)
{
  return m == M_BWDIF ? MB_BWDIF : m == M_YADIF ? MB_YADIF : 8;
}

template < int M > __global__ void __launch_bounds__ (THREADS, min_blocks (M))
deinterlace_kernel (const __grid_constant__ LaunchArgs L)
{
  int plane, word, strip;

  if (block_work (L, blockIdx.x, threadIdx.x, threadIdx.y, &plane, &word,
          &strip))
    deint_thread < M > (L, plane, word, strip);
}

/* ---- host --------------------------------------------------------------- */

/* Two-byte bwdif's reach: an intra row y <= 5 takes y + 1 as its "three
 * above", which must exist when y is the last row, so 7 rows at least
 * (FFmpeg reads outside the picture below that; kernels/deinterlace.md,
 * "High bit depth") */
extern "C" void
cfx_deinterlace_min_size (CfxDeintMethod method, int bytes, int *min_width,
    int *min_height)
{
  switch (method) {
    case CFX_DEINT_BWDIF:
    case CFX_DEINT_MC:         /* bwdif is its floor */
      *min_width = 3;
      *min_height = 4;
      break;
    case CFX_DEINT_YADIF:
      *min_width = 3;
      *min_height = 3;
      break;
    default:
      *min_width = 1;
      *min_height = 2;
      break;
  }
  if (bytes == 2 && (method == CFX_DEINT_BWDIF || method == CFX_DEINT_MC))
    *min_height = 7;
}

/* Sets the strips of @strip pairs; returns the number of blocks */
static int
count_blocks (LaunchArgs * L, int n_planes, int strip)
{
  int blocks = 0;

  for (int i = 0; i < MAX_PLANES; i++) {
    if (i < n_planes) {
      PlaneArgs *pa = &L->plane[i];
      int pairs = (pa->height + 1) / 2;

      pa->strip_pairs = strip;
      pa->strips = (pairs + strip - 1) / strip;
      blocks += pa->blocks_x * ((pa->strips + BLOCK_Y - 1) / BLOCK_Y);
    }
    L->block_end[i] = blocks;
  }
  return blocks;
}

/* ---- host: the components' planes --------------------------------------- */

/* The first byte of the rows of a component's plane */
static const uint8_t *
row_start (const CfxPlane * p)
{
  return p->data - p->offset;
}

/* A plane of the launch: the components that share it (indices into the
 * caller's array), its layout and its width (PLANAR: samples, PAIRS:
 * pairs, packed: the luma's samples, i.e. pixels) */
struct HostPlane
{
  int comp[3], n;
  int layout, width;
};

/* A component's four frames agree on everything but where they are, and
 * hold 8-bit samples */
static bool
component_ok (const CfxDeintComponent * c)
{
  if (!deint_frames_agree (c, 1) || c->cur.step < 1 || c->cur.offset < 0)
    return false;
  for (int j = 0; j < 4; j++)
    if (deint_frame_of (c, j)->offset != c->cur.offset)
      return false;
  return true;
}

/* The layout of a plane from its components' steps and offsets (the
 * table at cfx_deinterlace_frame () in deinterlace.h); false for any
 * other arrangement */
static bool
plane_layout (const CfxDeintComponent * comps, HostPlane * hp)
{
  const CfxPlane *a = &comps[hp->comp[0]].cur;

  if (hp->n == 1 && a->step == 1) {
    hp->layout = LAYOUT_PLANAR;
    hp->width = a->width;
    return true;
  }
  if (hp->n == 2) {
    const CfxPlane *b = &comps[hp->comp[1]].cur;

    /* both bytes of a pair are processed alike: U and V in either order */
    if (a->step != 2 || b->step != 2 || a->offset + b->offset != 1
        || a->width != b->width || a->height != b->height)
      return false;
    hp->layout = LAYOUT_PAIRS;
    hp->width = a->width;
    return true;
  }
  if (hp->n == 3) {
    const CfxPlane *luma = NULL;
    int chroma = 0;             /* bit k: a chroma component at offset k */

    for (int i = 0; i < 3; i++) {
      const CfxPlane *p = &comps[hp->comp[i]].cur;

      if (p->step == 2 && !luma)
        luma = p;
      else if (p->step == 4 && p->offset < 4)
        chroma |= 1 << p->offset;
      else
        return false;
    }
    /* luma at the odd bytes, chroma at 0 and 2; or at the even bytes,
     * chroma at 1 and 3 (which chroma is U does not matter) */
    if (!luma || luma->offset > 1 || chroma != (luma->offset ? 0x5 : 0xa))
      return false;
    for (int i = 0; i < 3; i++) {
      const CfxPlane *p = &comps[hp->comp[i]].cur;

      if (p->height != luma->height || (p != luma
              && p->width != (luma->width + 1) / 2))
        return false;
    }
    hp->layout = luma->offset ? LAYOUT_UYVY : LAYOUT_YUY2;
    hp->width = luma->width;
    return true;
  }
  return false;
}

/* Groups the components into planes: components whose rows start at the
 * same byte with the same pitch (in the current frame) share one, and
 * must then share it in every frame. Returns the number of planes, or -1
 * for components the kernel cannot take. */
static int
find_planes (const CfxDeintComponent * comps, int n_comps, HostPlane * planes)
{
  int n = 0;

  for (int i = 0; i < n_comps; i++) {
    const CfxPlane *c = &comps[i].cur;
    int k;

    if (!component_ok (&comps[i]))
      return -1;
    for (k = 0; k < n; k++) {
      const CfxPlane *o = &comps[planes[k].comp[0]].cur;

      if (row_start (c) == row_start (o) && c->pitch == o->pitch)
        break;
    }
    if (k == n) {
      if (n == MAX_PLANES)
        return -1;
      planes[n++].n = 0;
    }
    if (planes[k].n == 3)
      return -1;
    planes[k].comp[planes[k].n++] = i;
  }
  for (int k = 0; k < n; k++) {
    const CfxDeintComponent *first = &comps[planes[k].comp[0]];

    for (int i = 1; i < planes[k].n; i++)
      for (int j = 0; j < 4; j++) {
        const CfxPlane *p = deint_frame_of (&comps[planes[k].comp[i]], j);
        const CfxPlane *q = deint_frame_of (first, j);

        if (row_start (p) != row_start (q) || p->pitch != q->pitch)
          return -1;
      }
    if (!plane_layout (comps, &planes[k]))
      return -1;
  }
  return n;
}

/* Where a plane's bytes start in frame j: its rows (a planar component
 * may sit anywhere in its rows) */
static uint8_t *
plane_data (const CfxDeintComponent * comps, const HostPlane * hp, int j)
{
  const CfxPlane *p = deint_frame_of (&comps[hp->comp[0]], j);

  return hp->layout == LAYOUT_PLANAR ? p->data : (uint8_t *) row_start (p);
}

/* Fills the launch description; returns the number of blocks, or -1 for
 * components the method cannot take. */
static int
setup_launch (LaunchArgs * L, const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, long target_threads, long max_blocks)
{
  HostPlane planes[MAX_PLANES];
  long total = 0, blocks;
  int i, min_w, min_h, max_pairs = 1, n_planes;

  if (!deint_args_ok (comps, n_comps, field))
    return -1;
  n_planes = find_planes (comps, n_comps, planes);
  if (n_planes < 1)
    return -1;
  cfx_deinterlace_min_size (field->method, 1, &min_w, &min_h);
  memset (L, 0, sizeof (*L));
  L->parity = field->parity ? 1 : 0;
  L->tff = field->tff ? 1 : 0;
  L->spatial_check = field->spatial_check ? 1 : 0;

  for (i = 0; i < n_planes; i++) {
    const HostPlane *hp = &planes[i];
    const CfxDeintComponent *s = &comps[hp->comp[0]];
    PlaneArgs *pa = &L->plane[i];
    int w = hp->width, h = s->cur.height;

    pa->layout = hp->layout;
    pa->width = w;
    pa->cwidth = w;
    switch (hp->layout) {
      case LAYOUT_PLANAR:
        pa->row_bytes = w;
        break;
      case LAYOUT_PAIRS:
        pa->row_bytes = 2 * w;
        break;
      case LAYOUT_UYVY:
      case LAYOUT_YUY2:
        pa->cwidth = (w + 1) / 2;
        pa->row_bytes = 4 * pa->cwidth;
        break;
      default:
        return -1;
    }
    if (pa->cwidth < min_w || w < min_w || h < min_h)
      return -1;
    pa->height = h;
    pa->prev = plane_data (comps, hp, 0);
    pa->cur = plane_data (comps, hp, 1);
    pa->next = plane_data (comps, hp, 2);
    pa->dst = plane_data (comps, hp, 3);
    pa->pitch_prev = s->prev.pitch;
    pa->pitch_cur = s->cur.pitch;
    pa->pitch_next = s->next.pitch;
    pa->pitch_dst = s->dst.pitch;
    pa->words = (pa->row_bytes + 3) / 4;
    /* words may run into the row padding, never past the pitch */
    pa->aligned = cfx_aligned (pa->prev, pa->pitch_prev, 1, 4)
        && cfx_aligned (pa->cur, pa->pitch_cur, 1, 4)
        && cfx_aligned (pa->next, pa->pitch_next, 1, 4)
        && cfx_aligned (pa->dst, pa->pitch_dst, 1, 4)
        && pa->pitch_prev >= 4 * pa->words && pa->pitch_cur >= 4 * pa->words
        && pa->pitch_next >= 4 * pa->words && pa->pitch_dst >= 4 * pa->words;
    pa->blocks_x = (pa->words + BLOCK_X - 1) / BLOCK_X;
    total += (long) pa->words * ((h + 1) / 2);
    max_pairs = imax (max_pairs, (h + 1) / 2);
  }

  /* strips of whole row pairs */
  deint_strip_length (total, target_threads, 1, max_pairs, 1, max_blocks,
      [&](long strip) -> long {
        return count_blocks (L, n_planes, (int) strip);
      }, &blocks);
  return (int) blocks;
}

template < int M > static cudaError_t
launch (const LaunchArgs & L, int blocks, cudaStream_t stream)
{
  return cfx_launch (deinterlace_kernel < M >, blocks, dim3 (BLOCK_X,
          BLOCK_Y), 0, stream, L);
}

static int
kernel_of (const CfxDeintField * field)
{
  switch (field->method) {
    case CFX_DEINT_BWDIF:
      return field->intra_only ? M_BWDIF_INTRA : M_BWDIF;
    case CFX_DEINT_YADIF:
      return M_YADIF;
    case CFX_DEINT_ELA:
      return M_ELA;
    case CFX_DEINT_LINEAR:
      return M_LINEAR;
    case CFX_DEINT_MC:         /* cfx_deinterlace_mc () */
      break;
  }
  return -1;
}

/* Blocks of kernel m that the current device holds at once (one wave) */
static cudaError_t
wave_blocks (int m, long *wave)
{
  static int cache[M_LINEAR + 1][CFX_WAVE_MAX_DEVICES];

  switch (m) {
    case M_BWDIF:
      return cfx_wave_blocks (deinterlace_kernel < M_BWDIF >, THREADS,
          cache[m], wave);
    case M_BWDIF_INTRA:
      return cfx_wave_blocks (deinterlace_kernel < M_BWDIF_INTRA >, THREADS,
          cache[m], wave);
    case M_YADIF:
      return cfx_wave_blocks (deinterlace_kernel < M_YADIF >, THREADS,
          cache[m], wave);
    case M_ELA:
      return cfx_wave_blocks (deinterlace_kernel < M_ELA >, THREADS,
          cache[m], wave);
    default:
      return cfx_wave_blocks (deinterlace_kernel < M_LINEAR >, THREADS,
          cache[M_LINEAR], wave);
  }
}

/* 8-bit components, strips for @waves waves */
static cudaError_t
deinterlace8_frame (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, double waves, cudaStream_t stream)
{
  LaunchArgs L;
  int blocks, m;
  long wave = 0, target, max_blocks;
  cudaError_t err;

  if (!deint_args_ok (comps, n_comps, field) || !deint_waves_ok (waves))
    return cudaErrorInvalidValue;
  m = kernel_of (field);
  err = wave_blocks (m, &wave);
  if (err != cudaSuccess)
    return err;
  if (!cfx_wave_shape (wave, THREADS, waves, &target, &max_blocks))
    return cudaErrorInvalidValue;

  blocks = setup_launch (&L, comps, n_comps, field, target, max_blocks);
  if (blocks < 0)
    return cudaErrorInvalidValue;
  if (blocks == 0)
    return cudaSuccess;

  switch (m) {
    case M_BWDIF:
      return launch < M_BWDIF > (L, blocks, stream);
    case M_BWDIF_INTRA:
      return launch < M_BWDIF_INTRA > (L, blocks, stream);
    case M_YADIF:
      return launch < M_YADIF > (L, blocks, stream);
    case M_ELA:
      return launch < M_ELA > (L, blocks, stream);
    default:
      return launch < M_LINEAR > (L, blocks, stream);
  }
}

/* The components' sample size, which picks the kernels (0: none given) */
static int
sample_bytes (const CfxDeintComponent * comps, int n_comps)
{
  return comps && n_comps >= 1 ? comps[0].cur.bytes : 0;
}

extern "C" cudaError_t
cfx_deinterlace_frame (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, cudaStream_t stream)
{
  switch (sample_bytes (comps, n_comps)) {
    case 1:
      return deinterlace8_frame (comps, n_comps, field, 1, stream);
    case 2:
      return cfx_deinterlace16_launch (comps, n_comps, field,
          DEINT16_ELEMENTS, 1, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

extern "C" cudaError_t
cfx_deinterlace_frame_spread (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, double waves, cudaStream_t stream)
{
  switch (sample_bytes (comps, n_comps)) {
    case 1:
      return deinterlace8_frame (comps, n_comps, field, waves, stream);
    case 2:
      return cfx_deinterlace16_launch (comps, n_comps, field, DEINT16_PAIRED,
          waves, stream);
    default:
      return cudaErrorInvalidValue;
  }
}
