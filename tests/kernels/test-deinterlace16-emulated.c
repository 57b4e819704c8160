/* CPU test of the 16-bit deinterlace kernel's logic (no GPU needed): every
 * thread's work (cfx_deinterlace16_frame_emulate, the same __host__
 * __device__ code the GPU runs, block by block and thread by thread, with
 * strips of the whole height, of a few rows and of two rows, so that the
 * sliding windows start, run and stop everywhere) against the reference's
 * 16-bit path
 * (tests/reference/deinterlace.c, itself bit-exact with FFmpeg's two-byte
 * yadif and bwdif): every method, parity and field order, spatial check on
 * and off, bwdif's intra fields; 10 bits low (I420_10LE) and high (P010),
 * 12 and 16 bits; a planar plane and two components sharing a plane (P010's
 * UV, step 4); minimum, odd and even sizes; random, extreme (0 and the
 * largest value in stripes) and smooth content. Input words carry random
 * unused bits; output words must have them 0, and nothing outside the
 * samples may be written.
 *
 * Exit status: 0 pass, 1 fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cfx-reference.h"
#include "ref-test.h"

int cfx_deinterlace16_frame_emulate (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int target_threads);

#define POISON 0xa5

static uint32_t rng_state = 2463534242u;

static uint32_t
rng (void)
{
  return cfx_ref_xorshift32 (&rng_state);
}

static long failures, checked;

enum
{ CONTENT_RANDOM, CONTENT_EXTREME, CONTENT_SMOOTH };

/* the significant value of sample x, y of input frame f, component k */
static int
content (int kind, int f, int k, int x, int y, int max)
{
  switch (kind) {
    case CONTENT_EXTREME:
      return ((x / 3 + y + f + k) & 1) ? max : 0;
    case CONTENT_SMOOTH:
      return (int) (((long) (x * 37 + y * 11 + f * 5 + k * 101) * max / 997)
          % (max + 1));
    default:
      return (int) (rng () % (max + 1));
  }
}

/* One case: @n_comps components (1: planar, step 2; 2: interleaved, step
 * 4, at byte offsets 0 and 2) of @w x @h samples */
static void
run_case (int w, int h, int depth, int shift, int n_comps, int kind,
    const CfxDeintField * field, int target_threads)
{
  int step = 2 * n_comps, pitch = w * step + 6;
  size_t bytes = (size_t) pitch * h;
  uint8_t *frames[3], *dst = malloc (bytes);
  uint16_t *ref_in[3][2], *ref_out[2];
  int max = (1 << depth) - 1, f, k, x, y;
  CfxDeintComponent comps[2];
  CfxRefPlane16 rp[3], rd;
  static const CfxRefDeintMethod methods[] = {
    [CFX_DEINT_BWDIF] = CFX_REF_DEINT_BWDIF,
    [CFX_DEINT_YADIF] = CFX_REF_DEINT_YADIF,
    [CFX_DEINT_ELA] = CFX_REF_DEINT_ELA,
    [CFX_DEINT_LINEAR] = CFX_REF_DEINT_LINEAR,
  };

  for (f = 0; f < 3; f++) {
    frames[f] = malloc (bytes);
    for (size_t i = 0; i < bytes; i++)
      frames[f][i] = (uint8_t) rng ();
    for (k = 0; k < n_comps; k++) {
      ref_in[f][k] = malloc (sizeof (uint16_t) * w * h);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          int v = content (kind, f, k, x, y, max);
          /* the unused bits of the word random */
          unsigned junk = rng () & ~((unsigned) max << shift) & 0xffff;
          unsigned word = (unsigned) v << shift | junk;
          uint8_t *p = frames[f] + (size_t) y * pitch + x * step + 2 * k;

          p[0] = (uint8_t) word;
          p[1] = (uint8_t) (word >> 8);
          ref_in[f][k][y * w + x] = (uint16_t) v;
        }
    }
  }
  memset (dst, POISON, bytes);
  for (k = 0; k < n_comps; k++) {
    CfxPlane pl = { NULL, pitch, w, h, 2, depth, shift, step, 2 * k };

    comps[k].prev = pl;
    comps[k].cur = pl;
    comps[k].next = pl;
    comps[k].dst = pl;
    comps[k].prev.data = frames[0] + 2 * k;
    comps[k].cur.data = frames[1] + 2 * k;
    comps[k].next.data = frames[2] + 2 * k;
    comps[k].dst.data = dst + 2 * k;
  }
  if (!cfx_deinterlace16_frame_emulate (comps, n_comps, field,
          target_threads)) {
    printf ("FAIL %dx%d depth %d shift %d comps %d: refused\n", w, h, depth,
        shift, n_comps);
    failures++;
    goto out;
  }

  for (k = 0; k < n_comps; k++) {
    ref_out[k] = malloc (sizeof (uint16_t) * w * h);
    for (f = 0; f < 3; f++) {
      CfxRefPlane16 one = { ref_in[f][k], w, w, h };
      rp[f] = one;
    }
    rd.data = ref_out[k];
    rd.stride = w;
    rd.width = w;
    rd.height = h;
    cfx_ref_deinterlace_plane16 (&rd, &rp[0], &rp[1], &rp[2], depth,
        field->parity, field->tff, methods[field->method],
        field->spatial_check, field->intra_only);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        const uint8_t *p = dst + (size_t) y * pitch + x * step + 2 * k;
        unsigned word = p[0] | p[1] << 8;
        unsigned want = (unsigned) ref_out[k][y * w + x] << shift;

        checked++;
        if (word != want) {
          if (failures++ < 20)
            printf ("FAIL %dx%d depth %d shift %d comps %d content %d "
                "method %d parity %d tff %d sc %d intra %d threads %d: comp "
                "%d (%d,%d) 0x%04x want 0x%04x\n", w, h, depth, shift,
                n_comps, kind, field->method, field->parity, field->tff,
                field->spatial_check, field->intra_only, target_threads, k,
                x, y, word, want);
          x = w;
          y = h;
        }
      }
    free (ref_out[k]);
  }
  /* the 6 bytes after each row's samples: untouched */
  for (y = 0; y < h; y++)
    for (x = w * step; x < pitch; x++)
      if (dst[(size_t) y * pitch + x] != POISON) {
        if (failures++ < 20)
          printf ("FAIL %dx%d: row %d byte %d written\n", w, h, y, x);
        y = h;
        break;
      }
out:
  for (f = 0; f < 3; f++) {
    for (k = 0; k < n_comps; k++)
      free (ref_in[f][k]);
    free (frames[f]);
  }
  free (dst);
}

int
main (void)
{
  static const int sizes[][2] = { {3, 4}, {4, 4}, {7, 5}, {8, 9}, {16, 10},
  {33, 17}, {64, 36}
  };
  /* threads the launch aims at: one strip a column (the whole height),
   * strips of a few rows, strips of two rows */
  static const int targets[] = { 1, 100, 1 << 20 };
  static const int depths[][2] = { {10, 0}, {10, 6}, {12, 0}, {12, 4},
  {16, 0}
  };
  /* method, spatial check, intra only */
  static const int methods[][3] = {
    {CFX_DEINT_YADIF, 1, 0}, {CFX_DEINT_YADIF, 0, 0},
    {CFX_DEINT_BWDIF, 0, 0}, {CFX_DEINT_BWDIF, 0, 1},
    {CFX_DEINT_ELA, 0, 0}, {CFX_DEINT_LINEAR, 0, 0},
  };
  long cases = 0;

  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (unsigned d = 0; d < sizeof depths / sizeof depths[0]; d++)
      for (unsigned m = 0; m < sizeof methods / sizeof methods[0]; m++)
        for (int parity = 0; parity < 2; parity++)
          for (int tff = 0; tff < 2; tff++)
            for (int n = 1; n <= 2; n++)
              for (int kind = 0; kind < 3; kind++)
                for (unsigned t = 0; t < 3; t++) {
                  CfxDeintField field = { (CfxDeintMethod) methods[m][0],
                    parity, tff, methods[m][1], methods[m][2]
                  };
                  int min_w, min_h;

                  cfx_deinterlace16_min_size (field.method, &min_w, &min_h);
                  if (sizes[s][0] < min_w || sizes[s][1] < min_h)
                    continue;
                  run_case (sizes[s][0], sizes[s][1], depths[d][0],
                      depths[d][1], n, kind, &field, targets[t]);
                  cases++;
                }
  printf ("%ld cases, %ld samples checked, %ld failures\n", cases, checked,
      failures);
  return failures ? 1 : 0;
}
