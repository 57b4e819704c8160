/* Exact box blur: the mean of a (2 rx + 1) x (2 ry + 1) box with mirrored
 * borders, rounded half up, in integers: equal to the reference for every
 * radius, including radii larger than the channel.
 *
 * Two kernels, time independent of the radius:
 *   box_v  vertical running sums, threads along x (coalesced), each
 *          walking down a segment of one column: sum += in[y + ry + 1] -
 *          in[y - ry]; the row indices follow the mirror incrementally.
 *          A segment starts with a direct sum over its first window, so
 *          segments are at least ry / 2 rows long (at most 4 extra reads
 *          per output, from L2) and short enough to fill the GPU: 1080p,
 *          ry 100: 1920 x 22 walkers. Rows go 16 at a time (32 in the
 *          first window): their loads are in flight together, where one
 *          at a time made the walk wait for memory on every row. Sums to 16 bits when 255
 *          (2 ry + 1) fits, else 32.
 *   box_h  one block per row: the row of sums to shared memory, a block
 *          prefix scan, then every output is P[x + rx + 1] - P[x - rx] of
 *          the mirrored row's prefix, which is periodic (period 2 (w - 1))
 *          and known everywhere from the row's own prefix: O(1) for any rx.
 *          uint32 arithmetic wraps, which is exact because the box sum
 *          itself stays below 2^32; the mean is rounded by an fp32
 *          reciprocal corrected to the exact integer quotient.
 *
 * Every sub-channel of a call (the planes of a frame, their fields) goes
 * through the same two launches.
 *
 * Floor: read w * h, write w * h bytes. The sums in between (2 or 4 bytes
 * a sample) are written once and read once, mostly from L2. */
#define CFX_BLUR_INTERNAL
#include "cudafx-kernels.h"

#include <stdint.h>

#define V_THREADS 128
#define H_THREADS 256
#define BATCH 16                /* rows whose loads go out together */
#define WARM 32                 /* the same for the first window */

struct BoxSub
{
  const uint8_t *src;
  uint8_t *dst;
  int src_pitch, src_step, dst_pitch, dst_step, width, height;
  int rx, ry, seg;
  void *sums;
  int sums_pitch;
  unsigned n;
  float inv_n;
  int v0, v_w, h0;              /* first blocks, box_v blocks per grid row */
};

struct BoxParams
{
  int n;
  BoxSub s[CFX_BLUR_MAX_SUBS];
};

/* Mirror position that follows i -> i + 1 without divisions */
struct MirrorWalk
{
  int pos, dir, last;

  __device__ void init (int i, int n)
  {
    last = n - 1;
    if (n <= 1) {
      pos = 0;
      dir = 0;
      return;
    }
    int period = 2 * (n - 1), s = i % period;
    if (s < 0)
      s += period;
    pos = s < n ? s : period - s;
    dir = s < n - 1 ? 1 : -1;
  }
  __device__ void step ()
  {
    if (dir) {
      pos += dir;
      if (pos == last)
        dir = -1;
      else if (pos == 0)
        dir = 1;
    }
  }
};

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
  const int x = bx * V_THREADS + threadIdx.x;
  const int y0 = by * s.seg;
  const int height = s.height, pitch = s.src_pitch, ry = s.ry;

  if (x >= s.width || y0 >= height)
    return;

  const uint8_t *col = s.src + (size_t) x * s.src_step;
  T *sums = (T *) s.sums + x;
  const int y1 = min (height, y0 + s.seg);
  MirrorWalk lead, trail;
  unsigned sum = 0;

  /* the first window, rows y0 - ry .. y0 + ry; lead ends on y0 + ry + 1 */
  lead.init (y0 - ry, height);
  int e = 2 * ry + 1;
  for (; e >= WARM; e -= WARM) {
    unsigned v[WARM];
#pragma unroll
    for (int k = 0; k < WARM; k++) {
      v[k] = __ldg (col + (size_t) lead.pos * pitch);
      lead.step ();
    }
#pragma unroll
    for (int k = 0; k < WARM; k++)
      sum += v[k];
  }
  for (; e > 0; e--) {
    sum += __ldg (col + (size_t) lead.pos * pitch);
    lead.step ();
  }
  trail.init (y0 - ry, height);

  int y = y0;
  for (; y + BATCH <= y1; y += BATCH) {
    unsigned in[BATCH], out[BATCH];
#pragma unroll
    for (int k = 0; k < BATCH; k++) {
      in[k] = __ldg (col + (size_t) lead.pos * pitch);
      out[k] = __ldg (col + (size_t) trail.pos * pitch);
      lead.step ();
      trail.step ();
    }
#pragma unroll
    for (int k = 0; k < BATCH; k++) {
      sums[(size_t) (y + k) * s.sums_pitch] = (T) sum;
      sum += in[k] - out[k];
    }
  }
  for (; y < y1; y++) {
    sums[(size_t) y * s.sums_pitch] = (T) sum;
    sum += __ldg (col + (size_t) lead.pos * pitch);
    sum -= __ldg (col + (size_t) trail.pos * pitch);
    lead.step ();
    trail.step ();
  }
}

/* Prefix of the mirrored row at any index i (P[0 .. w] known): the
 * extension repeats with period p = 2 (w - 1); one period sums to
 * P[w] + P[w - 1] - P[1], and inside a period, past w, the prefix is
 * P[w] + P[w - 1] - P[p - s + 1]. */
__device__ __forceinline__ unsigned
prefix_at (const unsigned *P, int w, int i)
{
  if (i >= 0 && i <= w)
    return P[i];
  if (w == 1)
    return (unsigned) i *P[1];
  const int p = 2 * (w - 1);
  int q = i / p, s = i - q * p;
  if (s < 0) {
    s += p;
    q--;
  }
  const unsigned period = P[w] + P[w - 1] - P[1];
  const unsigned inside = s <= w ? P[s] : P[w] + P[w - 1] - P[p - s + 1];
  return (unsigned) q *period + inside;
}

template < typename T >
__global__ void __launch_bounds__ (H_THREADS)
box_h (const BoxParams p)
{
  extern __shared__ unsigned P[];       /* width + 1 */
  __shared__ unsigned warp_total[H_THREADS / 32];
  int c = 0;
  for (int i = 1; i < p.n; i++)
    if ((int) blockIdx.x >= p.s[i].h0)
      c = i;
  const BoxSub & s = p.s[c];
  const int y = blockIdx.x - s.h0, width = s.width, rx = s.rx;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const T *row = (const T *) s.sums + (size_t) y * s.sums_pitch;

  for (int i = tid; i < width; i += H_THREADS)
    P[i + 1] = row[i];
  if (tid == 0)
    P[0] = 0;
  __syncthreads ();

  /* inclusive scan of P[1 .. w]: each thread a run of c, then the runs */
  const int cn = (width + H_THREADS - 1) / H_THREADS;
  const int start = 1 + tid * cn, end = min (width + 1, start + cn);
  unsigned run = 0;
  for (int i = start; i < end; i++) {
    run += P[i];
    P[i] = run;
  }
  unsigned incl = run;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned v = __shfl_up_sync (0xffffffffu, incl, d);
    if (lane >= d)
      incl += v;
  }
  if (lane == 31)
    warp_total[warp] = incl;
  __syncthreads ();
  unsigned before = incl - run;
  for (int k = 0; k < warp; k++)
    before += warp_total[k];
  for (int i = start; i < end; i++)
    P[i] += before;
  __syncthreads ();

  const unsigned n = s.n, half = n / 2;
  uint8_t *out = s.dst + (size_t) y * s.dst_pitch;
  for (int x = tid; x < width; x += H_THREADS) {
    const unsigned sum = prefix_at (P, width, x + rx + 1) -
        prefix_at (P, width, x - rx) + half;
    /* sum / n: the fp32 estimate is off by at most one (sum < 2^30) */
    int qt = (int) ((float) sum * s.inv_n);
    long long rem = (long long) sum - (long long) qt * n;
    if (rem < 0)
      qt--;
    else if (rem >= (long long) n)
      qt++;
    out[(size_t) x * s.dst_step] = (uint8_t) qt;
  }
}

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

template < typename T >
static cudaError_t
launch (const BoxParams & p, int v_blocks, int h_blocks, int max_width,
    cudaStream_t stream)
{
  const size_t shared = sizeof (unsigned) * ((size_t) max_width + 1);
  cudaError_t err;

  box_v < T > <<<v_blocks, V_THREADS, 0, stream >>> (p);
  if (shared > 48 * 1024) {
    err = cudaFuncSetAttribute (box_h < T >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared);
    if (err != cudaSuccess)
      return err;
  }
  box_h < T > <<<h_blocks, H_THREADS, shared, stream >>> (p);
  return cudaGetLastError ();
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
    s->rx = x->rx;
    s->ry = x->ry;
    /* segments of at least 32 rows and ry / 2 */
    s->seg = x->ry / 2 > 32 ? x->ry / 2 : 32;
    s->sums = x->scratch;
    s->sums_pitch = (s->width + 63) & ~63;
    s->n = (unsigned) (2 * x->rx + 1) * (unsigned) (2 * x->ry + 1);
    s->inv_n = 1.0f / (float) s->n;
    s->v0 = v;
    s->v_w = (s->width + V_THREADS - 1) / V_THREADS;
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
