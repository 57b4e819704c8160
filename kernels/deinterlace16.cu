/* Deinterlacing of 10 to 16-bit samples: yadif and bwdif as FFmpeg 5.1's
 * two-byte CPU filters compute them, ELA and linear as for 8-bit
 * (kernels/deinterlace.md, "High bit depth"). The 8-bit kernels
 * (deinterlace.cu) work four samples to a register; this file is the
 * plain form: one output sample a thread, every stencil row read from
 * memory (L1 and L2 serve the neighbours).
 *
 * Samples are 16-bit words holding @depth significant bits @shift bits
 * up (I420_10LE: 10 at 0; P010: 10 at 6); the other bits are ignored on
 * input and 0 on output, copied rows included.
 *
 * Floor: as the 8-bit kernels, 2.5 frames read and 1 written for yadif
 * and bwdif, at 2 bytes a sample. Access: a warp takes 32 consecutive
 * samples of a row (64 contiguous bytes of each stencil row of a planar
 * plane, 128 of a chroma-interleaved one). Not yet measured on a GPU.
 *
 * Every function a thread runs is __host__ __device__: the test
 * tests/kernels/test-deinterlace16-emulated.c runs them on the CPU
 * against the reference. */
#include "cudafx-kernels.h"
#include "kernel-helpers.h"

#define D16 __host__ __device__ static inline

namespace
{

/* One component of the three input frames and the output */
struct Comp16
{
  const uint8_t *frame[3];      /* P, C, N */
  int pitch[3];
  uint8_t *dst;
  int dst_pitch;
  int step, width, height;
  unsigned mask;                /* (1 << depth) - 1 */
  int shift, max;
};

struct Field16
{
  int method, parity, tff, spatial_check, intra_only;
};

enum
{ P, C, N };

D16 int
imax (int a, int b)
{
  return a > b ? a : b;
}

D16 int
imin (int a, int b)
{
  return a < b ? a : b;
}

D16 int
iabs (int a)
{
  return a < 0 ? -a : a;
}

/* sample x of row y of frame f, its significant bits */
D16 int
at (const Comp16 & c, int f, int x, int y)
{
  const uint8_t *p = c.frame[f] + (size_t) y * c.pitch[f] +
      (size_t) x * c.step;

  return (int) (((unsigned) p[0] | (unsigned) p[1] << 8) >> c.shift & c.mask);
}

/* A[r] + B[r], with A and B the frames around this output's instant */
D16 int
ab_sum (const Comp16 & c, int a, int b, int x, int r)
{
  return at (c, a, x, r) + at (c, b, x, r);
}

/* What yadif and bwdif share: C's rows m and p (cm, cp), the temporal
 * prediction d, A and B's difference td0 and the motion bound diff */
struct Temporal
{
  int cm, cp, d, td0, diff;
};

D16 Temporal
temporal (const Comp16 & c, int a, int b, int x, int y, int m, int p)
{
  Temporal t;
  int ay = at (c, a, x, y), by = at (c, b, x, y), td1, td2;

  t.cm = at (c, C, x, m);
  t.cp = at (c, C, x, p);
  t.d = (ay + by) >> 1;
  t.td0 = iabs (ay - by);
  /* P and N here, not A and B */
  td1 = (iabs (at (c, P, x, m) - t.cm) + iabs (at (c, P, x, p) - t.cp)) >> 1;
  td2 = (iabs (at (c, N, x, m) - t.cm) + iabs (at (c, N, x, p) - t.cp)) >> 1;
  t.diff = imax (imax (t.td0 >> 1, td1), td2);
  return t;
}

D16 int
yadif (const Comp16 & c, int a, int b, int spatial_check, int x, int y)
{
  int w = c.width, h = c.height;
  int m = y > 0 ? y - 1 : y + 1, p = y + 1 < h ? y + 1 : y - 1;
  Temporal t = temporal (c, a, b, x, y, m, p);
  int cm = t.cm, cp = t.cp, d = t.d, diff = t.diff;
  int sp = (cm + cp) >> 1;

  if (3 <= x && x < w - 3) {
    /* direction j costs three column pairs across the missing row; -2
     * and +2 are tried only after their side's 1 won, and the + side
     * competes with whatever the - side left */
#define COST(j) (iabs (at (c, C, x + (j) - 1, m) - at (c, C, x - (j) - 1, p)) \
      + iabs (at (c, C, x + (j), m) - at (c, C, x - (j), p)) \
      + iabs (at (c, C, x + (j) + 1, m) - at (c, C, x - (j) + 1, p)))
#define PRED(j) ((at (c, C, x + (j), m) + at (c, C, x - (j), p)) >> 1)
    int best = COST (0) - 1, s;

    if ((s = COST (-1)) < best) {
      best = s;
      sp = PRED (-1);
      if ((s = COST (-2)) < best) {
        best = s;
        sp = PRED (-2);
      }
    }
    if ((s = COST (1)) < best) {
      best = s;
      sp = PRED (1);
      if ((s = COST (2)) < best) {
        best = s;
        sp = PRED (2);
      }
    }
#undef COST
#undef PRED
  }
  if (spatial_check && y != 1 && y + 2 != h) {
    int m2 = 2 * m - y, p2 = 2 * p - y;
    int bb = ab_sum (c, a, b, x, m2) >> 1, ff = ab_sum (c, a, b, x, p2) >> 1;
    int hi = imax (imax (d - cp, d - cm), imin (bb - cm, ff - cp));
    int lo = imin (imin (d - cp, d - cm), imax (bb - cm, ff - cp));

    diff = imax (imax (diff, lo), -hi);
  }
  return imin (imax (sp, d - diff), d + diff);
}

/* two-byte bwdif picks the rows near the top and bottom with a reach of
 * 2 (bytes a sample), where the 8-bit filter's is 1 */
#define DF 2

D16 int
clip (int v, int max)
{
  return v < 0 ? 0 : v > max ? max : v;
}

D16 int
bwdif_intra (const Comp16 & c, int x, int y)
{
  int h = c.height;
  int m = y > DF - 1 ? y - 1 : y + 1, p = y + DF < h ? y + 1 : y - 1;
  int m3 = y > 3 * DF - 1 ? y - 3 : y + 1, p3 = y + 3 * DF < h ? y + 3 : y - 1;

  return clip ((5077 * (at (c, C, x, m) + at (c, C, x, p)) -
          981 * (at (c, C, x, m3) + at (c, C, x, p3))) >> 13, c.max);
}

D16 int
bwdif (const Comp16 & c, int a, int b, int x, int y)
{
  int h = c.height;
  int edge = y < 4 || y + 5 > h;
  int m = edge ? (y > DF - 1 ? y - 1 : y + 1) : y - 1;
  int p = edge ? (y + DF < h ? y + 1 : y - 1) : y + 1;
  Temporal t = temporal (c, a, b, x, y, m, p);
  int cm = t.cm, cp = t.cp, d = t.d, td0 = t.td0, diff = t.diff;
  int i;

  if (diff == 0)
    return d;
  if (!edge || !(y < 2 || y + 3 > h)) {
    int bb = (ab_sum (c, a, b, x, y - 2) >> 1) - cm;
    int ff = (ab_sum (c, a, b, x, y + 2) >> 1) - cp;
    int hi = imax (imax (d - cp, d - cm), imin (bb, ff));
    int lo = imin (imin (d - cp, d - cm), imax (bb, ff));

    diff = imax (imax (diff, lo), -hi);
  }
  if (edge)
    i = (cm + cp) >> 1;
  else if (iabs (cm - cp) > td0)        /* vertical detail beats motion */
    i = (((5570 * ab_sum (c, a, b, x, y) - 3801 * (ab_sum (c, a, b, x,
                        y - 2) + ab_sum (c, a, b, x, y + 2))
                + 1016 * (ab_sum (c, a, b, x, y - 4) + ab_sum (c, a, b, x,
                        y + 4))) >> 2)
        + 4309 * (cm + cp) - 213 * (at (c, C, x, y - 3) + at (c, C, x,
                y + 3))) >> 13;
  else
    i = (5077 * (cm + cp) - 981 * (at (c, C, x, y - 3) + at (c, C, x,
                y + 3))) >> 13;
  return clip (imin (imax (i, d - diff), d + diff), c.max);
}

/* row r mirrored at the plane's edges (-1 -> 1, h -> h - 2) */
D16 int
mirror_row (int r, int h)
{
  return r < 0 ? (h > 1 ? 1 : 0) : r >= h ? (h > 1 ? h - 2 : 0) : r;
}

D16 int
intra (const Comp16 & c, int ela, int x, int y)
{
  int w = c.width, h = c.height;
  int up = mirror_row (y - 1, h), down = mirror_row (y + 1, h), j = 0;

  if (ela) {
    /* directions 0, -1, +1 in this order, each kept only if strictly
     * cheaper; columns clamped */
    int best = -1;

    for (int k = 0; k < 3; k++) {
      int dj = k == 0 ? 0 : k == 1 ? -1 : 1;
      int xu = imin (imax (x + dj, 0), w - 1), xd = imin (imax (x - dj, 0),
          w - 1);
      int cost = iabs (at (c, C, xu, up) - at (c, C, xd, down));

      if (best < 0 || cost < best) {
        best = cost;
        j = dj;
      }
    }
  }
  return (at (c, C, imin (imax (x + j, 0), w - 1), up) +
      at (c, C, imin (imax (x - j, 0), w - 1), down) + 1) >> 1;
}

/* The output sample at (x, y), significant bits */
D16 int
output_sample (const Comp16 & c, const Field16 & f, int x, int y)
{
  int fp = f.parity ^ f.tff, a = fp ? P : C, b = fp ? C : N;

  if ((y & 1) == f.parity)
    return at (c, C, x, y);
  switch (f.method) {
    case CFX_DEINT_YADIF:
      return yadif (c, a, b, f.spatial_check, x, y);
    case CFX_DEINT_BWDIF:
      return f.intra_only ? bwdif_intra (c, x, y) : bwdif (c, a, b, x, y);
    case CFX_DEINT_ELA:
      return intra (c, 1, x, y);
    default:
      return intra (c, 0, x, y);
  }
}

D16 void
store (const Comp16 & c, int x, int y, int v)
{
  unsigned word = (unsigned) v << c.shift;
  uint8_t *p = c.dst + (size_t) y * c.dst_pitch + (size_t) x * c.step;

  p[0] = (uint8_t) word;
  p[1] = (uint8_t) (word >> 8);
}

__global__ void
deinterlace16 (Comp16 c, Field16 f)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x < c.width && y < c.height)
    store (c, x, y, output_sample (c, f, x, y));
}

/* The component as the kernel takes it, or false */
bool
comp16 (const CfxDeintComponent & in, Comp16 * c)
{
  const CfxPlane *f[3] = { &in.prev, &in.cur, &in.next };
  const CfxPlane & d = in.dst;

  if (d.bytes != 2 || d.depth < 9 || d.depth > 16 || d.shift < 0
      || d.depth + d.shift > 16 || d.step < 2 || d.width < 1
      || d.height < 1)
    return false;
  for (int i = 0; i < 3; i++)
    if (f[i]->bytes != 2 || f[i]->depth != d.depth || f[i]->shift != d.shift
        || f[i]->step != d.step || f[i]->width != d.width
        || f[i]->height != d.height || !f[i]->data)
      return false;
  for (int i = 0; i < 3; i++) {
    c->frame[i] = f[i]->data;
    c->pitch[i] = f[i]->pitch;
  }
  c->dst = d.data;
  c->dst_pitch = d.pitch;
  c->step = d.step;
  c->width = d.width;
  c->height = d.height;
  c->mask = (1u << d.depth) - 1;
  c->shift = d.shift;
  c->max = (int) c->mask;
  return true;
}

bool
field16 (const CfxDeintField & in, Field16 * f)
{
  f->method = in.method;
  f->parity = in.parity & 1;
  f->tff = in.tff ? 1 : 0;
  f->spatial_check = in.spatial_check;
  f->intra_only = in.intra_only;
  return in.method == CFX_DEINT_BWDIF || in.method == CFX_DEINT_YADIF
      || in.method == CFX_DEINT_ELA || in.method == CFX_DEINT_LINEAR;
}

}                               /* namespace */

/* bwdif's two-byte reach: an intra row y <= 5 takes y + 1 as its "three
 * above", which must exist when y is the last row, so 7 rows at least
 * (FFmpeg reads outside the picture below that) */
extern "C" void
cfx_deinterlace16_min_size (CfxDeintMethod method, int *min_width,
    int *min_height)
{
  cfx_deinterlace_min_size (method, min_width, min_height);
  if (method == CFX_DEINT_BWDIF)
    *min_height = 7;
}

static bool
big_enough (const Comp16 & c, int method)
{
  int min_w, min_h;

  cfx_deinterlace16_min_size ((CfxDeintMethod) method, &min_w, &min_h);
  return c.width >= min_w && c.height >= min_h;
}

extern "C" cudaError_t
cfx_deinterlace16_frame (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, cudaStream_t stream)
{
  Comp16 c[CFX_DEINT_MAX_COMPONENTS];
  Field16 f;

  if (!comps || !field || n_comps < 1 || n_comps > CFX_DEINT_MAX_COMPONENTS
      || !field16 (*field, &f))
    return cudaErrorInvalidValue;
  for (int i = 0; i < n_comps; i++)
    if (!comp16 (comps[i], &c[i]) || !big_enough (c[i], f.method)
        || c[i].height > 65535 * 4)
      return cudaErrorInvalidValue;
  for (int i = 0; i < n_comps; i++) {
    cudaError_t err = cfx_launch (deinterlace16, dim3 ((c[i].width + 31) /
            32, (c[i].height + 3) / 4), dim3 (32, 4), 0, stream, c[i], f);

    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

#ifdef CFX_DEINTERLACE16_EMULATE
/* The same work on the CPU, host planes in @comps: every thread's
 * output_sample and store, in turn */
extern "C" int
cfx_deinterlace16_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field)
{
  Field16 f;

  if (!comps || !field || n_comps < 1 || n_comps > CFX_DEINT_MAX_COMPONENTS
      || !field16 (*field, &f))
    return 0;
  for (int i = 0; i < n_comps; i++) {
    Comp16 c;

    if (!comp16 (comps[i], &c) || !big_enough (c, f.method))
      return 0;
    for (int y = 0; y < c.height; y++)
      for (int x = 0; x < c.width; x++)
        store (c, x, y, output_sample (c, f, x, y));
  }
  return 1;
}
#endif
