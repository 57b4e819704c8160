/* Helpers shared by the kernel files (.cu only; not part of the kernels'
 * API in cudafx-kernels.h). */
#ifndef __CFX_KERNEL_HELPERS_H__
#define __CFX_KERNEL_HELPERS_H__

#include <stdint.h>
#include <cuda_runtime.h>

/* Launches @kernel and returns this launch's own status. cudaGetLastError
 * after a <<<...>>> launch returns whatever error the thread holds, and
 * the runtime can post one there that no call of ours made: seen on the
 * H100 after another process gave back the device memory it held, where a
 * good launch was then reported out of memory. */
template < typename... Params, typename... Args > static inline cudaError_t
cfx_launch (void (*kernel) (Params...), dim3 grid, dim3 block,
    size_t shared, cudaStream_t stream, Args... args)
{
  cudaLaunchConfig_t config = { };

  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  return cudaLaunchKernelEx (&config, kernel, args...);
}

/* Unrolling in __host__ __device__ code: the host copies of the functions
 * (CPU emulation in tests/kernels) need none */
#ifdef __CUDA_ARCH__
#define UNROLL _Pragma ("unroll")
#define NO_UNROLL _Pragma ("unroll 1")
#define UNROLL_TWICE _Pragma ("unroll 2")
#else
#define UNROLL
#define NO_UNROLL
#define UNROLL_TWICE
#endif

/* Functions that the kernels call and that the CPU emulation
 * (tests/kernels) compiles for the host too: always inlined (CFX_HD),
 * inlined where the compiler sees fit (CFX_HD_INLINE), never inlined
 * (CFX_HD_RARE: rare paths as calls, so that their registers do not weigh
 * on the hot loops' allocation), constant expressions (CFX_HDC) */
#define CFX_HD __host__ __device__ __forceinline__
#define CFX_HD_INLINE __host__ __device__ inline
#define CFX_HD_RARE __host__ __device__ __noinline__
#define CFX_HDC __host__ __device__ constexpr

/* Devices whose answers cfx_wave_blocks keeps */
#define CFX_WAVE_MAX_DEVICES 64

/* Blocks of @kernel, @threads threads each, that the current device holds
 * at once (one wave: the runtime's occupancy times the SMs). @cache is the
 * caller's own CFX_WAVE_MAX_DEVICES slots for this kernel, 0 where not
 * asked yet: each device is asked once. */
template < typename... Params > static inline cudaError_t
cfx_wave_blocks (void (*kernel) (Params...), int threads, int *cache,
    long *wave)
{
  int device = -1, sms = 0, per_sm = 0, known;
  cudaError_t err = cudaGetDevice (&device);
  bool cached;

  if (err != cudaSuccess)
    return err;
  cached = device >= 0 && device < CFX_WAVE_MAX_DEVICES;
  if (cached) {
    known = __atomic_load_n (&cache[device], __ATOMIC_RELAXED);
    if (known > 0) {
      *wave = known;
      return cudaSuccess;
    }
  }
  err = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess)
    return err;
  err = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kernel,
      threads, 0);
  if (err != cudaSuccess)
    return err;
  *wave = (long) (sms > 1 ? sms : 1) * (per_sm > 1 ? per_sm : 1);
  if (cached)
    __atomic_store_n (&cache[device], (int) *wave, __ATOMIC_RELAXED);
  return cudaSuccess;
}

/* The threads a launch of @threads-thread blocks aims at and the blocks
 * it may take for @waves waves of @wave blocks: that many waves' threads
 * (at least one) in at most that many waves of blocks (at least one wave:
 * fewer threads than a wave means longer strips, not fewer blocks than
 * the strips need). False for nonsense (waves <= 0, NaN, past 1024). */
static inline bool
cfx_wave_shape (long wave, int threads, double waves, long *target,
    long *max_blocks)
{
  double all;

  if (!(waves > 0 && waves <= 1024) || wave < 1)
    return false;
  all = (double) wave * threads * waves;
  *target = all >= 1 ? (long) all : 1;
  *max_blocks = waves > 1 ? (long) ((double) wave * waves) : wave;
  return true;
}

/* Whether a channel is bytes (step 1) at @bytes-aligned data and pitch,
 * so that its rows can be read or written @bytes at a time */
static inline int
cfx_aligned (const void *data, int pitch, int step, int bytes)
{
  return step == 1 && (uintptr_t) data % bytes == 0 && pitch % bytes == 0;
}

/* Index i of a mirrored axis of n samples (reflect without repeating the
 * edge, any distance; tests/reference's cfx_ref_mirror) */
CFX_HD int
mirror (int i, int n)
{
  if ((unsigned) i < (unsigned) n)
    return i;
  if (n <= 1)
    return 0;
  int period = 2 * (n - 1);
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}

/* 16-byte global -> shared copy that does not wait; only the first
 * @bytes (1 .. 16) are read, the rest of the 16 shared bytes is zeroed */
__device__ __forceinline__ void
cp_async16 (void *smem, const void *gmem, int bytes)
{
#if __CUDA_ARCH__ >= 800
  const unsigned s = (unsigned) __cvta_generic_to_shared (smem);
  asm volatile ("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
      :: "r" (s), "l" (gmem), "r" (bytes) : "memory");
#else
  uint8_t *d = (uint8_t *) smem;
  for (int i = 0; i < 16; i++)
    d[i] = i < bytes ? ((const uint8_t *) gmem)[i] : 0;
#endif
}

__device__ __forceinline__ void
cp_async_commit (void)
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* wait until at most N groups of this thread are in flight */
template < int N >
__device__ __forceinline__ void
cp_async_wait (void)
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_group %0;\n" :: "n" (N) : "memory");
#endif
}

/* 4-byte global -> shared copy that does not wait (cp_async_wait waits) */
__device__ __forceinline__ void
cp_async4 (void *smem, const void *gmem)
{
#if __CUDA_ARCH__ >= 800
  const unsigned s = (unsigned) __cvta_generic_to_shared (smem);
  asm volatile ("cp.async.ca.shared.global [%0], [%1], 4;\n"
      :: "r" (s), "l" (gmem) : "memory");
#else
  *(uint32_t *) smem = *(const uint32_t *) gmem;
#endif
}

#endif
