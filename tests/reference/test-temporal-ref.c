/* Self-test of the temporal degrain CPU reference (temporal.c). Exit 0
 * pass, 1 fail. Clips of an analytic texture (so that a sub-pixel pan is
 * sampled exactly, not interpolated) with Gaussian noise:
 * - radius 0 is the spatial degrain (Wiener, 5 levels) within 1;
 * - a still clip: radius 2 gains over radius 0;
 * - a pan of (0.7, 1.3) px a frame: radius 2 gains over radius 0 (the
 *   motion is followed), and over a plain mean of the five frames
 *   (which ghosts);
 * - a scene cut: a frame next to the cut takes nothing from the other
 *   shot (its output equals that of the clip cut there). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"
#include "ref-test.h"

#define W 96
#define H 80
#define N 8
#define SIGMA 10.0f

static int failures;
static uint32_t rng_state = 777u;

static double
texture (int kind, double x, double y)
{
  if (kind == 0)
    return 128 + 45 * sin (0.21 * x + 0.07 * y) + 30 * sin (0.05 * x -
        0.17 * y) + 20 * cos (0.31 * y + 0.02 * x * x / W);
  return 110 + 60 * sin (0.09 * x * y / H) + 25 * cos (0.4 * x - 0.3 * y);
}

static double
gauss (void)
{
  double u = (cfx_ref_xorshift32 (&rng_state) + 1.0) / 4294967297.0;
  double v = (cfx_ref_xorshift32 (&rng_state) + 1.0) / 4294967297.0;

  return sqrt (-2.0 * log (u)) * cos (2.0 * M_PI * v);
}

static uint8_t
clip8 (double v)
{
  v = floor (v + 0.5);
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Frame t of a clip: @kind's texture moved by (dx, dy) * t, clean and with
 * noise */
static void
make (uint8_t * clean, uint8_t * noisy, int kind, double dx, double dy,
    int t)
{
  int x, y;

  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      double v = texture (kind, x - dx * t, y - dy * t);

      clean[y * W + x] = clip8 (v);
      noisy[y * W + x] = clip8 (v + SIGMA * gauss ());
    }
}

static double
psnr (const uint8_t * a, const uint8_t * b)
{
  double se = 0;
  int i;

  for (i = 0; i < W * H; i++)
    se += (a[i] - (double) b[i]) * (a[i] - b[i]);
  return 10 * log10 (255.0 * 255.0 / (se / (W * H)));
}

typedef struct
{
  uint8_t clean[N][W * H], noisy[N][W * H];
  const uint8_t *frames[N];
} Clip;

static void
make_clip (Clip * c, double dx, double dy, int cut)
{
  int t;

  for (t = 0; t < N; t++) {
    make (c->clean[t], c->noisy[t], cut && t >= cut ? 1 : 0, dx, dy, t);
    c->frames[t] = c->noisy[t];
  }
}

static double
psnr_at (const Clip * c, int t, int radius)
{
  uint8_t out[W * H];

  cfx_ref_temporal_degrain (out, c->frames, N, t, W, H, radius, SIGMA);
  return psnr (out, c->clean[t]);
}

static void
test_radius0_is_spatial (void)
{
  static Clip c;
  uint8_t out[W * H], want[W * H];
  CfxRefPlane src, dst = { want, W, W, H };
  CfxRefDegrainParams p = { CFX_REF_SHRINK_WIENER, 5, SIGMA, 1.0f, 1.0f, 0,
    4
  };
  int i, max = 0;

  make_clip (&c, 0, 0, 0);
  src.data = c.noisy[3];
  src.stride = W;
  src.width = W;
  src.height = H;
  cfx_ref_degrain_plane (&dst, &src, &p);
  cfx_ref_temporal_degrain (out, c.frames, N, 3, W, H, 0, SIGMA);
  for (i = 0; i < W * H; i++)
    max = abs (out[i] - want[i]) > max ? abs (out[i] - want[i]) : max;
  CHECK (max <= 1, "radius 0 differs from the spatial degrain by %d", max);
}

static void
test_gains (const char *what, double dx, double dy, double min_gain)
{
  static Clip c;
  uint8_t mean[W * H];
  double p0, p2, pm;
  int i, s;

  make_clip (&c, dx, dy, 0);
  p0 = psnr_at (&c, 4, 0);
  p2 = psnr_at (&c, 4, 2);
  for (i = 0; i < W * H; i++) {
    int sum = 0;

    for (s = 2; s <= 6; s++)
      sum += c.noisy[s][i];
    mean[i] = clip8 (sum / 5.0);
  }
  pm = psnr (mean, c.clean[4]);
  printf ("%s: noisy %.2f dB, spatial %.2f, temporal radius 2 %.2f, plain "
      "mean of 5 frames %.2f\n", what, psnr (c.noisy[4], c.clean[4]), p0, p2,
      pm);
  CHECK (p2 >= p0 + min_gain, "%s: radius 2 gains %.2f dB over spatial, "
      "want %.1f", what, p2 - p0, min_gain);
  if (dx != 0 || dy != 0)
    CHECK (p2 > pm + 1.0, "%s: radius 2 (%.2f) not above the plain mean "
        "(%.2f)", what, p2, pm);
}

/* Frames next to a cut at 4 equal the same frames denoised in their own
 * shot alone (the clip cut there): nothing of the other shot enters */
static void
test_scene_cut (void)
{
  static Clip c;
  uint8_t a[W * H], b[W * H];

  make_clip (&c, 0.7, 1.3, 4);
  cfx_ref_temporal_degrain (a, c.frames, N, 3, W, H, 2, SIGMA);
  cfx_ref_temporal_degrain (b, c.frames, 4, 3, W, H, 2, SIGMA);
  CHECK (memcmp (a, b, sizeof (a)) == 0, "frame 3 before a cut at 4 took "
      "something from the other shot");
  cfx_ref_temporal_degrain (a, c.frames, N, 4, W, H, 2, SIGMA);
  cfx_ref_temporal_degrain (b, c.frames + 4, N - 4, 0, W, H, 2, SIGMA);
  CHECK (memcmp (a, b, sizeof (a)) == 0, "frame 4 after a cut at 4 took "
      "something from the other shot");
}

int
main (void)
{
  test_radius0_is_spatial ();
  test_gains ("still", 0, 0, 2.0);
  test_gains ("pan (0.7, 1.3) px a frame", 0.7, 1.3, 1.0);
  test_scene_cut ();
  printf ("%d failures\n", failures);
  return failures ? 1 : 0;
}
