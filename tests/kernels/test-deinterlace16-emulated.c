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
 * UV, step 4); minimum, odd and even sizes, every width from 1 to 40 at
 * heights from each method's minimum; planes and pitches 4-byte aligned
 * (two columns a thread), with one frame's pitch unlike the others', and
 * only 2-byte aligned (one column a thread);
 * random, extreme (0 and the largest value in stripes) and smooth
 * content. Input words carry random unused bits; output words must have
 * them 0, and nothing outside the samples may be written. Then the GPU's
 * launch math (cfx_deinterlace_frame_spread) for 1/8 of a wave to 4
 * waves of a few blocks, launches of more blocks than one wave included,
 * for each kernel (the elements', one column a thread, windowless, two
 * columns a thread for yadif too), and
 * the waves it must refuse.
 *
 * Exit status: 0 pass, 1 fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cfx-reference.h"
#include "deinterlace-emulate.h"
#include "ref-test.h"

/* kernel @variant (0: the elements', 1: one column a thread, 2:
 * windowless, 3: two columns a thread, yadif too); where set (wave > 0),
 * run_case launches as the GPU would for @waves waves of @wave blocks
 * instead of for a target thread count */
static struct
{
  int variant;
  long wave;
  double waves;
  long launches, past_one_wave;
} shape;

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
 * 4, at byte offsets 0 and 2) of @w x @h samples. @align: 0, every plane
 * and pitch 4-byte aligned (planar: two columns a thread); 1, pitches 2
 * bytes past a multiple of 4; 2, aligned pitches, one frame's plane 2
 * bytes in (1 and 2: one column a thread); 3, as 0 but with N's pitch 4
 * bytes longer than the others' (the two-column yadif's steps for frames
 * of more than one pitch) */
static void
run_case_aligned (int w, int h, int depth, int shift, int n_comps, int kind,
    const CfxDeintField * field, int target_threads, int align)
{
  int step = 2 * n_comps, pitch = w * step + 6, fpitch[3];
  size_t bytes;
  uint8_t *frames[3], *dst, *mem[4];
  int moved = align == 2 ? (w + h) % 4 : -1;
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

  pitch += align == 1 ? 2 - pitch % 4 + (pitch % 4 > 2 ? 4 : 0) : pitch % 4;
  bytes = (size_t) pitch * h;
  for (f = 0; f < 3; f++)
    fpitch[f] = pitch + (align == 3 && f == 2 ? 4 : 0);
  for (f = 0; f < 4; f++)
    mem[f] = malloc ((f < 3 ? (size_t) fpitch[f] * h : bytes) + 2);
  dst = mem[3] + 2 * (moved == 3);
  for (f = 0; f < 3; f++) {
    frames[f] = mem[f] + 2 * (moved == f);
    for (size_t i = 0; i < (size_t) fpitch[f] * h; i++)
      frames[f][i] = (uint8_t) rng ();
    for (k = 0; k < n_comps; k++) {
      ref_in[f][k] = malloc (sizeof (uint16_t) * w * h);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          int v = content (kind, f, k, x, y, max);
          /* the unused bits of the word random */
          unsigned junk = rng () & ~((unsigned) max << shift) & 0xffff;
          unsigned word = (unsigned) v << shift | junk;
          uint8_t *p = frames[f] + (size_t) y * fpitch[f] + x * step + 2 * k;

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
    comps[k].next.pitch = fpitch[2];
    comps[k].dst.data = dst + 2 * k;
  }
  if (shape.wave > 0) {
    long blocks = cfx_deinterlace16_frame_emulate_waves (comps, n_comps,
        field, shape.variant, shape.wave, shape.waves);

    shape.launches++;
    shape.past_one_wave += blocks > shape.wave;
    if (blocks < 1) {
      printf ("FAIL %dx%d: refused %g waves of %ld\n", w, h, shape.waves,
          shape.wave);
      failures++;
      goto out;
    }
  } else if (!cfx_deinterlace16_frame_emulate (comps, n_comps, field,
          shape.variant, target_threads)) {
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
  }
  for (f = 0; f < 4; f++)
    free (mem[f]);
}

static void
run_case (int w, int h, int depth, int shift, int n_comps, int kind,
    const CfxDeintField * field, int target_threads)
{
  run_case_aligned (w, h, depth, shift, n_comps, kind, field,
      target_threads, 0);
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
  /* 13 bits: the deepest yadif works in lanes (two columns a thread) */
  static const int depths[][2] = { {10, 0}, {10, 6}, {12, 0}, {12, 4},
  {16, 0}, {13, 3}, {14, 0}
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

                  cfx_deinterlace_min_size (field.method, 2, &min_w, &min_h);
                  if (sizes[s][0] < min_w || sizes[s][1] < min_h)
                    continue;
                  run_case (sizes[s][0], sizes[s][1], depths[d][0],
                      depths[d][1], n, kind, &field, targets[t]);
                  cases++;
                  /* yadif's one-column kernel, which only the benchmark
                   * runs on components that allow pairs */
                  if (field.method == CFX_DEINT_YADIF) {
                    shape.variant = 1;
                    run_case (sizes[s][0], sizes[s][1], depths[d][0],
                        depths[d][1], n, kind, &field, targets[t]);
                    shape.variant = 0;
                    cases++;
                  }
                }

  /* every width from 1 to 40 (two columns a thread with a last column
   * alone at odd widths, the sides' columns, the direction search's
   * limits), heights from each method's minimum, 4-byte aligned (N's
   * pitch too, and not) and not (one column a thread), strips long and
   * short */
  for (int w = 1; w <= 40; w++)
    for (unsigned m = 0; m < sizeof methods / sizeof methods[0]; m++) {
      int min_w, min_h;

      cfx_deinterlace_min_size ((CfxDeintMethod) methods[m][0], 2, &min_w,
          &min_h);
      if (w < min_w)
        continue;
      for (int h = min_h; h <= min_h + 9; h += h < min_h + 4 ? 1 : 5)
        for (int align = 0; align < 4; align++)
          for (unsigned t = 0; t < 3; t++) {
            int i = (int) (w + h + m + align + t);
            CfxDeintField field = { (CfxDeintMethod) methods[m][0], i & 1,
              (i >> 1) & 1, methods[m][1], methods[m][2]
            };

            run_case_aligned (w, h, depths[i % 7][0], depths[i % 7][1],
                1 + (i % 3 == 0), i % 3, &field, targets[t], align);
            cases++;
            if (field.method == CFX_DEINT_YADIF) {
              shape.variant = 1;
              run_case_aligned (w, h, depths[i % 7][0], depths[i % 7][1],
                  1 + (i % 3 == 0), i % 3, &field, targets[t], align);
              shape.variant = 0;
              cases++;
            }
          }
    }

  /* the GPU's launch math (cfx_deinterlace_frame_spread): 1/8 of a wave
   * to 4 waves, of waves of a few blocks, so that launches of more
   * blocks than one wave run; every kernel variant */
  {
    static const double waves[] = { 0.125, 0.25, 0.5, 1, 2, 4 };
    static const long wave_sizes[] = { 1, 2, 3, 7 };
    static const int shapes[][2] = { {33, 17}, {64, 36}, {131, 40},
    {300, 13}
    };

    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (unsigned m = 0; m < sizeof methods / sizeof methods[0]; m++)
        for (unsigned v = 0; v < sizeof waves / sizeof waves[0]; v++)
          for (unsigned z = 0; z < sizeof wave_sizes / sizeof wave_sizes[0];
              z++)
            for (int variant = 0; variant < 4; variant++) {
              int i = (int) (s + m + v + z + variant);
              CfxDeintField field = { (CfxDeintMethod) methods[m][0],
                i & 1, (i >> 1) & 1, methods[m][1], methods[m][2]
              };

              shape.variant = variant;
              shape.wave = wave_sizes[z];
              shape.waves = waves[v];
              run_case_aligned (shapes[s][0], shapes[s][1], depths[i % 7][0],
                  depths[i % 7][1], 1 + (i % 4 == 0), i % 3, &field, 0,
                  i % 5 == 0);
              cases++;
            }
    shape.wave = 0;
    shape.variant = 0;
    if (shape.past_one_wave == 0) {
      printf ("FAIL: no launch of more blocks than one wave\n");
      failures++;
    }
    printf ("%ld launches by the GPU's launch math, %ld of more blocks "
        "than one wave\n", shape.launches, shape.past_one_wave);
  }

  /* waves the launch refuses */
  {
    static const double bad[] = { 0, -1, 0.0 / 0.0, 2048, 1.0 / 0.0 };
    CfxDeintField field = { CFX_DEINT_YADIF, 0, 1, 1, 0 };
    static uint16_t plane[4][16 * 8];
    CfxDeintComponent comp;
    CfxPlane pl = { NULL, 32, 16, 8, 2, 10, 0, 2, 0 };

    comp.prev = comp.cur = comp.next = comp.dst = pl;
    comp.prev.data = (uint8_t *) plane[0];
    comp.cur.data = (uint8_t *) plane[1];
    comp.next.data = (uint8_t *) plane[2];
    comp.dst.data = (uint8_t *) plane[3];
    for (unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++)
      for (int variant = 0; variant < 4; variant++)
        if (cfx_deinterlace16_frame_emulate_waves (&comp, 1, &field, variant,
                4, bad[b]) != 0) {
          printf ("FAIL: %g waves accepted\n", bad[b]);
          failures++;
        }
    if (cfx_deinterlace16_frame_emulate_waves (&comp, 1, &field, 0, 4,
            1) < 1) {
      printf ("FAIL: one wave refused\n");
      failures++;
    }
  }
  printf ("%ld cases, %ld samples checked, %ld failures\n", cases, checked,
      failures);
  return failures ? 1 : 0;
}
