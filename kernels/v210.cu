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
 * (512 contiguous bytes, one 16-byte load a thread) and writes 32 x 12
 * contiguous luma bytes (three 4-byte stores a thread) and 32 x 6 bytes of
 * each chroma plane (2-byte stores, merged in L2), all within one row.
 * (Two groups a thread, with 8-byte luma and 4-byte chroma stores, was
 * slower on the H100: unpack 37.2 us at 4K against 28.3.) */
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

__global__ void __launch_bounds__ (GROUP_THREADS)
v210_unpack (CfxPlane py, CfxPlane pu, CfxPlane pv, const uint8_t * src,
    int src_pitch, int width, int height)
{
  int g = blockIdx.x * GROUP_THREADS + threadIdx.x, row = blockIdx.y;
  int x = g * 6, cx = g * 3, cw = (width + 1) / 2;

  if (x >= width)
    return;
  uint4 w = __ldg ((const uint4 *) (src + (size_t) row * src_pitch) + g);
  unsigned Y[6] = { sample (w.x, 1), sample (w.y, 0), sample (w.y, 2),
    sample (w.z, 1), sample (w.w, 0), sample (w.w, 2)
  };
  unsigned U[3] = { sample (w.x, 0), sample (w.y, 1), sample (w.z, 2) };
  unsigned V[3] = { sample (w.x, 2), sample (w.z, 0), sample (w.w, 1) };
  uint16_t *y = row16 (py, row) + x, *u = row16 (pu, row) + cx,
      *v = row16 (pv, row) + cx;

  if (x + 6 <= width && ((uintptr_t) y & 3) == 0) {
    /* a whole group: luma as three 32-bit stores */
    uint32_t *y32 = (uint32_t *) y;
    y32[0] = Y[0] | Y[1] << 16;
    y32[1] = Y[2] | Y[3] << 16;
    y32[2] = Y[4] | Y[5] << 16;
  } else {
#pragma unroll
    for (int i = 0; i < 6; i++)
      if (x + i < width)
        y[i] = (uint16_t) Y[i];
  }
#pragma unroll
  for (int i = 0; i < 3; i++) {
    if (cx + i < cw) {
      u[i] = (uint16_t) U[i];
      v[i] = (uint16_t) V[i];
    }
  }
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
