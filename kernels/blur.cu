/* Gaussian and box blur of one channel: which path, its taps, its scratch.
 * The kernels are in blur-direct.cu (Gaussian, radius <= 24),
 * blur-coarse.cu (Gaussian, larger) and blur-box.cu (box). */
#define CFX_BLUR_INTERNAL
#include "cudafx-kernels.h"

#include <cuda_fp16.h>
#include <math.h>
#include <string.h>

static int
gaussian_radius (double sigma)
{
  return sigma > 0.0 ? (int) ceil (3.0 * sigma) : 0;
}

extern "C" CfxBlurPath
cfx_blur_gaussian_path (double sigma_x, double sigma_y)
{
  return gaussian_radius (sigma_x) <= CFX_BLUR_DIRECT_MAX_RADIUS
      && gaussian_radius (sigma_y) <= CFX_BLUR_DIRECT_MAX_RADIUS ?
      CFX_BLUR_PATH_DIRECT : CFX_BLUR_PATH_DECIMATED;
}

extern "C" int
cfx_blur_decimation (double sigma)
{
  int f = 1;

  if (gaussian_radius (sigma) <= CFX_BLUR_DIRECT_MAX_RADIUS)
    return 1;
  f = 2;
  while (8.0 * f <= sigma && f < 128)
    f *= 2;
  return f;
}

/* Normalised Gaussian of radius r, as the reference computes it */
static void
gaussian (double sigma, int r, double *w)
{
  double sum = 0.0;
  int k;

  if (r == 0) {
    w[0] = 1.0;
    return;
  }
  for (k = -r; k <= r; k++)
    sum += w[k + r] = exp (-((double) k * k) / (2.0 * sigma * sigma));
  for (k = 0; k <= 2 * r; k++)
    w[k] /= sum;
}

/* fp16 taps, each rounded to nearest (relative error 2^-11); their sum
 * (not exactly 1) goes into the kernel's offset, so a constant image
 * keeps its value */
static double
direct_taps (double sigma, CfxBlurTaps * t)
{
  double w[CFX_BLUR_MAX_TAPS], sum = 0.0;
  int r = gaussian_radius (sigma), k;

  memset (t, 0, sizeof (*t));
  t->radius = r;
  gaussian (sigma, r, w);
  for (k = 0; k <= 2 * r; k++) {
    t->w[k] = __half2float (__double2half (w[k]));
    sum += t->w[k];
  }
  return sum;
}

/* One axis of the decimated path for a channel dimension @size */
static void
plan_axis (double sigma, int size, CfxBlurAxis * a)
{
  double w[CFX_BLUR_MAX_TAPS], sc;
  int f = cfx_blur_decimation (sigma), k;

  memset (a, 0, sizeof (*a));
  a->f = f;
  while ((1 << a->log2f) < f)
    a->log2f++;
  if (f == 1) {
    /* exact on this axis: the reference's own Gaussian */
    sc = sigma;
    a->r = gaussian_radius (sigma);
  } else {
    sc = sqrt ((sigma * sigma - (f * (double) f - 1.0) / 12.0) /
        ((double) f * f) - 1.0 / 3.0);
    a->r = gaussian_radius (sc);
  }
  a->o = -(a->r + 3) * f;
  a->n = (size - 1) / f + 2 * a->r + 6;
  gaussian (sc, a->r, w);
  for (k = -a->r; k <= a->r; k++) {
    a->g[k + a->r] = (float) w[k + a->r];
    a->gd[k + a->r] = a->r ? (float) (-k / (sc * sc) * w[k + a->r]) : 0.0f;
  }
}

static int
field_rows (int height, int field_step, int f)
{
  return f < height ? (height - f + field_step - 1) / field_step : 0;
}

static int
valid_step (int field_step)
{
  return field_step == 1 || field_step == 2;
}

extern "C" size_t
cfx_blur_gaussian_scratch_size (int width, int height, double sigma_x,
    double sigma_y, int field_step)
{
  CfxBlurAxis ax, ay;
  int rows;

  if (width <= 0 || height <= 0 || !valid_step (field_step)
      || cfx_blur_gaussian_path (sigma_x, sigma_y) == CFX_BLUR_PATH_DIRECT)
    return 0;
  /* the even field is the taller one */
  rows = field_rows (height, field_step, 0);
  plan_axis (sigma_x, width, &ax);
  plan_axis (sigma_y, rows, &ay);
  return cfx_blur_coarse_bytes (&ax, &ay);
}

extern "C" size_t
cfx_blur_box_scratch_size (int width, int height, int radius_x,
    int radius_y, int field_step)
{
  (void) radius_x;               /* the sums are per row: any width */
  if (width <= 0 || height <= 0 || !valid_step (field_step))
    return 0;
  return cfx_blur_box_sums_bytes (width, field_rows (height, field_step, 0),
      255 * (2 * (radius_y > 0 ? radius_y : 0) + 1) > 65535);
}

static void
consider (size_t * best, int width, int height, double s, double x_div,
    double y_div, int field_step)
{
  size_t size = cfx_blur_gaussian_scratch_size (width, height, s / x_div,
      s / y_div, field_step);

  if (size > *best)
    *best = size;
}

extern "C" size_t
cfx_blur_scratch_bound (int width, int height, double x_div, double y_div,
    int field_step, double sigma_max)
{
  /* Box sums: 32 bits for the largest radii */
  size_t best = cfx_blur_box_scratch_size (width, height, 1, 1 << 20,
      field_step);
  double edge;

  if (sigma_max > CFX_BLUR_MAX_SIGMA)
    sigma_max = CFX_BLUR_MAX_SIGMA;
  /* While neither axis changes its decimation factor, the coarse grids
   * only grow with sigma: the largest are at sigma_max and just below
   * where an axis's factor changes (axis sigma 8, 16, 32, ...). */
  consider (&best, width, height, sigma_max, x_div, y_div, field_step);
  for (edge = 8.0; edge <= 2048.0; edge *= 2.0) {
    const double below = edge == 8.0 ? edge : edge * (1.0 - 1e-9);

    if (below * x_div <= sigma_max)
      consider (&best, width, height, below * x_div, x_div, y_div,
          field_step);
    if (below * y_div <= sigma_max)
      consider (&best, width, height, below * y_div, x_div, y_div,
          field_step);
  }
  return best;
}

/* The rows of field f as a channel of their own */
static CfxChannel
field_of (CfxChannel c, int field_step, int f)
{
  c.data += (size_t) f * c.pitch;
  c.height = field_rows (c.height, field_step, f);
  c.pitch *= field_step;
  return c;
}

static int
valid_channels (CfxChannel dst, CfxChannel src, int field_step)
{
  return dst.width == src.width && dst.height == src.height
      && src.width >= 0 && src.height >= 0 && src.step >= 1 && dst.step >= 1
      && valid_step (field_step) && (src.width == 0 || src.height == 0
      || (src.data && dst.data));
}

extern "C" cudaError_t
cfx_blur_gaussian (CfxChannel dst, CfxChannel src, double sigma_x,
    double sigma_y, int field_step, void *scratch, size_t scratch_size,
    cudaStream_t stream)
{
  int f;

  if (!valid_channels (dst, src, field_step) || !(sigma_x <= CFX_BLUR_MAX_SIGMA)
      || !(sigma_y <= CFX_BLUR_MAX_SIGMA))
    return cudaErrorInvalidValue;
  if (scratch_size < cfx_blur_gaussian_scratch_size (src.width, src.height,
          sigma_x, sigma_y, field_step))
    return cudaErrorInvalidValue;

  for (f = 0; f < field_step; f++) {
    CfxChannel d = field_of (dst, field_step, f), s = field_of (src,
        field_step, f);
    cudaError_t err;

    if (s.width <= 0 || s.height <= 0)
      continue;
    if (cfx_blur_gaussian_path (sigma_x, sigma_y) == CFX_BLUR_PATH_DIRECT) {
      CfxBlurTaps tx, ty;
      double sx = direct_taps (sigma_x, &tx), sy = direct_taps (sigma_y, &ty);

      err = cfx_blur_direct_launch (d, s, &tx, &ty,
          (float) (128.0 * sx * sy + 0.5), stream);
    } else {
      CfxBlurAxis ax, ay;

      plan_axis (sigma_x, s.width, &ax);
      plan_axis (sigma_y, s.height, &ay);
      err = cfx_blur_coarse_launch (d, s, &ax, &ay, (float *) scratch,
          stream);
    }
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

extern "C" cudaError_t
cfx_blur_box (CfxChannel dst, CfxChannel src, int radius_x, int radius_y,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream)
{
  int f;

  if (radius_x < 0)
    radius_x = 0;
  if (radius_y < 0)
    radius_y = 0;
  /* n (2 rx + 1) (2 ry + 1) * 255 must stay below 2^30 */
  if (!valid_channels (dst, src, field_step)
      || (2.0 * radius_x + 1.0) * (2.0 * radius_y + 1.0) > 4.0e6)
    return cudaErrorInvalidValue;
  if (scratch_size < cfx_blur_box_scratch_size (src.width, src.height,
          radius_x, radius_y, field_step))
    return cudaErrorInvalidValue;

  for (f = 0; f < field_step; f++) {
    CfxChannel d = field_of (dst, field_step, f), s = field_of (src,
        field_step, f);
    cudaError_t err;

    if (s.width <= 0 || s.height <= 0)
      continue;
    err = cfx_blur_box_launch (d, s, radius_x, radius_y, scratch, stream);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}
