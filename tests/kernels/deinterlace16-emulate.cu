/* The 16-bit deinterlace kernels' per-thread code compiled for the host,
 * and the 16-bit entry points of deinterlace-emulate.h that run it: see
 * test-deinterlace16-emulated.c */
#include <limits.h>

#include "../../kernels/deinterlace16.cu"
#include "deinterlace-emulate.h"

/* Every thread of every block of the launch of @variant (0: the
 * elements', 1: one column a thread, 2: windowless, 3: two columns a
 * thread, yadif too) for @target_threads threads in at most @max_blocks
 * blocks, in turn, on the CPU. Returns the blocks run, or -1 where the
 * GPU's call would refuse the components (cudaErrorInvalidValue). */
static long
emulate_launch (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int variant, long target_threads,
    long max_blocks)
{
  Launch16 L;
  int window;
  bool pairs;
  long blocks;

  if (variant < DEINT16_PAIRED || variant > DEINT16_TWO_COLUMNS
      || !variant_kernel (comps, n_comps, field, variant, &window,
          &pairs))
    return -1;
  blocks = setup_launch (&L, comps, n_comps, field, pairs, target_threads,
      max_blocks);
  if (blocks < 0)
    return -1;
  for (long b = 0; b < blocks; b++)
    for (int ty = 0; ty < BLOCK_Y; ty++)
      for (int tx = 0; tx < BLOCK_X; tx++) {
        if (window == CFX_DEINT_YADIF && pairs)
          thread_strip < CFX_DEINT_YADIF, true > (L, (int) b, tx, ty);
        else if (window == CFX_DEINT_YADIF)
          thread_strip < CFX_DEINT_YADIF, false > (L, (int) b, tx, ty);
        else if (window == CFX_DEINT_BWDIF && pairs)
          thread_strip < CFX_DEINT_BWDIF, true > (L, (int) b, tx, ty);
        else if (window == CFX_DEINT_BWDIF)
          thread_strip < CFX_DEINT_BWDIF, false > (L, (int) b, tx, ty);
        else
          thread_strip < -1, false > (L, (int) b, tx, ty);
      }
  return blocks;
}

/* With strips for @target_threads threads as the GPU's size sets them (no
 * limit on the blocks): 1, or 0 where cfx_deinterlace_frame () would
 * refuse the components. */
extern "C" int
cfx_deinterlace16_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant,
    int target_threads)
{
  return emulate_launch (comps, n_comps, field, variant, target_threads,
      LONG_MAX) >= 0;
}

/* For @waves waves on a GPU whose wave would be @wave blocks, the GPU's
 * launch math throughout: the blocks run, 0 where the GPU's call would
 * refuse (cudaErrorInvalidValue). */
extern "C" long
cfx_deinterlace16_frame_emulate_waves (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant, long wave,
    double waves)
{
  long target, max_blocks, blocks;

  if (!cfx_wave_shape (wave, THREADS, waves, &target, &max_blocks))
    return 0;
  blocks = emulate_launch (comps, n_comps, field, variant, target,
      max_blocks);
  return blocks < 0 ? 0 : blocks;
}
