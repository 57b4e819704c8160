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
 * Access, unpack: two groups a thread; a warp reads 64 consecutive groups
 * of a row (1024 contiguous bytes, two 16-byte loads a thread) and writes
 * 32 x 24 contiguous luma bytes (three 8-byte stores a thread) and 32 x 12
 * bytes of each chroma plane (three 4-byte stores), all within one row; a
 * row's last pair, or planes not so aligned, store sample by sample. (One
 * group a thread with 2-byte chroma stores reached 66% of the copy
 * bandwidth at 4K on the H100.) Pack: one group a thread, the 16-byte
 * group written whole. */
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

/* Two groups (12 pixels) a thread */
__global__ void __launch_bounds__ (GROUP_THREADS)
v210_unpack (CfxPlane py, CfxPlane pu, CfxPlane pv, const uint8_t * src,
    int src_pitch, int width, int height)
{
  int t = blockIdx.x * GROUP_THREADS + threadIdx.x, row = blockIdx.y;
  int g = 2 * t, x = g * 6, cx = g * 3, cw = (width + 1) / 2;

  if (x >= width)
    return;
  const uint4 *s = (const uint4 *) (src + (size_t) row * src_pitch) + g;
  uint4 w0 = __ldg (s);
  /* a second group only where the row has one */
  uint4 w1 = x + 6 < width ? __ldg (s + 1) : make_uint4 (0, 0, 0, 0);
  unsigned Y[12] = { sample (w0.x, 1), sample (w0.y, 0), sample (w0.y, 2),
    sample (w0.z, 1), sample (w0.w, 0), sample (w0.w, 2),
    sample (w1.x, 1), sample (w1.y, 0), sample (w1.y, 2),
    sample (w1.z, 1), sample (w1.w, 0), sample (w1.w, 2)
  };
  unsigned U[6] = { sample (w0.x, 0), sample (w0.y, 1), sample (w0.z, 2),
    sample (w1.x, 0), sample (w1.y, 1), sample (w1.z, 2)
  };
  unsigned V[6] = { sample (w0.x, 2), sample (w0.z, 0), sample (w0.w, 1),
    sample (w1.x, 2), sample (w1.z, 0), sample (w1.w, 1)
  };
  uint16_t *y = row16 (py, row) + x, *u = row16 (pu, row) + cx,
      *v = row16 (pv, row) + cx;

  if (x + 12 <= width && ((uintptr_t) y & 7) == 0 && ((uintptr_t) u & 3) == 0
      && ((uintptr_t) v & 3) == 0) {
    /* two whole groups: luma as three 8-byte stores, each chroma as three
     * 4-byte stores */
    uint2 *y64 = (uint2 *) y;
    uint32_t *u32 = (uint32_t *) u, *v32 = (uint32_t *) v;
#pragma unroll
    for (int i = 0; i < 3; i++) {
      y64[i] = make_uint2 (Y[4 * i] | Y[4 * i + 1] << 16,
          Y[4 * i + 2] | Y[4 * i + 3] << 16);
      u32[i] = U[2 * i] | U[2 * i + 1] << 16;
      v32[i] = V[2 * i] | V[2 * i + 1] << 16;
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < 12; i++)
    if (x + i < width)
      y[i] = (uint16_t) Y[i];
#pragma unroll
  for (int i = 0; i < 6; i++) {
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
  int pairs = ((width + 5) / 6 + 1) / 2;
  return cfx_launch (v210_unpack, dim3 ((pairs + GROUP_THREADS - 1) /
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
