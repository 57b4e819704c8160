/* Luma copy: one component of any format into a plane of its own
 * (cfx_luma_copy). A planar component is a copy of rows (copy_rows_vec,
 * below); the luma
 * of packed 4:2:2 (UYVY, YUY2 and their kin: step 2) takes the vector
 * kernel below; any other step a plain strided byte kernel. Samples of 9
 * to 16 bits become 16-bit samples (luma16_scaled_vec, below).
 *
 * Packed 4:2:2 floor: read 2 bytes and write 1 byte per pixel, once:
 * 3 * w * h bytes over the device's copy bandwidth (4K: 24.9 MB, 8.5 us
 * at 2.93 TB/s).
 *
 * Access pattern: the frame is a flat list of 8-pixel vectors (16 bytes of
 * UYVY in, 8 bytes of luma out). A block of 256 threads takes 4 x 256
 * consecutive vectors: each thread issues its 4 16-byte loads (vectors t,
 * t + 256, ...) before any store, so every load and store instruction of a
 * warp covers one contiguous span (512 bytes in, 256 out), fully
 * coalesced, with 4 loads in flight per thread. One flat grid has no idle
 * threads at row ends, and at 4K it is about one wave of the GPU.
 *
 * The device pitch (256-byte multiple) keeps every vector aligned, and a
 * row's padding absorbs the last vector of widths that are not a multiple
 * of 8 (of odd widths, the last pair's second Y lands in the padding).
 * Planes that do not meet the alignment take the byte-wise kernel
 * instead. */
#include "cudafx-kernels.h"
#include "kernel-helpers.h"

#define PIXELS_PER_VECTOR 8
#define THREADS 256
#define VECTORS_PER_THREAD 4

/* Picks the Y bytes of two 32-bit words (two pixel pairs) into one 16-bit
 * half of the result: bytes 1 and 3 for UYVY (luma offset 1), 0 and 2 for
 * YUY2 (offset 0, y_first). */
__device__ __forceinline__ uint32_t
pick_luma (uint32_t a, uint32_t b, int y_first)
{
  /* __byte_perm selector: nibble k says which of the 8 input bytes (a's
   * 0..3, b's 4..7) becomes output byte k */
  return __byte_perm (a, b, y_first ? 0x6420 : 0x7531);
}

__global__ void __launch_bounds__ (THREADS)
luma_from_packed422_vec (uint8_t * __restrict__ dst, int dst_pitch,
    const uint8_t * __restrict__ src, int src_pitch, unsigned vectors_per_row,
    unsigned vectors, int y_first)
{
  unsigned first = blockIdx.x * THREADS * VECTORS_PER_THREAD + threadIdx.x;
  uint4 in[VECTORS_PER_THREAD];
  int k;

#pragma unroll
  for (k = 0; k < VECTORS_PER_THREAD; k++) {
    unsigned v = first + k * THREADS;
    if (v < vectors) {
      unsigned row = v / vectors_per_row, col = v % vectors_per_row;
      in[k] = __ldg ((const uint4 *) (src + (size_t) row * src_pitch) + col);
    }
  }
#pragma unroll
  for (k = 0; k < VECTORS_PER_THREAD; k++) {
    unsigned v = first + k * THREADS;
    if (v < vectors) {
      unsigned row = v / vectors_per_row, col = v % vectors_per_row;
      uint2 out = make_uint2 (pick_luma (in[k].x, in[k].y, y_first),
          pick_luma (in[k].z, in[k].w, y_first));
      ((uint2 *) (dst + (size_t) row * dst_pitch))[col] = out;
    }
  }
}

/* dst sample x of row y = src sample x of row y, any steps (bytes) */
__global__ void
luma_strided (uint8_t * dst, int dst_pitch, int dst_step, const uint8_t * src,
    int src_pitch, int src_step, int width, int height)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;
  dst[(size_t) y * dst_pitch + (size_t) x * dst_step] =
      src[(size_t) y * src_pitch + (size_t) x * src_step];
}

/* 16-bit words in, 16-bit samples out: the @depth significant bits
 * (@shift up in their word; the other bits are ignored) scaled to 16 bits
 * by repeating their top bits below them, so that the largest value maps
 * to 65535 and 0 to 0 (10 bits: v << 6 | v >> 4).
 *
 * Floor: 2 bytes read, 2 written per pixel (4K: 33.2 MB, 11.3 us at 2.93
 * TB/s). Planar words (P010's luma, I420_10LE ...) take the vector kernel:
 * the flat list of 8-sample vectors of the packed 4:2:2 kernel above, one
 * vector a thread (16 bytes in, 16 out; a row's last vector is read whole,
 * into the padding, but stores its samples only), with streaming cache
 * hints (__ldcs, __stcs: each byte is touched once). On the H100 at 4K
 * this took 14.0 us (80% of the copy bandwidth) and at 8K 46.9 (96%),
 * as a cudaMemcpy of the same bytes (2026-11-28). Earlier, with the
 * output vector in local memory (below), without the hints, 1, 2, 4 (as
 * the 8-bit kernel) and 8 vectors a thread took 15.9, 15.8, 17.2 and
 * 17.7 us at 4K. On an H200 (2026-11-27) one wave of blocks walking the
 * list two vectors a thread a step took the same at 4K (13.4-13.5 us)
 * and 3-5% more at 8K (46.4, 47.3 against 44.8 us); in a standalone
 * copy of the kernel on the H100 (2026-11-28) 1024, 512 and 128 threads a
 * block, rows as a 2D grid and two vectors a thread were all within 1%
 * of one vector in blocks of 256 at 4K and 8K, and a one-wave grid-stride
 * loop with four vectors in flight took 13.2 against 13.9 us at 4K but
 * 50.8 against 47.2 at 8K, so it stays one vector in blocks of 256.
 * Other steps take luma16_scaled, one sample a thread (2-byte
 * accesses: on the H100 it reached 41% of the copy bandwidth at 4K). */
__device__ __forceinline__ unsigned
scale_to_16 (unsigned word, int depth, int shift)
{
  unsigned v = (word >> shift) & ((1u << depth) - 1);

  return depth >= 16 ? v : (v << (16 - depth)) | (v >> (2 * depth - 16));
}

/* The first @bytes (< 16) bytes of @v to @to: a row's last vector, whose
 * padding stays. Bytes picked by constant indices: indexing @v through a
 * pointer would put it in local memory for every thread (16 bytes of
 * stack; in luma16_scaled_vec 15.3 against 14.0 us at 4K and 51.9 against
 * 47.2 at 8K on the H100) */
__device__ __forceinline__ void
store_first_bytes (uint4 * to, uint4 v, int bytes)
{
  const unsigned word[4] = { v.x, v.y, v.z, v.w };

  UNROLL for (int i = 0; i < 16; i++)
    if (i < bytes)
      ((uint8_t *) to)[i] = (uint8_t) (word[i / 4] >> (8 * (i % 4)));
}

/* Two words of a 32-bit pair scaled */
__device__ __forceinline__ unsigned
scale_pair (unsigned pair, int depth, int shift)
{
  return scale_to_16 (pair & 0xffff, depth, shift) |
      (scale_to_16 (pair >> 16, depth, shift) << 16);
}

__global__ void __launch_bounds__ (THREADS)
luma16_scaled_vec (uint8_t * __restrict__ dst, int dst_pitch,
    const uint8_t * __restrict__ src, int src_pitch, unsigned vectors_per_row,
    unsigned vectors, int width, int depth, int shift)
{
  unsigned v = blockIdx.x * THREADS + threadIdx.x;

  if (v >= vectors)
    return;
  unsigned row = v / vectors_per_row, col = v % vectors_per_row;
  uint4 in = __ldcs ((const uint4 *) (src + (size_t) row * src_pitch) + col);
  uint4 out = make_uint4 (scale_pair (in.x, depth, shift),
      scale_pair (in.y, depth, shift), scale_pair (in.z, depth, shift),
      scale_pair (in.w, depth, shift));
  uint4 *to = (uint4 *) (dst + (size_t) row * dst_pitch) + col;
  int left = width - (int) col * PIXELS_PER_VECTOR;

  if (left >= PIXELS_PER_VECTOR)
    __stcs (to, out);
  else
    store_first_bytes (to, out, 2 * left);
}

__global__ void
luma16_scaled (uint8_t * dst, int dst_pitch, const uint8_t * src,
    int src_pitch, int src_step, int width, int height, int depth, int shift)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;
  unsigned word = *(const uint16_t *) (src + (size_t) y * src_pitch +
      (size_t) x * src_step);
  *(uint16_t *) (dst + (size_t) y * dst_pitch + (size_t) x * 2) =
      (uint16_t) scale_to_16 (word, depth, shift);
}

/* Planar components (I420's luma to GRAY8, GRAY16_LE's to GRAY16_LE) are
 * copies of @row_bytes a row. Floor: read and write each byte once (4K
 * 8-bit: 16.6 MB, 5.7 us at 2.93 TB/s). The flat list of 16-byte vectors
 * of luma16_scaled_vec, one a thread, streaming (a row's last vector is
 * read whole, into the padding, and stores its bytes only).
 * cudaMemcpy2DAsync, which these took before, ran device-to-device
 * copies of 16-bit planes at 49% (4K) and 54% (8K) of the copy bandwidth
 * in a standalone test on the H100 (2026-11-28); it stays for planes
 * that are not 16-byte aligned. */
__global__ void __launch_bounds__ (THREADS)
copy_rows_vec (uint8_t * __restrict__ dst, int dst_pitch,
    const uint8_t * __restrict__ src, int src_pitch, unsigned vectors_per_row,
    unsigned vectors, int row_bytes)
{
  unsigned v = blockIdx.x * THREADS + threadIdx.x;

  if (v >= vectors)
    return;
  unsigned row = v / vectors_per_row, col = v % vectors_per_row;
  uint4 in = __ldcs ((const uint4 *) (src + (size_t) row * src_pitch) + col);
  uint4 *to = (uint4 *) (dst + (size_t) row * dst_pitch) + col;
  int left = row_bytes - (int) col * 16;

  if (left >= 16)
    __stcs (to, in);
  else
    store_first_bytes (to, in, left);
}

static cudaError_t
copy_rows (const CfxPlane & dst, const CfxPlane & src, int row_bytes,
    int height, cudaStream_t stream)
{
  int per_row = (row_bytes + 15) / 16;

  if (cfx_aligned (dst.data, dst.pitch, 1, 16)
      && cfx_aligned (src.data, src.pitch, 1, 16)
      && src.pitch >= per_row * 16) {
    /* 32-bit indices: 2^32 vectors would be a 64 GB plane */
    unsigned vectors = (unsigned) per_row * height;

    return cfx_launch (copy_rows_vec, (vectors + THREADS - 1) / THREADS,
        THREADS, 0, stream, dst.data, dst.pitch, src.data, src.pitch,
        per_row, vectors, row_bytes);
  }
  return cudaMemcpy2DAsync (dst.data, dst.pitch, src.data, src.pitch,
      row_bytes, height, cudaMemcpyDeviceToDevice, stream);
}

static cudaError_t
luma_copy16 (const CfxPlane & dst, const CfxPlane & src, cudaStream_t stream)
{
  int width = dst.width, height = dst.height;
  int per_row = (width + PIXELS_PER_VECTOR - 1) / PIXELS_PER_VECTOR;

  /* a 16-bit plane out (GRAY16_LE); 9 to 16 significant bits in */
  if (dst.bytes != 2 || dst.step != 2 || dst.depth != 16 || dst.shift != 0
      || src.step < 2 || src.step % 2 || src.depth < 9 || src.depth > 16 || src.shift < 0
      || src.depth + src.shift > 16 || (uintptr_t) src.data % 2
      || src.pitch % 2 || (uintptr_t) dst.data % 2 || dst.pitch % 2)
    return cudaErrorInvalidValue;
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  if (src.step == 2 && src.depth == 16)
    return copy_rows (dst, src, width * 2, height, stream);
  /* the vector path reads whole vectors past the last sample */
  if (src.step == 2 && cfx_aligned (dst.data, dst.pitch, 1, 16)
      && cfx_aligned (src.data, src.pitch, 1, 16)
      && dst.pitch >= per_row * 16 && src.pitch >= per_row * 16) {
    unsigned vectors = (unsigned) per_row * height;

    return cfx_launch (luma16_scaled_vec, (vectors + THREADS - 1) / THREADS,
        THREADS, 0, stream, dst.data, dst.pitch, src.data, src.pitch,
        per_row, vectors, width, src.depth, src.shift);
  }
  return cfx_launch (luma16_scaled, dim3 ((width + 127) / 128,
          (height + 1) / 2), dim3 (128, 2), 0, stream, dst.data, dst.pitch,
      src.data, src.pitch, src.step, width, height, src.depth, src.shift);
}

extern "C" cudaError_t
cfx_luma_copy (CfxPlane dst, CfxPlane src, cudaStream_t stream)
{
  int width = dst.width, height = dst.height;
  int per_row = (width + PIXELS_PER_VECTOR - 1) / PIXELS_PER_VECTOR;
  /* the vector kernel reads whole rows of pairs, from the row's start */
  const uint8_t *row0 = src.data - src.offset;

  if (src.bytes == 2 && src.width == width && src.height == height)
    return luma_copy16 (dst, src, stream);
  if (dst.bytes != 1 || src.bytes != 1 || dst.step < 1 || src.step < 1
      || src.width != width || src.height != height)
    return cudaErrorInvalidValue;
  if (width <= 0 || height <= 0)
    return cudaSuccess;

  if (src.step == 1 && dst.step == 1)
    return copy_rows (dst, src, width, height, stream);

  /* the vector path reads and writes whole vectors past the last pixel */
  if (src.step == 2 && dst.step == 1 && (src.offset == 0 || src.offset == 1)
      && cfx_aligned (dst.data, dst.pitch, 1, 16)
      && cfx_aligned (row0, src.pitch, 1, 16)
      && dst.pitch >= per_row * PIXELS_PER_VECTOR
      && src.pitch >= per_row * PIXELS_PER_VECTOR * 2) {
    /* 32-bit indices: 2^32 vectors would be a 34-gigapixel frame */
    unsigned vectors = (unsigned) per_row * height;
    unsigned per_block = THREADS * VECTORS_PER_THREAD;
    unsigned blocks = (vectors + per_block - 1) / per_block;

    return cfx_launch (luma_from_packed422_vec, blocks, THREADS, 0, stream,
        dst.data, dst.pitch, row0, src.pitch, per_row, vectors,
        src.offset == 0);
  }
  return cfx_launch (luma_strided, dim3 ((width + 127) / 128,
          (height + 1) / 2), dim3 (128, 2), 0, stream, dst.data, dst.pitch,
      dst.step, src.data, src.pitch, src.step, width, height);
}
