/* v210 (10-bit 4:2:2 of broadcast capture cards) to and from three 16-bit
 * planes of 10 significant bits in the low bits (I422_10LE).
 *
 * v210: a row is groups of 6 pixels in 16 bytes, four little-endian 32-bit
 * words of three 10-bit samples each (bits 0-9, 10-19, 20-29; bits 30-31
 * unused):
 *     word 0: Cb0 Y0  Cr0      word 2: Cr1 Y3  Cb2
 *     word 1: Y1  Cb1 Y2       word 3: Y4  Cr2 Y5
 * Rows are padded to 128 bytes (48 pixels). A last group of a width that
 * is not a multiple of 6 is whole in memory, its slots past the width
 * unused.
 *
 * Unpack reads the used slots only (bits 30-31, unused slots and row
 * padding are ignored) and writes width luma and (width + 1) / 2 chroma
 * samples a row, nothing else. Pack writes the whole row up to the v210
 * pitch: every unused bit, slot and padding byte 0, each sample masked to
 * its low 10 bits.
 *
 * Floor: unpack reads 16 bytes and writes 24 per 6 pixels, pack the
 * reverse: 6.67 bytes a pixel (4K: 55.3 MB, 18.9 us at 2.93 TB/s).
 * Access: one thread per group; a warp reads 32 consecutive groups of a row
 * (512 contiguous bytes, one 16-byte load a thread). Unpack stages a
 * block's 128 groups in shared memory and then writes its span of each
 * plane's row (1536 luma bytes, 768 of each chroma) as consecutive 16-byte
 * vectors, one a thread, where the span is 16-byte aligned (device rows
 * are; 2-byte samples otherwise). Each thread storing its own 12 luma and
 * 6 + 6 chroma bytes straight from registers (4- and 2-byte stores at a
 * 12- and 6-byte stride) reached 66% of the copy bandwidth at 4K on the
 * H100; staged, 85% (22.1 against 28.5 us). Its loads and stores are
 * marked streaming (evict first: each byte is touched once), which took
 * it to 86-87%, as fast as a cudaMemcpy of the same bytes (21.6-21.8
 * against 22.2-22.4 us in the same calls, H100, 2026-11-28; the streaming
 * stores alone gave nothing, and neither did a block taking 2 or 4 rows).
 * Pack reads its samples with 2-byte loads (gathered by L1) and writes
 * one 16-byte vector a thread: 85-86% as it is (a streaming store gave
 * nothing). */
#include "cudafx-kernels.h"
#include "kernel-helpers.h"

#define GROUP_THREADS 128

__device__ __forceinline__ unsigned
sample (unsigned word, int slot)
{
  return (word >> (10 * slot)) & 0x3ff;
}

__device__ __forceinline__ unsigned
word3 (unsigned a, unsigned b, unsigned c)
{
  return (a & 0x3ff) | (b & 0x3ff) << 10 | (c & 0x3ff) << 20;
}

__device__ __forceinline__ uint16_t *
row16 (const CfxPlane & p, int y)
{
  return (uint16_t *) (p.data + (size_t) y * p.pitch);
}

/* @n samples of @s to @dst by the whole block: 16-byte vectors while
 * @dst is aligned, then (or else) one sample a thread */
__device__ __forceinline__ void
store_span (uint16_t * dst, const uint16_t * s, int n)
{
  int done = 0;

  if (((uintptr_t) dst & 15) == 0) {
    const int vecs = n / 8;

    for (int i = threadIdx.x; i < vecs; i += blockDim.x)
      __stcs ((uint4 *) dst + i, ((const uint4 *) s)[i]);
    done = vecs * 8;
  }
  for (int i = done + threadIdx.x; i < n; i += blockDim.x)
    dst[i] = s[i];
}

/* A block unpacks GROUP_THREADS groups of a row into shared memory, then
 * writes its span of each plane's row */
__global__ void __launch_bounds__ (GROUP_THREADS)
v210_unpack (CfxPlane py, CfxPlane pu, CfxPlane pv,
    const uint8_t * src, int src_pitch, int width, int height)
{
  __shared__ __align__ (16) uint16_t s_y[GROUP_THREADS * 6];
  __shared__ __align__ (16) uint16_t s_u[GROUP_THREADS * 3];
  __shared__ __align__ (16) uint16_t s_v[GROUP_THREADS * 3];
  const int row = blockIdx.y, t = threadIdx.x;
  const int g = blockIdx.x * GROUP_THREADS + t;
  const int x0 = blockIdx.x * GROUP_THREADS * 6, cx0 = x0 / 2;
  const int cw = (width + 1) / 2;
  const int n_y = min (GROUP_THREADS * 6, width - x0);
  const int n_c = min (GROUP_THREADS * 3, cw - cx0);

  if (g * 6 < width) {
    const uint4 w = __ldcs ((const uint4 *) (src + (size_t) row *
            src_pitch) + g);
    const unsigned word[4] = { w.x, w.y, w.z, w.w };
    /* word and slot of Y0..Y5 and of Cb0..Cb2, Cr0..Cr2 (the table
     * above) */
    const int y_word[6] = { 0, 1, 1, 2, 3, 3 }, y_slot[6] = { 1, 0, 2, 1, 0,
      2
    };
    const int u_word[3] = { 0, 1, 2 }, u_slot[3] = { 0, 1, 2 };
    const int v_word[3] = { 0, 2, 3 }, v_slot[3] = { 2, 0, 1 };

#pragma unroll
    for (int i = 0; i < 6; i++)
      s_y[6 * t + i] = sample (word[y_word[i]], y_slot[i]);
#pragma unroll
    for (int i = 0; i < 3; i++) {
      s_u[3 * t + i] = sample (word[u_word[i]], u_slot[i]);
      s_v[3 * t + i] = sample (word[v_word[i]], v_slot[i]);
    }
  }
  __syncthreads ();
  store_span (row16 (py, row) + x0, s_y, n_y);
  store_span (row16 (pu, row) + cx0, s_u, n_c);
  store_span (row16 (pv, row) + cx0, s_v, n_c);
}

/* one thread per 16 bytes of the v210 row, padding groups included (they
 * write zeros) */
__global__ void __launch_bounds__ (GROUP_THREADS)
v210_pack (uint8_t * dst, int dst_pitch, CfxPlane py, CfxPlane pu,
    CfxPlane pv, int width, int height)
{
  int g = blockIdx.x * GROUP_THREADS + threadIdx.x, row = blockIdx.y;
  int x = g * 6, cx = g * 3, cw = (width + 1) / 2;
  unsigned Y[6] = { 0, 0, 0, 0, 0, 0 }, U[3] = { 0, 0, 0 }, V[3] = { 0, 0, 0 };

  if (g >= dst_pitch / 16)
    return;
  if (x < width) {
    const uint16_t *y = row16 (py, row) + x, *u = row16 (pu, row) + cx,
        *v = row16 (pv, row) + cx;
#pragma unroll
    for (int i = 0; i < 6; i++)
      if (x + i < width)
        Y[i] = __ldg (y + i);
#pragma unroll
    for (int i = 0; i < 3; i++) {
      if (cx + i < cw) {
        U[i] = __ldg (u + i);
        V[i] = __ldg (v + i);
      }
    }
  }
  ((uint4 *) (dst + (size_t) row * dst_pitch))[g] =
      make_uint4 (word3 (U[0], Y[0], V[0]), word3 (Y[1], U[1], Y[2]),
      word3 (V[1], Y[3], U[2]), word3 (Y[4], V[2], Y[5]));
}

extern "C" int
cfx_v210_pitch (int width)
{
  return width > 0 ? ((width + 47) / 48) * 128 : 0;
}

/* The planar side: 16-bit samples of 10 bits in the low bits, luma width
 * samples a row and chroma (width + 1) / 2, height rows each */
static bool
planes_fit (const CfxPlane & y, const CfxPlane & u, const CfxPlane & v,
    int width, int height)
{
  const CfxPlane *p[3] = { &y, &u, &v };

  for (int i = 0; i < 3; i++) {
    if (p[i]->bytes != 2 || p[i]->step != 2 || p[i]->depth != 10
        || p[i]->shift != 0 || p[i]->height != height
        || p[i]->width != (i == 0 ? width : (width + 1) / 2)
        || (uintptr_t) p[i]->data % 2 || p[i]->pitch % 2)
      return false;
  }
  return true;
}

extern "C" cudaError_t
cfx_v210_unpack (CfxPlane y, CfxPlane u, CfxPlane v, const uint8_t * src,
    int src_pitch, int width, int height, cudaStream_t stream)
{
  if (width < 0 || height < 0 || height > 65535
      || !planes_fit (y, u, v, width, height) || (uintptr_t) src % 16
      || src_pitch % 16 || src_pitch < (width + 5) / 6 * 16)
    return cudaErrorInvalidValue;
  if (width == 0 || height == 0)
    return cudaSuccess;
  int groups = (width + 5) / 6;
  return cfx_launch (v210_unpack, dim3 ((groups + GROUP_THREADS - 1) /
          GROUP_THREADS, height), GROUP_THREADS, 0, stream, y, u, v, src,
      src_pitch, width, height);
}

extern "C" cudaError_t
cfx_v210_pack (uint8_t * dst, int dst_pitch, CfxPlane y, CfxPlane u,
    CfxPlane v, int width, int height, cudaStream_t stream)
{
  if (width < 0 || height < 0 || height > 65535
      || !planes_fit (y, u, v, width, height) || (uintptr_t) dst % 16
      || dst_pitch % 16 || dst_pitch < (width + 5) / 6 * 16)
    return cudaErrorInvalidValue;
  if (width == 0 || height == 0)
    return cudaSuccess;
  int groups = dst_pitch / 16;
  return cfx_launch (v210_pack, dim3 ((groups + GROUP_THREADS - 1) /
          GROUP_THREADS, height), GROUP_THREADS, 0, stream, dst, dst_pitch, y,
      u, v, width, height);
}
