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
 *          per output) and short enough to fill the GPU: 1080p, ry 100:
 *          1920 x 22 walkers. Sums to 16 bits when 255 (2 ry + 1) fits,
 *          else 32.
 *   box_h  one block per row: the row of sums to shared memory, a block
 *          prefix scan, then every output is P[x + rx + 1] - P[x - rx] of
 *          the mirrored row's prefix, which is periodic (period 2 (w - 1))
 *          and known everywhere from the row's own prefix: O(1) for any rx.
 *          uint32 arithmetic wraps, which is exact because the box sum
 *          itself stays below 2^32; the mean is rounded by an fp32
 *          reciprocal corrected to the exact integer quotient.
 *
 * Floor: read w * h, write w * h bytes. The sums in between (2 or 4 bytes
 * a sample) are written once and read once, mostly from L2. */
#define CFX_BLUR_INTERNAL
#include "cudafx-kernels.h"

#include <stdint.h>

#define V_THREADS 128
#define H_THREADS 256

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
box_v (const uint8_t * src, int pitch, int step, int width, int height,
    int ry, int seg, T * sums, int sums_pitch)
{
  const int x = blockIdx.x * V_THREADS + threadIdx.x;
  const int y0 = blockIdx.y * seg;

  if (x >= width || y0 >= height)
    return;

  const uint8_t *col = src + (size_t) x * step;
  const int y1 = min (height, y0 + seg);
  MirrorWalk lead, trail;
  unsigned sum = 0;

  /* the first window, rows y0 - ry .. y0 + ry; lead ends on y0 + ry + 1 */
  lead.init (y0 - ry, height);
  for (int e = -ry; e <= ry; e++) {
    sum += __ldg (col + (size_t) lead.pos * pitch);
    lead.step ();
  }
  trail.init (y0 - ry, height);

  for (int y = y0; y < y1; y++) {
    sums[(size_t) y * sums_pitch + x] = (T) sum;
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
box_h (const T * sums, int sums_pitch, uint8_t * dst, int pitch, int step,
    int width, int rx, unsigned n, float inv_n)
{
  extern __shared__ unsigned P[];       /* width + 1 */
  __shared__ unsigned warp_total[H_THREADS / 32];
  const int y = blockIdx.x;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const T *row = sums + (size_t) y * sums_pitch;

  for (int i = tid; i < width; i += H_THREADS)
    P[i + 1] = row[i];
  if (tid == 0)
    P[0] = 0;
  __syncthreads ();

  /* inclusive scan of P[1 .. w]: each thread a run of c, then the runs */
  const int c = (width + H_THREADS - 1) / H_THREADS;
  const int start = 1 + tid * c, end = min (width + 1, start + c);
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

  const unsigned half = n / 2;
  uint8_t *out = dst + (size_t) y * pitch;
  for (int x = tid; x < width; x += H_THREADS) {
    const unsigned s = prefix_at (P, width, x + rx + 1) -
        prefix_at (P, width, x - rx) + half;
    /* s / n: the fp32 estimate is off by at most one (s < 2^30) */
    int qt = (int) ((float) s * inv_n);
    long long rem = (long long) s - (long long) qt * n;
    if (rem < 0)
      qt--;
    else if (rem >= (long long) n)
      qt++;
    out[(size_t) x * step] = (uint8_t) qt;
  }
}

extern "C" size_t
cfx_blur_box_sums_bytes (int width, int height, int wide)
{
  const size_t pitch = ((size_t) width + 63) & ~(size_t) 63;
  return pitch * (size_t) height * (wide ? 4 : 2);
}

template < typename T >
static cudaError_t
launch (CfxChannel dst, CfxChannel src, int rx, int ry, T * sums,
    cudaStream_t stream)
{
  const int w = src.width, h = src.height;
  const int sums_pitch = (w + 63) & ~63;
  /* segments of at least 32 rows and ry / 2 */
  const int seg = ry / 2 > 32 ? ry / 2 : 32;
  const unsigned n = (unsigned) (2 * rx + 1) * (unsigned) (2 * ry + 1);
  const size_t shared = sizeof (unsigned) * ((size_t) w + 1);
  cudaError_t err;

  dim3 vgrid ((w + V_THREADS - 1) / V_THREADS, (h + seg - 1) / seg);
  box_v < T > <<<vgrid, V_THREADS, 0, stream >>> (src.data, src.pitch,
      src.step, w, h, ry, seg, sums, sums_pitch);

  if (shared > 48 * 1024) {
    err = cudaFuncSetAttribute (box_h < T >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared);
    if (err != cudaSuccess)
      return err;
  }
  box_h < T > <<<h, H_THREADS, shared, stream >>> (sums, sums_pitch,
      dst.data, dst.pitch, dst.step, w, rx, n, 1.0f / (float) n);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cfx_blur_box_launch (CfxChannel dst, CfxChannel src, int radius_x,
    int radius_y, void *scratch, cudaStream_t stream)
{
  if (src.width <= 0 || src.height <= 0)
    return cudaSuccess;
  if (255 * (2 * radius_y + 1) <= 65535)
    return launch < uint16_t > (dst, src, radius_x, radius_y,
        (uint16_t *) scratch, stream);
  return launch < uint32_t > (dst, src, radius_x, radius_y,
      (uint32_t *) scratch, stream);
}
