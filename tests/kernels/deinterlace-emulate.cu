/* The deinterlace kernels' per-thread code compiled for the host, and the
 * 8-bit entry points of deinterlace-emulate.h that run it: see
 * test-deinterlace-emulated.c */
#include <limits.h>

#include "../../kernels/deinterlace.cu"
#include "deinterlace-emulate.h"

/* Every thread of every block of the launch, in turn, on the CPU */
static void
emulate_launch (const LaunchArgs & L, int blocks, const CfxDeintField * field)
{
  for (int b = 0; b < blocks; b++)
    for (int ty = 0; ty < BLOCK_Y; ty++)
      for (int tx = 0; tx < BLOCK_X; tx++) {
        int plane, word, strip;

        if (!block_work (L, b, tx, ty, &plane, &word, &strip))
          continue;
        switch (field->method) {
          case CFX_DEINT_BWDIF:
            if (field->intra_only)
              deint_thread < M_BWDIF_INTRA > (L, plane, word, strip);
            else
              deint_thread < M_BWDIF > (L, plane, word, strip);
            break;
          case CFX_DEINT_YADIF:
            deint_thread < M_YADIF > (L, plane, word, strip);
            break;
          case CFX_DEINT_ELA:
            deint_thread < M_ELA > (L, plane, word, strip);
            break;
          default:
            deint_thread < M_LINEAR > (L, plane, word, strip);
            break;
        }
      }
}

/* The kernel's per-thread work run on the CPU, thread by thread (host
 * pointers): what tests/kernels/test-deinterlace-emulated.c checks on
 * hosts without a GPU. target_threads sets the strip length as the GPU's
 * size does (with no limit on the blocks). */
extern "C" int
cfx_deinterlace_frame_emulate (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field, int target_threads)
{
  LaunchArgs L;
  int blocks = setup_launch (&L, comps, n_comps, field, target_threads,
      LONG_MAX);

  if (blocks < 0)
    return -1;
  emulate_launch (L, blocks, field);
  return 0;
}

/* The launch for @waves waves on a GPU whose wave would be @wave blocks,
 * the GPU's launch math throughout (cfx_deinterlace_frame_spread ()).
 * Returns the blocks run, or -1 where the GPU's call would refuse
 * (cudaErrorInvalidValue). */
extern "C" long
cfx_deinterlace_frame_emulate_waves (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, long wave, double waves)
{
  LaunchArgs L;
  long target, max_blocks;
  int blocks;

  if (!field || kernel_of (field) < 0
      || !cfx_wave_shape (wave, THREADS, waves, &target, &max_blocks))
    return -1;
  blocks = setup_launch (&L, comps, n_comps, field, target, max_blocks);
  if (blocks < 0)
    return -1;
  emulate_launch (L, blocks, field);
  return blocks;
}
