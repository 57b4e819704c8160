/* Gaussian and box blur references on 16-bit words (P010, I420_10LE,
 * 16-bit formats): the algorithm of blur.c in units of the sample's own
 * depth.
 *
 * A sample is (word >> shift) & ((1 << depth) - 1) of a little-endian
 * 16-bit word; the words are read and written a byte at a time, so the host's
 * byte order does not matter. Results are written as value << shift with the
 * other bits 0, and only the component's own words (one every step bytes)
 * are written: P010's other chroma component, in the words between, stays
 * as it was.
 *
 * Borders, fields and rounding as in blur.c: mirror through cfx_ref_mirror,
 * field_step 2 blurs the rows y % 2 == f as image f on its own, the
 * Gaussian rounds floor (v + 0.5) clamped to 0..2^depth - 1, the box
 * (sum + n / 2) / n with 64-bit sums (a 16-bit sample times a large box
 * does not fit 32 bits).
 *
 * The Gaussian repeats blur.c's arithmetic operation for operation (its
 * weights, through cfx_ref_blur_gaussian_weights, and the same order of the
 * sums), so at depth 8 it gives exactly what the 8-bit reference gives;
 * test-blur-ref checks that.
 *
 * Both functions read all of src into a buffer before writing dst, so dst
 * may be src (or overlap it). cfx_ref_unsharp16 is blur.c's unsharp mask
 * at the sample's depth. */
#include <math.h>
#include <stdlib.h>

#include "cfx-reference.h"

/* A wrong depth or shift would silently make the oracle agree with a wrong
 * kernel, so the caller's mistakes stop the test instead. */
static void
check_planes (const CfxRefWordPlane * dst, const CfxRefWordPlane * src)
{
  const CfxRefWordPlane *p[2] = { dst, src };
  int i;

  for (i = 0; i < 2; i++)
    if (p[i]->depth < 1 || p[i]->depth > 16 || p[i]->shift < 0
        || p[i]->depth + p[i]->shift > 16 || p[i]->step < 2)
      abort ();
  if (dst->depth != src->depth)
    abort ();
}

static unsigned int
max_value (int depth)
{
  return (1u << depth) - 1u;
}

/* All samples of src as plain values, w * h, row after row. */
static unsigned int *
read_plane (const CfxRefWordPlane * src)
{
  int w = src->width, h = src->height, x, y;
  unsigned int mask = max_value (src->depth);
  unsigned int *v = cfx_ref_blur_xmalloc ((size_t) w * h * sizeof (unsigned int));

  for (y = 0; y < h; y++) {
    const uint8_t *row = src->data + (long) y * src->stride;

    for (x = 0; x < w; x++) {
      const uint8_t *b = row + (long) x * src->step;
      unsigned int word = b[0] | ((unsigned int) b[1] << 8);

      v[(long) y * w + x] = (word >> src->shift) & mask;
    }
  }
  return v;
}

/* values are already in 0..2^depth - 1 */
static void
write_plane (const CfxRefWordPlane * dst, const unsigned int *v, int w, int h)
{
  int x, y;

  for (y = 0; y < h; y++) {
    uint8_t *row = dst->data + (long) y * dst->stride;

    for (x = 0; x < w; x++) {
      uint8_t *b = row + (long) x * dst->step;
      unsigned int word = v[(long) y * w + x] << dst->shift;

      b[0] = (uint8_t) (word & 0xff);
      b[1] = (uint8_t) ((word >> 8) & 0xff);
    }
  }
}

void
cfx_ref_gaussian_blur16 (const CfxRefWordPlane * dst,
    const CfxRefWordPlane * src, double sigma_x, double sigma_y,
    int field_step)
{
  int w = src->width, h = src->height;
  int step = cfx_ref_blur_field_step (field_step);
  double maxv, *wx, *wy, *tmp;
  unsigned int *in, *res;
  int rx, ry, x, y, k, f;

  if (w <= 0 || h <= 0)
    return;
  check_planes (dst, src);
  maxv = (double) max_value (src->depth);

  in = read_plane (src);
  res = cfx_ref_blur_xmalloc ((size_t) w * h * sizeof (unsigned int));
  rx = cfx_ref_blur_gaussian_weights (sigma_x, &wx);
  ry = cfx_ref_blur_gaussian_weights (sigma_y, &wy);
  tmp = cfx_ref_blur_xmalloc ((size_t) w * h * sizeof (double));

  /* horizontal pass into doubles, no rounding; rows are independent, so
   * fields do not matter here */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      double acc = 0.0;

      for (k = -rx; k <= rx; k++)
        acc += wx[k + rx] * in[(long) y * w + cfx_ref_mirror (x + k, w)];
      tmp[(long) y * w + x] = acc;
    }

  /* vertical pass inside each field, then round once */
  for (f = 0; f < step; f++) {
    int fh = cfx_ref_blur_field_rows (h, step, f);
    int j;

    for (j = 0; j < fh; j++)
      for (x = 0; x < w; x++) {
        double acc = 0.0, v;

        for (k = -ry; k <= ry; k++) {
          int yy = f + cfx_ref_mirror (j + k, fh) * step;

          acc += wy[k + ry] * tmp[(long) yy * w + x];
        }
        v = floor (acc + 0.5);
        if (v < 0.0)
          v = 0.0;
        if (v > maxv)
          v = maxv;
        res[(long) (f + j * step) * w + x] = (unsigned int) v;
      }
  }

  write_plane (dst, res, w, h);

  free (tmp);
  free (wx);
  free (wy);
  free (res);
  free (in);
}

void
cfx_ref_box_blur16 (const CfxRefWordPlane * dst, const CfxRefWordPlane * src,
    int radius_x, int radius_y, int field_step)
{
  int w = src->width, h = src->height;
  int step = cfx_ref_blur_field_step (field_step);
  int rx = radius_x > 0 ? radius_x : 0;
  int ry = radius_y > 0 ? radius_y : 0;
  long long n = (long long) (2 * rx + 1) * (2 * ry + 1);
  unsigned int *in, *res;
  int x, f;

  if (w <= 0 || h <= 0)
    return;
  check_planes (dst, src);

  in = read_plane (src);
  res = cfx_ref_blur_xmalloc ((size_t) w * h * sizeof (unsigned int));

  for (f = 0; f < step; f++) {
    int fh = cfx_ref_blur_field_rows (h, step, f);
    int j;

    for (j = 0; j < fh; j++)
      for (x = 0; x < w; x++) {
        long long sum = 0;
        int dx, dy;

        /* exact integer sum over the whole 2-D box; the mean of values
         * <= 2^depth - 1 never exceeds it, so no clamp is needed */
        for (dy = -ry; dy <= ry; dy++) {
          const unsigned int *row =
              in + (long) (f + cfx_ref_mirror (j + dy, fh) * step) * w;

          for (dx = -rx; dx <= rx; dx++)
            sum += row[cfx_ref_mirror (x + dx, w)];
        }
        res[(long) (f + j * step) * w + x] =
            (unsigned int) ((sum + n / 2) / n);
      }
  }

  write_plane (dst, res, w, h);

  free (res);
  free (in);
}

void
cfx_ref_unsharp16 (const CfxRefWordPlane * dst, const CfxRefWordPlane * src,
    const CfxRefWordPlane * blurred, int amount)
{
  int w = src->width, h = src->height, x;
  const double a = amount / 256.0;
  double maxv;
  unsigned int *in, *b;

  if (w <= 0 || h <= 0)
    return;
  check_planes (dst, src);
  check_planes (blurred, src);
  maxv = (double) max_value (src->depth);
  in = read_plane (src);
  b = read_plane (blurred);
  for (x = 0; x < w * h; x++) {
    double v = floor (in[x] + a * ((double) in[x] - b[x]) + 0.5);

    in[x] = (unsigned int) (v < 0.0 ? 0.0 : v > maxv ? maxv : v);
  }
  write_plane (dst, in, w, h);
  free (b);
  free (in);
}
