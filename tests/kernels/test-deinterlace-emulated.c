/* CPU test of the deinterlace kernel's logic (no GPU needed): every thread
 * of a launch is run on the CPU (cfx_deinterlace_frame_emulate, the same
 * __host__ __device__ code the GPU runs, minus the intrinsics and the
 * launch) and every sample is compared with the reference
 * (tests/reference/deinterlace.c): all methods, parities, field orders,
 * spatial check on and off, bwdif's intra fields, the four plane layouts,
 * minimum, odd and even sizes, long and short strips (window warm-up and
 * sliding), the word and the byte paths, random, smooth and
 * nearly-still content, and no write past a row on the byte path.
 *
 * Exit status: 0 pass, 1 fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cfx-reference.h"

int cfx_deinterlace_frame_emulate (const CfxDeintPlane * planes,
    int n_planes, const CfxDeintField * field, int target_threads);

#define POISON 0xa5

static uint64_t rng_state = 88172645463325252ull;

static uint32_t
rng (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t) (rng_state >> 11);
}

static long failures, checked;

/* channel c of a layout: first byte, step, samples */
static int
channels (int layout, int c, int w, int *off, int *step, int *cw)
{
  switch (layout) {
    case CFX_DEINT_LAYOUT_PLANAR:
      *off = 0, *step = 1, *cw = w;
      return 1;
    case CFX_DEINT_LAYOUT_PAIRS:
      *off = c, *step = 2, *cw = w;
      return 2;
    case CFX_DEINT_LAYOUT_UYVY:
      if (c == 0)
        *off = 1, *step = 2, *cw = w;
      else
        *off = c == 1 ? 0 : 2, *step = 4, *cw = (w + 1) / 2;
      return 3;
    default:
      if (c == 0)
        *off = 0, *step = 2, *cw = w;
      else
        *off = c == 1 ? 1 : 3, *step = 4, *cw = (w + 1) / 2;
      return 3;
  }
}

static int
row_bytes (int layout, int w)
{
  return layout == CFX_DEINT_LAYOUT_PLANAR ? w :
      layout == CFX_DEINT_LAYOUT_PAIRS ? 2 * w : 4 * ((w + 1) / 2);
}

/* kind: 0 random, 1 smooth with noise, 2 low contrast, 3 nearly still */
static void
fill (uint8_t * p, int pitch, int h, int kind, const uint8_t * base)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < pitch; x++) {
      int v;

      switch (kind) {
        case 0:
          v = rng () & 255;
          break;
        case 1:
          v = (x * 7 + y * 13 + (int) (rng () % 9)) & 255;
          break;
        case 2:
          v = 120 + (int) (rng () % 12);
          break;
        default:
          v = base ? base[y * pitch + x] + (rng () % 5 == 0 ?
              (int) (rng () % 3) : 0) : (int) (rng () & 255);
          break;
      }
      p[y * pitch + x] = (uint8_t) v;
    }
}

static void
run_case (CfxDeintMethod method, int layout, int w, int h, int parity,
    int tff, int sc, int intra, int kind, int aligned, int target)
{
  int rb = row_bytes (layout, w);
  int pitch = aligned ? (rb + 255) / 256 * 256 : rb + 3;
  size_t size = (size_t) pitch * h;
  uint8_t *mem[4], *P, *C, *N, *D;
  CfxDeintPlane pl;
  CfxDeintField f = { method, parity, tff, sc, intra };
  int c, n, i, x, y;

  for (i = 0; i < 4; i++)
    mem[i] = aligned_alloc (256, (size + 16 + 255) / 256 * 256);
  /* the byte path: bases one byte in */
  P = mem[0] + !aligned;
  C = mem[1] + !aligned;
  N = mem[2] + !aligned;
  D = mem[3] + !aligned;
  fill (C, pitch, h, kind, NULL);
  fill (P, pitch, h, kind, kind == 3 ? C : NULL);
  fill (N, pitch, h, kind, kind == 3 ? C : NULL);
  memset (D, POISON, size);

  pl.prev = (CfxPlane) { P, pitch, w, h };
  pl.cur = (CfxPlane) { C, pitch, w, h };
  pl.next = (CfxPlane) { N, pitch, w, h };
  pl.dst = (CfxPlane) { D, pitch, w, h };
  pl.layout = (CfxDeintLayout) layout;
  if (cfx_deinterlace_frame_emulate (&pl, 1, &f, target) != 0) {
    printf ("FAIL: method %d layout %d %dx%d refused\n", method, layout, w,
        h);
    failures++;
    goto out;
  }

  n = channels (layout, 0, w, &x, &x, &x);
  for (c = 0; c < n; c++) {
    int off, step, cw;
    uint8_t *buf[4];
    CfxRefPlane rp[4];
    long bad = 0;

    channels (layout, c, w, &off, &step, &cw);
    for (i = 0; i < 4; i++) {
      buf[i] = malloc ((size_t) cw * h);
      rp[i] = (CfxRefPlane) { buf[i], cw, cw, h };
    }
    for (y = 0; y < h; y++)
      for (x = 0; x < cw; x++) {
        buf[0][y * cw + x] = P[y * pitch + off + x * step];
        buf[1][y * cw + x] = C[y * pitch + off + x * step];
        buf[2][y * cw + x] = N[y * pitch + off + x * step];
      }
    cfx_ref_deinterlace_plane (&rp[3], &rp[0], &rp[1], &rp[2], parity, tff,
        (CfxRefDeintMethod) method, sc, intra);
    for (y = 0; y < h; y++)
      for (x = 0; x < cw; x++) {
        int got = D[y * pitch + off + x * step], want = buf[3][y * cw + x];

        checked++;
        if (got != want && bad++ < 3)
          printf ("FAIL: method %d layout %d %dx%d parity %d tff %d sc %d "
              "intra %d kind %d aligned %d target %d channel %d x=%d y=%d: "
              "got %d, reference %d\n", method, layout, w, h, parity, tff,
              sc, intra, kind, aligned, target, c, x, y, got, want);
      }
    failures += bad != 0;
    for (i = 0; i < 4; i++)
      free (buf[i]);
  }
  /* the byte path stops at the row's end */
  if (!aligned)
    for (y = 0; y < h; y++)
      for (x = rb; x < pitch; x++)
        if (D[y * pitch + x] != POISON) {
          printf ("FAIL: row padding written at x=%d y=%d\n", x, y);
          failures++;
          y = h;
          break;
        }
out:
  for (i = 0; i < 4; i++)
    free (mem[i]);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 2}, {2, 2}, {3, 3}, {3, 4}, {4, 4},
  {5, 5}, {6, 5}, {7, 9}, {16, 8}, {17, 11}, {33, 20}, {40, 31}, {64, 64},
  {100, 37}, {130, 70},
  /* wide enough for warps (32 words) with no edge column */
  {300, 13}, {517, 10}
  };
  int m, layout, s, parity, tff, sc, intra, kind;

  for (m = 0; m < 4; m++)
    for (layout = 0; layout < 4; layout++)
      for (s = 0; s < (int) (sizeof (sizes) / sizeof (sizes[0])); s++)
        for (parity = 0; parity < 2; parity++)
          for (tff = 0; tff < 2; tff++)
            for (sc = 0; sc < 2; sc++)
              for (intra = 0; intra < 2; intra++) {
                int w = sizes[s][0], h = sizes[s][1], min_w, min_h;
                int cw = layout >= CFX_DEINT_LAYOUT_UYVY ? (w + 1) / 2 : w;

                cfx_deinterlace_min_size ((CfxDeintMethod) m, &min_w,
                    &min_h);
                if (w < min_w || cw < min_w || h < min_h)
                  continue;
                if ((m != CFX_DEINT_YADIF && !sc)
                    || (m != CFX_DEINT_BWDIF && intra))
                  continue;
                for (kind = 0; kind < 4; kind++) {
                  /* one long strip per column, one-pair strips, and
                   * strips of a few pairs */
                  run_case ((CfxDeintMethod) m, layout, w, h, parity, tff,
                      sc, intra, kind, 1, 1);
                  run_case ((CfxDeintMethod) m, layout, w, h, parity, tff,
                      sc, intra, kind, 1, 1 << 20);
                  if (kind == 0) {
                    run_case ((CfxDeintMethod) m, layout, w, h, parity, tff,
                        sc, intra, kind, 1, 200);
                    run_case ((CfxDeintMethod) m, layout, w, h, parity, tff,
                        sc, intra, kind, 0, 64);
                  }
                }
              }
  printf ("%ld samples checked, %ld failing cases\n", checked, failures);
  return failures != 0;
}
