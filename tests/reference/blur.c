/* Gaussian and box blur references.
 *
 * Borders: mirror ("reflect without repeating the edge") through
 * cfx_ref_mirror, which also covers radii larger than the image and
 * 1-pixel images.
 *
 * field_step 2: the rows y with y % 2 == f form image f (f = 0, 1); each is
 * blurred on its own, mirrored inside the field, and rows of the other field
 * are never read. field_step 1: the whole frame is one image.
 *
 * Rounding: round half up, i.e. floor (v + 0.5) for the Gaussian (clamped
 * to 0..255, which a convex combination of 8-bit values never leaves but
 * for the last ulp) and (sum + n / 2) / n in integers for the box (n is
 * always odd there, so no exact half ever occurs).
 *
 * Both functions read all of src before writing dst, so dst may be src.
 *
 * Sharpening (cfx_ref_unsharp): the unsharp mask x + a (x - b) of the
 * source x and its blur b as the functions above write it (rounded), a =
 * amount / 256, rounded half up like the blurs and clamped. Every term is
 * a multiple of 1/256 far inside double's exact range, so the rounding is
 * of the exact value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

void *
cfx_ref_blur_xmalloc (size_t size)
{
  void *p = malloc (size ? size : 1);

  if (!p)
    abort ();
  return p;
}

static const uint8_t *
src_row (const CfxRefPlane * p, int y)
{
  return p->data + (long) y * p->stride;
}

static uint8_t *
dst_row (const CfxRefPlane * p, int y)
{
  return p->data + (long) y * p->stride;
}

/* Number of rows in field f of a frame of height h. */
int
cfx_ref_blur_field_rows (int h, int step, int f)
{
  return f < h ? (h - f + step - 1) / step : 0;
}

int
cfx_ref_blur_field_step (int field_step)
{
  return field_step == 2 ? 2 : 1;
}

/* Normalised Gaussian weights w[0 .. 2r] for offsets -r .. r,
 * r = ceil (3 * sigma). Returns r; sigma <= 0 gives r = 0, w[0] = 1. */
int
cfx_ref_blur_gaussian_weights (double sigma, double **weights)
{
  double *w, sum = 0.0;
  int r, k;

  if (!(sigma > 0.0)) {
    w = cfx_ref_blur_xmalloc (sizeof (double));
    w[0] = 1.0;
    *weights = w;
    return 0;
  }

  r = (int) ceil (3.0 * sigma);
  w = cfx_ref_blur_xmalloc ((size_t) (2 * r + 1) * sizeof (double));
  for (k = -r; k <= r; k++) {
    w[k + r] = exp (-((double) k * k) / (2.0 * sigma * sigma));
    sum += w[k + r];
  }
  for (k = 0; k < 2 * r + 1; k++)
    w[k] /= sum;

  *weights = w;
  return r;
}

void
cfx_ref_gaussian_blur (const CfxRefPlane * dst, const CfxRefPlane * src,
    double sigma_x, double sigma_y, int field_step)
{
  int w = src->width, h = src->height;
  int step = cfx_ref_blur_field_step (field_step);
  double *wx, *wy, *tmp;
  int rx, ry, x, y, k, f;

  if (w <= 0 || h <= 0)
    return;

  rx = cfx_ref_blur_gaussian_weights (sigma_x, &wx);
  ry = cfx_ref_blur_gaussian_weights (sigma_y, &wy);
  tmp = cfx_ref_blur_xmalloc ((size_t) w * h * sizeof (double));

  /* horizontal pass into doubles, no rounding; rows are independent, so
   * fields do not matter here */
  for (y = 0; y < h; y++) {
    const uint8_t *in = src_row (src, y);

    for (x = 0; x < w; x++) {
      double acc = 0.0;

      for (k = -rx; k <= rx; k++)
        acc += wx[k + rx] * in[cfx_ref_mirror (x + k, w)];
      tmp[(long) y * w + x] = acc;
    }
  }

  /* vertical pass inside each field, then round once */
  for (f = 0; f < step; f++) {
    int fh = cfx_ref_blur_field_rows (h, step, f);
    int j;

    for (j = 0; j < fh; j++) {
      uint8_t *out = dst_row (dst, f + j * step);

      for (x = 0; x < w; x++) {
        double acc = 0.0, v;

        for (k = -ry; k <= ry; k++) {
          int yy = f + cfx_ref_mirror (j + k, fh) * step;

          acc += wy[k + ry] * tmp[(long) yy * w + x];
        }
        v = floor (acc + 0.5);
        if (v < 0.0)
          v = 0.0;
        if (v > 255.0)
          v = 255.0;
        out[x] = (uint8_t) v;
      }
    }
  }

  free (tmp);
  free (wx);
  free (wy);
}

void
cfx_ref_box_blur (const CfxRefPlane * dst, const CfxRefPlane * src,
    int radius_x, int radius_y, int field_step)
{
  int w = src->width, h = src->height;
  int step = cfx_ref_blur_field_step (field_step);
  int rx = radius_x > 0 ? radius_x : 0;
  int ry = radius_y > 0 ? radius_y : 0;
  long long n = (long long) (2 * rx + 1) * (2 * ry + 1);
  uint8_t *res;
  int x, y, f;

  if (w <= 0 || h <= 0)
    return;

  res = cfx_ref_blur_xmalloc ((size_t) w * h);

  for (f = 0; f < step; f++) {
    int fh = cfx_ref_blur_field_rows (h, step, f);
    int j;

    for (j = 0; j < fh; j++) {
      for (x = 0; x < w; x++) {
        long long sum = 0;
        int dx, dy;

        /* exact integer sum over the whole 2-D box */
        for (dy = -ry; dy <= ry; dy++) {
          const uint8_t *in =
              src_row (src, f + cfx_ref_mirror (j + dy, fh) * step);

          for (dx = -rx; dx <= rx; dx++)
            sum += in[cfx_ref_mirror (x + dx, w)];
        }
        res[(long) (f + j * step) * w + x] = (uint8_t) ((sum + n / 2) / n);
      }
    }
  }

  for (y = 0; y < h; y++)
    memcpy (dst_row (dst, y), res + (long) y * w, (size_t) w);

  free (res);
}

int
cfx_ref_sharpen_amount (double strength)
{
  return (int) floor (strength * 256.0 + 0.5);
}

void
cfx_ref_unsharp (const CfxRefPlane * dst, const CfxRefPlane * src,
    const CfxRefPlane * blurred, int amount)
{
  const double a = amount / 256.0;
  int x, y;

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = src_row (src, y), *b = src_row (blurred, y);
    uint8_t *out = dst_row (dst, y);

    for (x = 0; x < src->width; x++) {
      double v = floor (in[x] + a * ((double) in[x] - b[x]) + 0.5);

      out[x] = (uint8_t) (v < 0.0 ? 0.0 : v > 255.0 ? 255.0 : v);
    }
  }
}
