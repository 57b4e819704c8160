/* Luma of packed 4:2:2 (UYVY, YUY2).
 *
 * Floor: read 2 bytes and write 1 byte per pixel, once: 3 * w * h bytes over
 * the device's copy bandwidth (4K: 24.9 MB, 8.8 us at 2.82 TB/s).
 *
 * Access pattern: each thread owns 16 consecutive pixels of one row: two
 * 16-byte loads (32 bytes of UYVY, both issued before use), one 16-byte
 * store; a warp covers 1 KB of input contiguously, fully coalesced. The
 * device pitch (256-byte multiple) keeps every vector aligned, and a row's
 * padding absorbs the last vector of widths that are not a multiple of 16
 * (of odd widths, the last pair's second Y lands in the padding). Planes
 * that do not meet the alignment take a byte-wise kernel instead. */
#include "cudafx-kernels.h"

#define PIXELS_PER_THREAD 16
#define BLOCK_X 64
#define BLOCK_Y 4

/* Picks the Y bytes of four 32-bit words (two pixel pairs each) into one
 * 32-bit word: byte 1 and 3 of each word for UYVY, 0 and 2 for YUY2. */
__device__ __forceinline__ uint32_t
pick_luma (uint32_t a, uint32_t b, int y_first)
{
  /* __byte_perm selector: nibble k says which of the 8 input bytes (a's
   * 0..3, b's 4..7) becomes output byte k */
  return __byte_perm (a, b, y_first ? 0x6420 : 0x7531);
}

__global__ void
luma_from_packed422_vec (uint8_t * __restrict__ dst, int dst_pitch,
    const uint8_t * __restrict__ src, int src_pitch, int width, int height,
    int y_first)
{
  int x = (blockIdx.x * BLOCK_X + threadIdx.x) * PIXELS_PER_THREAD;
  int y = blockIdx.y * BLOCK_Y + threadIdx.y;

  if (x >= width || y >= height)
    return;

  const uint4 *in = (const uint4 *) (src + (size_t) y * src_pitch + 2 * x);
  uint4 lo = __ldg (in);
  uint4 hi = __ldg (in + 1);
  uint4 out;

  out.x = pick_luma (lo.x, lo.y, y_first);
  out.y = pick_luma (lo.z, lo.w, y_first);
  out.z = pick_luma (hi.x, hi.y, y_first);
  out.w = pick_luma (hi.z, hi.w, y_first);
  *(uint4 *) (dst + (size_t) y * dst_pitch + x) = out;
}

__global__ void
luma_from_packed422_bytes (uint8_t * dst, int dst_pitch, const uint8_t * src,
    int src_pitch, int width, int height, int y_first)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;
  dst[(size_t) y * dst_pitch + x] =
      src[(size_t) y * src_pitch + 2 * x + (y_first ? 0 : 1)];
}

static int
aligned16 (const void *p, int pitch)
{
  return ((uintptr_t) p % 16) == 0 && pitch % 16 == 0;
}

extern "C" cudaError_t
cfx_luma_from_packed422 (CfxPlane dst, CfxPlane src, int y_first,
    cudaStream_t stream)
{
  int width = dst.width, height = dst.height;
  int vectors = (width + PIXELS_PER_THREAD - 1) / PIXELS_PER_THREAD;

  if (width <= 0 || height <= 0)
    return cudaSuccess;

  /* the vector path reads and writes whole vectors past the last pixel */
  if (aligned16 (dst.data, dst.pitch) && aligned16 (src.data, src.pitch)
      && dst.pitch >= vectors * PIXELS_PER_THREAD
      && src.pitch >= vectors * PIXELS_PER_THREAD * 2) {
    dim3 block (BLOCK_X, BLOCK_Y);
    dim3 grid ((vectors + BLOCK_X - 1) / BLOCK_X,
        (height + BLOCK_Y - 1) / BLOCK_Y);
    luma_from_packed422_vec <<< grid, block, 0, stream >>> (dst.data,
        dst.pitch, src.data, src.pitch, width, height, y_first);
  } else {
    dim3 block (128, 2);
    dim3 grid ((width + 127) / 128, (height + 1) / 2);
    luma_from_packed422_bytes <<< grid, block, 0, stream >>> (dst.data,
        dst.pitch, src.data, src.pitch, width, height, y_first);
  }
  return cudaGetLastError ();
}
