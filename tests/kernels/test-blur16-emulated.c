/* CPU test of the fused 16-bit Gaussian (no GPU needed): the kernel's
 * phases (cfx_blur16_fused_emulate: loads a step ahead, stage, border
 * fill, rows, columns; the same __host__ __device__ code the GPU runs,
 * block by block and thread by thread, shared memory and what a thread
 * holds filled with NaN before each block; the word-to-float and floor
 * tricks of the device are plain conversions here, so the GPU suite
 * test-blur16 covers those) against
 *   - the double-precision reference (tests/reference/blur16.c): within 1
 *     of it, the promise of the 16-bit blur;
 *   - the two tiled passes' float arithmetic, written out here (rows: w0
 *     times the sample, then fmaf (wk, left + right, acc); the row sums as
 *     floats; the columns the same, rounded half up and clipped): equal,
 *     as the kernel's comment says.
 * Planes: 10 bits high (P010's luma), 10 bits low interleaved (P010's V:
 * step 4, offset 2), 12 bits at shift 4, 16 bits; rows 16-byte aligned
 * (three cases in four) or not (the kernel must refuse those: they take
 * the two passes); sizes from 1x1 to several strips and runs with partial
 * ones (interior blocks from 290 columns and 150 rows); runs of 16 or 32
 * rows or as a GPU of 660 resident blocks would take them; radii 0 to 16,
 * different on the two axes. Unused input bits are random; output words must have them 0, and
 * nothing outside the component's words may be written.
 *
 * Exit status: 0 pass, 1 fail. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "blur-testing.h"
#include "cfx-reference.h"
#include "ref-test.h"

#define POISON 0xa5

static uint32_t rng_state = 88172645u;
static long failures, checked, not_taken;

static uint32_t
rng (void)
{
  return cfx_ref_xorshift32 (&rng_state);
}

/* w[0 .. r] for r = ceil (3 sigma), normalised over the 2 r + 1 taps (as
 * blur16-passes.cu's gaussian_taps); sigma <= 0: r 0, w[0] 1 */
static int
taps (double sigma, double *w)
{
  int r = sigma > 0.0 ? (int) ceil (3.0 * sigma) : 0, k;
  double total = 0.0;

  for (k = 0; k <= r; k++) {
    w[k] = r ? exp (-((double) k * k) / (2.0 * sigma * sigma)) : 1.0;
    total += k ? 2.0 * w[k] : w[k];
  }
  for (k = 0; k <= r; k++)
    w[k] /= total;
  return r;
}

static int
mirror (int i, int n)
{
  return cfx_ref_mirror (i, n);
}

static int
value_at (const uint8_t * base, int pitch, int step, int shift, int depth,
    int x, int y)
{
  const uint8_t *p = base + (size_t) y * pitch + (size_t) x * step;

  return ((p[0] | p[1] << 8) >> shift) & ((1 << depth) - 1);
}

/* The two tiled passes' arithmetic */
static void
two_pass (uint16_t * out, const uint8_t * in, int pitch, int step, int shift,
    int depth, int w, int h, int rx, int ry, const double *wx,
    const double *wy)
{
  float *rows = malloc (sizeof (float) * w * h);
  float fx[17], fy[17], top = (float) ((1u << depth) - 1);
  int x, y, k;

  for (k = 0; k <= rx; k++)
    fx[k] = (float) wx[k];
  for (k = 0; k <= ry; k++)
    fy[k] = (float) wy[k];
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float acc = fx[0] * (float) value_at (in, pitch, step, shift, depth,
          x, y);

      for (k = 1; k <= rx; k++)
        acc = fmaf (fx[k], (float) value_at (in, pitch, step, shift, depth,
                mirror (x - k, w), y) + (float) value_at (in, pitch, step,
                shift, depth, mirror (x + k, w), y), acc);
      rows[y * w + x] = acc;
    }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float acc = fy[0] * rows[y * w + x];

      for (k = 1; k <= ry; k++)
        acc = fmaf (fy[k], rows[mirror (y - k, h) * w + x] +
            rows[mirror (y + k, h) * w + x], acc);
      out[y * w + x] = (uint16_t) fminf (fmaxf (floorf (acc + 0.5f), 0.f),
          top);
    }
  free (rows);
}

/* One case: a component of @w x @h samples, @step bytes apart from byte
 * @offset of each row; rows 16-byte aligned or not (@aligned), blocks of
 * @run output rows (0: as a GPU of 660 resident blocks would take) */
static void
run_case (int w, int h, int depth, int shift, int step, int offset,
    double sigma_x, double sigma_y, int aligned, int run)
{
  int pitch = aligned ? (w * step + 6 + 15) & ~15 : w * step + 6, x, y;
  int rx, ry;
  size_t bytes = (size_t) pitch * h;
  uint8_t *in = malloc (bytes), *out = malloc (bytes), *ref = malloc (bytes);
  uint16_t *tp = malloc (sizeof (uint16_t) * w * h);
  double wx[17], wy[17];
  unsigned max = (1u << depth) - 1;
  CfxPlane src = { in + offset, pitch, w, h, 2, depth, shift, step, offset };
  CfxPlane dst = { out + offset, pitch, w, h, 2, depth, shift, step, offset };
  CfxRefWordPlane rs = { in + offset, pitch, step, w, h, depth, shift };
  CfxRefWordPlane rd = { ref + offset, pitch, step, w, h, depth, shift };

  for (size_t i = 0; i < bytes; i++)
    in[i] = (uint8_t) rng ();
  /* smooth and sharp content, so the sums see both */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      unsigned v = ((x / 5 + y / 3) & 1) ? rng () % (max + 1) :
          (unsigned) ((x * 97 + y * 31) % (max + 1));
      unsigned junk = rng () & ~(max << shift) & 0xffff;
      unsigned word = v << shift | junk;
      uint8_t *p = in + (size_t) y * pitch + (size_t) x * step + offset;

      p[0] = (uint8_t) word;
      p[1] = (uint8_t) (word >> 8);
    }
  memset (out, POISON, bytes);
  memset (ref, 0, bytes);
  rx = taps (sigma_x, wx);
  ry = taps (sigma_y, wy);
  if (!cfx_blur16_fused_emulate (dst, src, rx, ry, wx, wy, run, 660)) {
    /* the kernel takes 16-bit words at 16-byte aligned rows */
    if (step == 2 && aligned) {
      printf ("FAIL %dx%d sigma %g %g: refused\n", w, h, sigma_x, sigma_y);
      failures++;
    } else {
      not_taken++;
    }
    goto out;
  }
  cfx_ref_gaussian_blur16 (&rd, &rs, sigma_x, sigma_y, 1);
  two_pass (tp, in + offset, pitch, step, shift, depth, w, h, rx, ry, wx,
      wy);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const uint8_t *p = out + (size_t) y * pitch + (size_t) x * step +
          offset;
      unsigned word = p[0] | p[1] << 8;
      int got = (int) (word >> shift), want = value_at (ref + offset, pitch,
          step, shift, depth, x, y);

      checked++;
      if ((word & ~(max << shift)) != 0 || abs (got - want) > 1
          || got != tp[y * w + x]) {
        if (failures++ < 20)
          printf ("FAIL %dx%d depth %d shift %d step %d sigma %g %g run %d "
              "%s: (%d,%d) word 0x%04x, reference %d, two passes %d\n", w,
              h, depth, shift, step, sigma_x, sigma_y, run,
              aligned ? "aligned" : "unaligned", x, y, word, want,
              tp[y * w + x]);
        x = w;
        y = h;
      }
    }
  /* bytes of the rows that are not the component's words: untouched */
  for (y = 0; y < h; y++)
    for (x = 0; x < pitch; x++) {
      int mine = x >= offset && x < offset + w * step
          && (x - offset) % step < 2;

      if (!mine && out[(size_t) y * pitch + x] != POISON) {
        if (failures++ < 20)
          printf ("FAIL %dx%d step %d: row %d byte %d written\n", w, h, step,
              y, x);
        y = h;
        break;
      }
    }
out:
  free (in);
  free (out);
  free (ref);
  free (tp);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {3, 2}, {17, 9}, {64, 64},
  {65, 65}, {130, 70}, {200, 131}, {300, 70}, {520, 37}, {290, 150}
  };
  /* depth, shift, step, offset */
  static const int layouts[][4] = { {10, 6, 2, 0}, {10, 0, 4, 2},
  {12, 4, 2, 0}, {16, 0, 2, 0}
  };
  static const double sigmas[][2] = { {0, 0}, {0.5, 0.5}, {1, 3}, {3, 1},
  {3, 3}, {2, 0}, {5.33, 5.33}
  };
  long cases = 0;

  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (unsigned l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      for (unsigned g = 0; g < sizeof sigmas / sizeof sigmas[0]; g++) {
        run_case (sizes[s][0], sizes[s][1], layouts[l][0], layouts[l][1],
            layouts[l][2], layouts[l][3], sigmas[g][0], sigmas[g][1],
            cases % 4 != 3, (int) (cases % 3) * 16);
        cases++;
      }
  printf ("%ld cases (%ld the kernel does not take: interleaved or "
      "unaligned), %ld samples checked, %ld failures\n", cases, not_taken,
      checked, failures);
  return failures ? 1 : 0;
}
