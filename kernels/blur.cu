/* Gaussian and box blur of channels of both depths: which path, its
 * taps, its scratch, and the blur's state (CfxBlur, which owns the
 * scratch). The kernels of 8-bit channels are in blur-direct.cu
 * (Gaussian, folded radius <= 48), blur-coarse.cu (Gaussian, larger) and
 * blur-box.cu (box); those of 16-bit channels in blur16-fused.cu
 * (Gaussian, radii up to 16), blur16-passes.cu (Gaussian, any radii) and
 * blur16-box.cu. A call's channels, and their fields, become the
 * sub-channels of one launch per 8-bit kernel, and of a launch each per
 * 16-bit kernel. */
#include "blur-internal.h"
#include "blur-testing.h"

#include <cuda_fp16.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCRATCH_ALIGN 256

static int
gaussian_radius (double sigma)
{
  return sigma > 0.0 ? (int) ceil (3.0 * sigma) : 0;
}

/* The radius the Gaussian folds onto on an axis of n samples: the
 * mirrored axis repeats every 2 (n - 1) samples */
static int
folded_radius (double sigma, int n)
{
  int r = gaussian_radius (sigma);
  return n - 1 < r ? (n > 1 ? n - 1 : 0) : r;
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

static size_t
align_up (size_t n)
{
  return (n + SCRATCH_ALIGN - 1) & ~(size_t) (SCRATCH_ALIGN - 1);
}

extern "C" CfxBlurPath
cfx_blur_gaussian_path (int width, int height, double sigma_x,
    double sigma_y, int field_step)
{
  /* both fields take the path of the taller one */
  const int rows = field_rows (height, valid_step (field_step) ?
      field_step : 1, 0);

  return folded_radius (sigma_x, width) <= CFX_BLUR_DIRECT_MAX_RADIUS
      && folded_radius (sigma_y, rows) <= CFX_BLUR_DIRECT_MAX_RADIUS ?
      CFX_BLUR_PATH_DIRECT : CFX_BLUR_PATH_DECIMATED;
}

extern "C" int
cfx_blur_decimation (double sigma)
{
  int f = 1;

  if (gaussian_radius (sigma) <= 24)
    return 1;
  f = 2;
  while (8.0 * f <= sigma && f < 128)
    f *= 2;
  return f;
}

/* Taps of a direct pass on an axis of n samples, folded (offsets k and
 * k + 2 (n - 1) read the same mirrored sample; the two ends of the folded
 * range are the same offset, their weight is split between them), then
 * rounded to fp16 each (relative error 2^-11). Returns their sum (not
 * exactly 1), which the kernel's offset carries, so a constant image
 * keeps its value. */
static double
direct_taps (double sigma, int n, float *taps, int *radius)
{
  const int r = gaussian_radius (sigma), rf = folded_radius (sigma, n);
  double f[CFX_BLUR_MAX_TAPS], total = 0.0, sum = 0.0;
  int k;

  memset (f, 0, sizeof (f));
  if (r == 0) {
    f[0] = 1.0;
  } else {
    /* the reference's weights, exp (-k^2 / 2 sigma^2) / their total */
    for (k = -r; k <= r; k++)
      total += exp (-((double) k * k) / (2.0 * sigma * sigma));
    for (k = -r; k <= r; k++) {
      const double w = exp (-((double) k * k) / (2.0 * sigma * sigma)) /
          total;
      int m = k;

      if (rf == 0) {
        m = 0;
      } else if (rf < r) {
        const int period = 2 * rf;
        m = ((k + rf) % period + period) % period - rf;
        if (m == -rf) {         /* the same offset as +rf */
          f[0] += w / 2.0;
          f[2 * rf] += w / 2.0;
          continue;
        }
      }
      f[m + rf] += w;
    }
  }
  for (k = 0; k <= 2 * rf; k++) {
    taps[k] = __half2float (__double2half (f[k]));
    sum += taps[k];
  }
  *radius = rf;
  return sum;
}

/* One axis of the decimated path for a channel dimension @size */
static void
plan_axis (double sigma, int size, CfxBlurAxis * a)
{
  const int f = cfx_blur_decimation (sigma);

  memset (a, 0, sizeof (*a));
  a->f = f;
  while ((1 << a->log2f) < f)
    a->log2f++;
  if (f == 1) {
    /* exact on this axis (sigma <= 8): the reference's own Gaussian */
    a->sc = sigma > 0.0 ? sigma : 0.0;
  } else {
    /* the block mean (variance (f^2 - 1) / 12) and the cubic B-spline
     * (f^2 / 3) make up the rest of the variance */
    a->sc = sqrt ((sigma * sigma - (f * (double) f - 1.0) / 12.0) /
        ((double) f * f) - 1.0 / 3.0);
  }
  a->r = gaussian_radius (a->sc);
  a->o = -(a->r + 3) * f;
  a->n = (size - 1) / f + 2 * a->r + 6;
}

/* The rows of field f as a channel of their own */
static CfxPlane
field_of (CfxPlane c, int field_step, int f)
{
  c.data += (size_t) f * c.pitch;
  c.height = field_rows (c.height, field_step, f);
  c.pitch *= field_step;
  return c;
}

static size_t
coarse_size (int width, int rows, double sigma_x, double sigma_y)
{
  CfxBlurAxis ax, ay;

  if (width <= 0 || rows <= 0)
    return 0;
  plan_axis (sigma_x, width, &ax);
  plan_axis (sigma_y, rows, &ay);
  return align_up (cfx_blur_coarse_bytes (&ax, &ay));
}

extern "C" size_t
cfx_blur_gaussian_scratch_size (int width, int height, double sigma_x,
    double sigma_y, int field_step)
{
  size_t size = 0;
  int f;

  if (width <= 0 || height <= 0 || !valid_step (field_step)
      || cfx_blur_gaussian_path (width, height, sigma_x, sigma_y,
          field_step) == CFX_BLUR_PATH_DIRECT)
    return 0;
  for (f = 0; f < field_step; f++)
    size += coarse_size (width, field_rows (height, field_step, f), sigma_x,
        sigma_y);
  return size;
}

extern "C" size_t
cfx_blur_box_scratch_size (int width, int height, int radius_x,
    int radius_y, int field_step)
{
  size_t size = 0;
  int f;

  (void) radius_x;              /* the sums are per row: any width */
  if (width <= 0 || height <= 0 || !valid_step (field_step))
    return 0;
  for (f = 0; f < field_step; f++)
    size += align_up (cfx_blur_box_sums_bytes (width, field_rows (height,
                field_step, f), radius_y));
  return size;
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
  /* The decimated path takes every sigma above some threshold. While
   * neither axis changes its decimation factor, the coarse grids only
   * grow with sigma: the largest are at sigma_max and just below where an
   * axis's factor changes (axis sigma 8, 16, 32, ...). */
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

static int
valid_samples (const CfxPlane * d, const CfxPlane * s)
{
  if (s->bytes == 1)
    return d->bytes == 1;
  return s->bytes == 2 && d->bytes == 2 && s->depth == d->depth
      && s->shift == d->shift && s->depth >= 1 && s->depth + s->shift <= 16
      && s->step >= 2 && d->step >= 2;
}

/* The amount the kernels take: CFX_BLUR_NO_SHARPEN, or the unsharp
 * mask's */
static int
kernel_amount (const CfxBlurChannel * c)
{
  return c->sharpen ? c->amount : CFX_BLUR_NO_SHARPEN;
}

static int
valid_channel (const CfxBlurChannel * c)
{
  return (!c->sharpen || (c->amount >= 0
          && c->amount <= CFX_BLUR_MAX_AMOUNT))
      && c->dst.width == c->src.width && c->dst.height == c->src.height
      && c->src.width >= 0 && c->src.height >= 0 && c->src.step >= 1
      && c->dst.step >= 1 && valid_samples (&c->dst, &c->src)
      && (c->src.width == 0 || c->src.height == 0
      || (c->src.data && c->dst.data));
}

/* A 16-bit sub-channel's scratch: room for the largest taps of the two
 * passes whatever this blur's radii (a box's radii are not bounded by
 * it), twice, then the plane between the passes (floats or 32-bit sums) */
static size_t
blur16_taps_bytes (void)
{
  return align_up ((size_t) (gaussian_radius (CFX_BLUR_MAX_SIGMA) + 1) *
      sizeof (double));
}

static size_t
blur16_sub_bytes (int width, int height)
{
  return 2 * blur16_taps_bytes () + align_up ((size_t) width * height * 4);
}

/* Scratch bytes enough for any blur of a 16-bit component of this size */
static size_t
blur16_scratch_bound (int width, int height, int field_step)
{
  size_t size = 0;
  int f;

  if (width <= 0 || height <= 0 || !valid_step (field_step))
    return 0;
  for (f = 0; f < field_step; f++)
    size += align_up (blur16_sub_bytes (width, field_rows (height,
                field_step, f)));
  return size;
}

/* Scratch bytes of a 16-bit channel in a call: its non-empty fields' */
static size_t
blur16_bytes (const CfxBlurChannel * c, int field_step)
{
  size_t size = 0;
  int f;

  for (f = 0; f < field_step; f++) {
    CfxPlane s = field_of (c->src, field_step, f);

    if (s.width > 0 && s.height > 0)
      size += align_up (blur16_sub_bytes (s.width, s.height));
  }
  return size;
}

/* 1: radii up to 16 take the fused kernel (the elements); 0: the two
 * tiled passes (the benchmark's comparison) */
static int use_fused = 1;

extern "C" void
cfx_blur16_use_fused (int on)
{
  __atomic_store_n (&use_fused, on ? 1 : 0, __ATOMIC_RELAXED);
}

/* The launches of one 16-bit sub-channel, each checked by its own status */
static cudaError_t
blur16_launch (const CfxBlur16 * s, int box, cudaStream_t stream)
{
  if (box)
    return cfx_blur16_box_launch (s, stream);
  if (cfx_blur16_fused_takes (&s->src, s->rx, s->ry)
      && __atomic_load_n (&use_fused, __ATOMIC_RELAXED))
    return cfx_blur16_fused_launch (s, stream);
  return cfx_blur16_passes_launch (s, stream);
}

/* The 16-bit channels of a call, each field a sub-channel with its part
 * of the scratch from @used on (the caller checked the scratch holds
 * their blur16_bytes) */
static cudaError_t
blur16 (const CfxBlurChannel * channels, int n, int field_step, int box,
    void *scratch, size_t used, cudaStream_t stream)
{
  CfxBlur16 subs[CFX_BLUR_MAX_SUBS];
  const size_t taps = blur16_taps_bytes ();
  cudaError_t err = cudaSuccess;
  int ns = 0, i, f;

  for (i = 0; i < n; i++) {
    const CfxBlurChannel *c = &channels[i];

    if (c->src.bytes != 2)
      continue;
    for (f = 0; f < field_step; f++) {
      CfxPlane d = field_of (c->dst, field_step, f), s = field_of (c->src,
          field_step, f);
      uint8_t *mine = (uint8_t *) scratch + used;
      CfxBlur16 *x;

      if (s.width <= 0 || s.height <= 0)
        continue;
      x = &subs[ns++];
      x->dst = d;
      x->src = s;
      x->amount = kernel_amount (c);
      x->sigma_x = c->sigma_x;
      x->sigma_y = c->sigma_y;
      if (box) {
        x->rx = c->radius_x > 0 ? c->radius_x : 0;
        x->ry = c->radius_y > 0 ? c->radius_y : 0;
      } else {
        x->rx = gaussian_radius (c->sigma_x);
        x->ry = gaussian_radius (c->sigma_y);
      }
      x->wx = (double *) mine;
      x->wy = (double *) (mine + taps);
      x->plane = mine + 2 * taps;
      used += align_up (blur16_sub_bytes (s.width, s.height));
    }
  }
  for (i = 0; i < ns && err == cudaSuccess; i++)
    err = blur16_launch (&subs[i], box, stream);
  return err;
}

static int
valid_call (const CfxBlurChannel * channels, int n, int field_step)
{
  int i;

  if (n < 0 || n > CFX_BLUR_MAX_CHANNELS || !valid_step (field_step)
      || (n && !channels))
    return 0;
  for (i = 0; i < n; i++)
    if (!valid_channel (&channels[i]))
      return 0;
  return 1;
}

extern "C" cudaError_t
cfx_blur_gaussian_multi (const CfxBlurChannel * channels, int n,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream)
{
  CfxBlurDirect direct[CFX_BLUR_MAX_SUBS];
  CfxBlurCoarse coarse[CFX_BLUR_MAX_SUBS];
  size_t used = 0;
  int nd = 0, nc = 0, i, f;
  cudaError_t err = cudaSuccess;

  if (!valid_call (channels, n, field_step))
    return cudaErrorInvalidValue;
  for (i = 0; i < n; i++) {
    const CfxBlurChannel *c = &channels[i];
    if (!(c->sigma_x <= CFX_BLUR_MAX_SIGMA)
        || !(c->sigma_y <= CFX_BLUR_MAX_SIGMA))
      return cudaErrorInvalidValue;
    used += c->src.bytes == 1 ?
        cfx_blur_gaussian_scratch_size (c->src.width, c->src.height,
        c->sigma_x, c->sigma_y, field_step) : blur16_bytes (c, field_step);
  }
  if (used > scratch_size || (used && !scratch))
    return cudaErrorInvalidValue;

  used = 0;
  for (i = 0; i < n; i++) {
    const CfxBlurChannel *c = &channels[i];
    const CfxBlurPath path = cfx_blur_gaussian_path (c->src.width,
        c->src.height, c->sigma_x, c->sigma_y, field_step);

    if (c->src.bytes != 1)
      continue;

    for (f = 0; f < field_step; f++) {
      CfxPlane d = field_of (c->dst, field_step, f), s = field_of (c->src,
          field_step, f);

      if (s.width <= 0 || s.height <= 0)
        continue;
      if (path == CFX_BLUR_PATH_DIRECT) {
        CfxBlurDirect *x = &direct[nd++];
        x->dst = d;
        x->src = s;
        x->amount = kernel_amount (c);
        x->sum_x = direct_taps (c->sigma_x, s.width, x->wx, &x->rx);
        x->sum_y = direct_taps (c->sigma_y, s.height, x->wy, &x->ry);
      } else {
        CfxBlurCoarse *x = &coarse[nc++];
        x->dst = d;
        x->src = s;
        x->amount = kernel_amount (c);
        plan_axis (c->sigma_x, s.width, &x->ax);
        plan_axis (c->sigma_y, s.height, &x->ay);
        x->scratch = (uint8_t *) scratch + used;
        used += align_up (cfx_blur_coarse_bytes (&x->ax, &x->ay));
      }
    }
  }
  if (nd)
    err = cfx_blur_direct_launch (direct, nd, stream);
  if (nc && err == cudaSuccess)
    err = cfx_blur_coarse_launch (coarse, nc, stream);
  if (err == cudaSuccess)
    err = blur16 (channels, n, field_step, 0, scratch, used, stream);
  return err;
}

extern "C" cudaError_t
cfx_blur_box_multi (const CfxBlurChannel * channels, int n, int field_step,
    void *scratch, size_t scratch_size, cudaStream_t stream)
{
  CfxBlurBox box[CFX_BLUR_MAX_SUBS];
  size_t used = 0;
  int nb = 0, i, f;

  if (!valid_call (channels, n, field_step))
    return cudaErrorInvalidValue;
  for (i = 0; i < n; i++) {
    const CfxBlurChannel *c = &channels[i];
    const int rx = c->radius_x > 0 ? c->radius_x : 0;
    const int ry = c->radius_y > 0 ? c->radius_y : 0;

    /* n (2 rx + 1) (2 ry + 1) * 255 must stay below 2^30; 16-bit: the
     * row sums (2 rx + 1) * 65535 below 2^31 */
    if ((2.0 * rx + 1.0) * (2.0 * ry + 1.0) > 4.0e6
        || (c->src.bytes == 2 && rx > 16000))
      return cudaErrorInvalidValue;
    used += c->src.bytes == 1 ?
        cfx_blur_box_scratch_size (c->src.width, c->src.height, rx, ry,
        field_step) : blur16_bytes (c, field_step);
  }
  if (used > scratch_size || (used && !scratch))
    return cudaErrorInvalidValue;

  used = 0;
  for (i = 0; i < n; i++) {
    const CfxBlurChannel *c = &channels[i];

    if (c->src.bytes != 1)
      continue;

    for (f = 0; f < field_step; f++) {
      CfxPlane d = field_of (c->dst, field_step, f), s = field_of (c->src,
          field_step, f);
      CfxBlurBox *x;

      if (s.width <= 0 || s.height <= 0)
        continue;
      x = &box[nb++];
      x->dst = d;
      x->src = s;
      x->amount = kernel_amount (c);
      x->rx = c->radius_x > 0 ? c->radius_x : 0;
      x->ry = c->radius_y > 0 ? c->radius_y : 0;
      x->scratch = (uint8_t *) scratch + used;
      used += align_up (cfx_blur_box_sums_bytes (s.width, s.height, x->ry));
    }
  }
  if (nb) {
    cudaError_t err = cfx_blur_box_launch (box, nb, stream);

    if (err != cudaSuccess)
      return err;
  }
  return blur16 (channels, n, field_step, 1, scratch, used, stream);
}

/* A box radius in luma pixels on an axis whose samples are @s luma
 * pixels apart */
static int
scale_radius (int radius, int s)
{
  const int r = (radius + s / 2) / s;

  return s == 1 ? radius : r > 1 ? r : 1;
}

extern "C" CfxBlurChannel
cfx_blur_channel (CfxPlane dst, CfxPlane src, double sigma, int radius,
    int sub_x, int sub_y)
{
  CfxBlurChannel c;

  memset (&c, 0, sizeof (c));
  c.dst = dst;
  c.src = src;
  c.sigma_x = sigma / sub_x;
  c.sigma_y = sigma / sub_y;
  c.radius_x = scale_radius (radius, sub_x);
  c.radius_y = scale_radius (radius, sub_y);
  return c;
}

extern "C" cudaError_t
cfx_blur_gaussian (CfxPlane dst, CfxPlane src, double sigma_x,
    double sigma_y, int field_step, void *scratch, size_t scratch_size,
    cudaStream_t stream)
{
  CfxBlurChannel c;

  memset (&c, 0, sizeof (c));
  c.dst = dst;
  c.src = src;
  c.sigma_x = sigma_x;
  c.sigma_y = sigma_y;
  return cfx_blur_gaussian_multi (&c, 1, field_step, scratch, scratch_size,
      stream);
}

extern "C" cudaError_t
cfx_blur_box (CfxPlane dst, CfxPlane src, int radius_x, int radius_y,
    int field_step, void *scratch, size_t scratch_size, cudaStream_t stream)
{
  CfxBlurChannel c;

  memset (&c, 0, sizeof (c));
  c.dst = dst;
  c.src = src;
  c.radius_x = radius_x;
  c.radius_y = radius_y;
  return cfx_blur_box_multi (&c, 1, field_step, scratch, scratch_size,
      stream);
}

/* ---- the blur's state: its scratch ----------------------------------- */

struct _CfxBlur
{
  void *scratch;
  size_t size;
};

extern "C" CfxBlur *
cfx_blur_new (void)
{
  return (CfxBlur *) calloc (1, sizeof (CfxBlur));
}

static void
free_scratch (CfxBlur * blur)
{
  /* cudaFree waits for the device: no queued blur still uses it */
  cudaFree (blur->scratch);
  blur->scratch = NULL;
  blur->size = 0;
}

extern "C" void
cfx_blur_free (CfxBlur * blur)
{
  if (!blur)
    return;
  if (blur->scratch)
    free_scratch (blur);
  free (blur);
}

extern "C" size_t
cfx_blur_scratch_bytes (const CfxBlurComponent * comps, int n,
    int max_field_step, double sigma_max)
{
  size_t need = 0;
  int step, c;

  /* the components of a frame are blurred in one call, each in its own
   * part of the scratch; fields step twice as far vertically */
  for (step = 1; step <= max_field_step && step <= 2; step++) {
    size_t sum = 0;

    for (c = 0; c < n; c++) {
      const CfxBlurComponent *k = &comps[c];

      sum += k->depth > 8 ?
          blur16_scratch_bound (k->width, k->height, step) :
          cfx_blur_scratch_bound (k->width, k->height, k->sub_x,
          k->sub_y * step, step, sigma_max);
    }
    if (sum > need)
      need = sum;
  }
  return need;
}

extern "C" cudaError_t
cfx_blur_reserve (CfxBlur * blur, size_t bytes)
{
  cudaError_t err;

  if (!blur)
    return cudaErrorInvalidValue;
  if (bytes <= blur->size)
    return cudaSuccess;
  if (blur->scratch)
    free_scratch (blur);
  err = cudaMalloc (&blur->scratch, bytes);
  if (err != cudaSuccess) {
    blur->scratch = NULL;
    return err;
  }
  blur->size = bytes;
  return cudaSuccess;
}

extern "C" cudaError_t
cfx_blur_gaussian_frame (CfxBlur * blur, const CfxBlurChannel * channels,
    int n, int field_step, cudaStream_t stream)
{
  if (!blur)
    return cudaErrorInvalidValue;
  return cfx_blur_gaussian_multi (channels, n, field_step, blur->scratch,
      blur->size, stream);
}

extern "C" cudaError_t
cfx_blur_box_frame (CfxBlur * blur, const CfxBlurChannel * channels, int n,
    int field_step, cudaStream_t stream)
{
  if (!blur)
    return cudaErrorInvalidValue;
  return cfx_blur_box_multi (channels, n, field_step, blur->scratch,
      blur->size, stream);
}
