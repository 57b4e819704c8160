/* Self-test of the degrain CPU reference (degrain.c). Exit 0 pass, 1 fail.
 *
 * - exact reconstruction with identity shrink, levels 1..8, odd and even
 *   sizes down to 1x1 (error < 1e-4);
 * - band gains against the table of kernels/degrain.md;
 * - known answers on tiny inputs, worked out by hand;
 * - soft with sigma 0 is the identity, amount 0 gives the input back,
 *   noise output of a flat image is 128;
 * - the noise estimator on hand-made inputs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"
#include "ref-test.h"

static int failures;

static uint32_t rng_state = 12345u;

static uint32_t
rng (void)
{
  return cfx_ref_xorshift32 (&rng_state);
}

static CfxRefDegrainParams
params (CfxRefShrink shrink, int levels, float sigma)
{
  CfxRefDegrainParams p;

  p.shrink = shrink;
  p.levels = levels;
  p.sigma = sigma;
  p.strength = 1.0f;
  p.amount = 1.0f;
  p.output_noise = 0;
  p.wiener_radius = 4;
  return p;
}

/* ---- reconstruction ---------------------------------------------------- */

static void
test_reconstruction (void)
{
  static const int sizes[][2] = { {1, 1}, {2, 3}, {33, 17}, {64, 48},
  {257, 131}
  };
  unsigned s;
  int levels;

  for (s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++) {
    int w = sizes[s][0], h = sizes[s][1];
    long n = (long) w * h, i;
    float *in = malloc (n * sizeof (float));
    float *out = malloc (n * sizeof (float));

    for (i = 0; i < n; i++)
      in[i] = (rng () >> 8) * (255.0f / 16777216.0f);

    for (levels = 1; levels <= 8; levels++) {
      CfxRefDegrainParams p = params (CFX_REF_SHRINK_IDENTITY, levels, 10.0f);
      double maxerr = 0.0;

      for (i = 0; i < n; i++)
        out[i] = -1000.0f;
      cfx_ref_degrain_float (out, in, w, h, &p);
      for (i = 0; i < n; i++) {
        double e = fabs ((double) out[i] - in[i]);

        if (e > maxerr)
          maxerr = e;
      }
      CHECK (maxerr < 1e-4, "reconstruction %dx%d levels %d: error %g",
          w, h, levels, maxerr);
    }

    /* 8-bit path: identity gives the plane back exactly */
    {
      uint8_t *a = malloc (n), *b = malloc (n);
      CfxRefPlane pa = { a, w, w, h }, pb = { b, w, w, h };
      CfxRefDegrainParams p = params (CFX_REF_SHRINK_IDENTITY, 8, 10.0f);

      for (i = 0; i < n; i++)
        a[i] = rng () & 255;
      cfx_ref_degrain_plane (&pb, &pa, &p);
      CHECK (memcmp (a, b, n) == 0, "identity plane %dx%d not exact", w, h);
      free (a);
      free (b);
    }

    free (in);
    free (out);
  }
}

/* ---- band gains -------------------------------------------------------- */

static void
test_gains (void)
{
  /* kernels/degrain.md: LH, HL, HH for levels 0..3 */
  static const double table[4][3] = {
    {0.375, 0.375, 0.375},
    {0.137, 0.137, 0.109},
    {0.061, 0.061, 0.045},
    {0.030, 0.030, 0.021},
  };
  int l, b;

  for (l = 0; l < 4; l++)
    for (b = 0; b < 3; b++) {
      double g = cfx_ref_degrain_band_gain (l, b);

      CHECK (fabs (floor (g * 1000.0 + 0.5) - table[l][b] * 1000.0) < 0.01,
          "gain(%d,%d) = %.6f, table %.3f", l, b, g, table[l][b]);
    }

  /* closed forms: level 0 is [-1,2,-1]/4 per axis, |.|^2 = 3/8 each;
   * level 1 HH: low_0 * high_1 = [-1,-2,1,4,1,-2,-1]/16, |.|^2 = 7/64 */
  CHECK (fabs (cfx_ref_degrain_band_gain (0, 2) - 0.375) < 1e-12,
      "gain(0,HH) %.12f", cfx_ref_degrain_band_gain (0, 2));
  CHECK (fabs (cfx_ref_degrain_band_gain (1, 2) - 7.0 / 64.0) < 1e-12,
      "gain(1,HH) %.12f", cfx_ref_degrain_band_gain (1, 2));
  /* low_0 * low_1 = [1,2,3,4,3,2,1]/16, |.|^2 = 44/256 */
  CHECK (fabs (cfx_ref_degrain_band_gain (1, 0) -
          sqrt (44.0 / 256.0 * 7.0 / 64.0)) < 1e-12, "gain(1,LH) %.12f",
      cfx_ref_degrain_band_gain (1, 0));
  for (l = 0; l < 8; l++)
    CHECK (cfx_ref_degrain_band_gain (l, 0) ==
        cfx_ref_degrain_band_gain (l, 1), "gain(%d) LH != HL", l);
}

/* ---- known answers ----------------------------------------------------- */

static int
near (const float *a, const float *b, int n, double tol)
{
  int i;

  for (i = 0; i < n; i++)
    if (fabs ((double) a[i] - b[i]) > tol)
      return 0;
  return 1;
}

static void
test_known_answers (void)
{
  /* every band zeroed (soft, huge sigma): the result is LL of the last
   * level */
  CfxRefDegrainParams kill = params (CFX_REF_SHRINK_SOFT, 1, 1e6f);
  float out[9];

  /* 1x3 [1 5 3], level 0, horizontally (x[-1] reads 5, x[3] reads 5):
   *   H = (1 - 5) / 2 = -2, (5 - 2) / 2 = 1.5, (3 - 5) / 2 = -1
   *   L = 3, 3.5, 4; vertically (height 1) H and L are all low. */
  {
    static const float in[3] = { 1, 5, 3 };
    static const float ll[3] = { 3, 3.5f, 4 };
    /* soft, sigma_b = 0.5 = sigma * gain(0, HL) = (4/3) * 0.375:
     * HL' = -1.5, 1, -0.5; LH = HH = 0 */
    static const float soft[3] = { 1.5f, 4.5f, 3.5f };
    CfxRefDegrainParams p = params (CFX_REF_SHRINK_SOFT, 1, 4.0f / 3.0f);

    cfx_ref_degrain_float (out, in, 3, 1, &kill);
    CHECK (near (out, ll, 3, 1e-6), "1x3 LL: %g %g %g", out[0], out[1],
        out[2]);
    /* the same signal as a column is split vertically: same numbers */
    cfx_ref_degrain_float (out, in, 1, 3, &kill);
    CHECK (near (out, ll, 3, 1e-6), "3x1 LL: %g %g %g", out[0], out[1],
        out[2]);
    cfx_ref_degrain_float (out, in, 3, 1, &p);
    CHECK (near (out, soft, 3, 1e-5), "1x3 soft: %g %g %g", out[0], out[1],
        out[2]);
    cfx_ref_degrain_float (out, in, 1, 3, &p);
    CHECK (near (out, soft, 3, 1e-5), "3x1 soft: %g %g %g", out[0], out[1],
        out[2]);

    /* wiener, sigma_b = 0.5, 1x1 window: E = w^2, w' = w - 0.25 / w:
     * HL' = -1.875, 1.5 - 1/6, -0.75 */
    {
      const float w1[3] = { 1.125f, 3.5f + 1.5f - 0.25f / 1.5f, 3.25f };
      /* 3x3 window: the 1x3 image mirrored, columns (1 0 1), (0 1 2),
       * (1 2 1), rows all 0: E = (2.25 + 4 + 2.25) / 3, (4 + 2.25 + 1) / 3,
       * (2.25 + 1 + 2.25) / 3, w' = w * (E - .25) / E */
      const double e[3] = { 8.5 / 3, 7.25 / 3, 5.5 / 3 };
      const double hl[3] = { -2, 1.5, -1 };
      float w3[3];
      int i;

      for (i = 0; i < 3; i++)
        w3[i] = (float) (ll[i] + hl[i] * (e[i] - 0.25) / e[i]);

      p.shrink = CFX_REF_SHRINK_WIENER;
      p.wiener_radius = 0;
      cfx_ref_degrain_float (out, in, 3, 1, &p);
      CHECK (near (out, w1, 3, 1e-5), "1x3 wiener 1x1: %g %g %g", out[0],
          out[1], out[2]);
      cfx_ref_degrain_float (out, in, 1, 3, &p);
      CHECK (near (out, w1, 3, 1e-5), "3x1 wiener 1x1: %g %g %g", out[0],
          out[1], out[2]);
      p.wiener_radius = 1;
      cfx_ref_degrain_float (out, in, 3, 1, &p);
      CHECK (near (out, w3, 3, 1e-5), "1x3 wiener 3x3: %g %g %g", out[0],
          out[1], out[2]);
      cfx_ref_degrain_float (out, in, 1, 3, &p);
      CHECK (near (out, w3, 3, 1e-5), "3x1 wiener 3x3: %g %g %g", out[0],
          out[1], out[2]);
    }
  }

  /* 1x5 [0 0 4 0 0]: level 0 gives L = [0 1 2 1 0]; level 1 (r = 2,
   * mirror: -2 -> 2, -1 -> 1, 5 -> 3, 6 -> 2) gives H = [-1 0 1 0 -1],
   * L = [1 1 1 1 1]. */
  {
    static const float in[5] = { 0, 0, 4, 0, 0 };
    static const float l0[5] = { 0, 1, 2, 1, 0 };
    static const float l1[5] = { 1, 1, 1, 1, 1 };
    float o5[5];

    cfx_ref_degrain_float (o5, in, 5, 1, &kill);
    CHECK (near (o5, l0, 5, 1e-6), "1x5 level 0 LL");
    kill.levels = 2;
    cfx_ref_degrain_float (o5, in, 5, 1, &kill);
    CHECK (near (o5, l1, 5, 1e-6), "1x5 level 1 LL");
    cfx_ref_degrain_float (o5, in, 1, 5, &kill);
    CHECK (near (o5, l1, 5, 1e-6), "5x1 level 1 LL");
    kill.levels = 1;
  }

  /* 3x3 impulse: along each axis [0 1 0] -> low [.5 .5 .5] (ends:
   * (0 - 1) / 2 = -.5 high, .5 low), so LL = .5 * .5 = 0.25 everywhere */
  {
    static const float in[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
    int i, ok = 1;

    cfx_ref_degrain_float (out, in, 3, 3, &kill);
    for (i = 0; i < 9; i++)
      if (fabs (out[i] - 0.25f) > 1e-6)
        ok = 0;
    CHECK (ok, "3x3 impulse LL");
  }

  /* 1x1: every band is 0 at every level, the result is the input */
  {
    float one = 77.0f, o1;

    kill.levels = 8;
    cfx_ref_degrain_float (&o1, &one, 1, 1, &kill);
    CHECK (o1 == 77.0f, "1x1: %g", o1);
  }
}

/* ---- properties -------------------------------------------------------- */

static void
test_properties (void)
{
  int w = 45, h = 38, i, n = 45 * 38;
  float *in = malloc (n * sizeof (float));
  float *a = malloc (n * sizeof (float));
  float *b = malloc (n * sizeof (float));
  uint8_t *src = malloc (n), *dst = malloc (n);
  CfxRefPlane ps = { src, w, w, h }, pd = { dst, w, w, h };
  CfxRefDegrainParams p;

  for (i = 0; i < n; i++) {
    src[i] = rng () & 255;
    in[i] = src[i];
  }

  /* soft with sigma 0 is exactly the identity (same float result) */
  p = params (CFX_REF_SHRINK_IDENTITY, 5, 0.0f);
  cfx_ref_degrain_float (a, in, w, h, &p);
  p = params (CFX_REF_SHRINK_SOFT, 5, 0.0f);
  cfx_ref_degrain_float (b, in, w, h, &p);
  CHECK (memcmp (a, b, n * sizeof (float)) == 0, "soft sigma 0 != identity");
  cfx_ref_degrain_plane (&pd, &ps, &p);
  CHECK (memcmp (src, dst, n) == 0, "soft sigma 0 plane != input");
  /* wiener with sigma 0 too (up to float rounding of w * E / E) */
  p = params (CFX_REF_SHRINK_WIENER, 5, 0.0f);
  cfx_ref_degrain_plane (&pd, &ps, &p);
  CHECK (memcmp (src, dst, n) == 0, "wiener sigma 0 plane != input");

  /* amount 0 gives the input back */
  p = params (CFX_REF_SHRINK_WIENER, 5, 20.0f);
  p.amount = 0.0f;
  cfx_ref_degrain_plane (&pd, &ps, &p);
  CHECK (memcmp (src, dst, n) == 0, "wiener amount 0 != input");
  p.shrink = CFX_REF_SHRINK_SOFT;
  cfx_ref_degrain_plane (&pd, &ps, &p);
  CHECK (memcmp (src, dst, n) == 0, "soft amount 0 != input");

  /* result + noise = input + 128 (no clipping at these values) */
  {
    uint8_t *res = malloc (n);
    CfxRefPlane pr = { res, w, w, h };
    int ok = 1;

    for (i = 0; i < n; i++)
      src[i] = 64 + (rng () & 127);
    p = params (CFX_REF_SHRINK_WIENER, 4, 15.0f);
    p.amount = 0.7f;
    cfx_ref_degrain_plane (&pr, &ps, &p);
    p.output_noise = 1;
    cfx_ref_degrain_plane (&pd, &ps, &p);
    for (i = 0; i < n; i++)
      if (res[i] + dst[i] != src[i] + 128)
        ok = 0;
    CHECK (ok, "result + noise != input + 128");
    free (res);
  }

  /* a clean flat image: result = input, noise output 128 */
  {
    int s, ok_res = 1, ok_noise = 1;

    memset (src, 77, n);
    for (s = 0; s < 2; s++) {
      p = params (s ? CFX_REF_SHRINK_SOFT : CFX_REF_SHRINK_WIENER, 5, 10.0f);
      cfx_ref_degrain_plane (&pd, &ps, &p);
      for (i = 0; i < n; i++)
        if (dst[i] != 77)
          ok_res = 0;
      p.output_noise = 1;
      cfx_ref_degrain_plane (&pd, &ps, &p);
      for (i = 0; i < n; i++)
        if (dst[i] != 128)
          ok_noise = 0;
    }
    CHECK (ok_res, "flat result != input");
    CHECK (ok_noise, "flat noise != 128");
  }

  /* in place (dst == src) works */
  {
    uint8_t *copy = malloc (n);

    for (i = 0; i < n; i++)
      src[i] = rng () & 255;
    p = params (CFX_REF_SHRINK_WIENER, 5, 12.0f);
    cfx_ref_degrain_plane (&pd, &ps, &p);
    memcpy (copy, src, n);
    {
      CfxRefPlane pc = { copy, w, w, h };
      cfx_ref_degrain_plane (&pc, &pc, &p);
    }
    CHECK (memcmp (copy, dst, n) == 0, "in place differs");
    free (copy);
  }

  free (in);
  free (a);
  free (b);
  free (src);
  free (dst);
}

/* ---- noise estimate ---------------------------------------------------- */

static double
gauss (void)
{
  double u1 = ((rng () >> 8) + 1) * (1.0 / 16777217.0);
  double u2 = (rng () >> 8) * (1.0 / 16777216.0);

  return sqrt (-2.0 * log (u1)) * cos (2.0 * 3.14159265358979323846 * u2);
}

static void
test_estimate (void)
{
  int w = 200, h = 150, x, y, i;
  uint8_t *d = malloc (w * h);
  CfxRefPlane p = { d, w, w, h };
  double want, got;

  /* flat: 0 */
  memset (d, 100, w * h);
  CHECK (cfx_ref_degrain_estimate_sigma (&p) == 0.0f, "flat sigma != 0");

  /* checkerboard 100 +- 10: |16 HH0| = 16 * 10 everywhere (also at the
   * mirrored borders), so M = 160 */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      d[y * w + x] = (x + y) & 1 ? 90 : 110;
  want = 160 / 16.0 / 0.6745 / 0.375 * 1.07;
  got = cfx_ref_degrain_estimate_sigma (&p);
  CHECK (fabs (got - want) < 1e-4, "checkerboard sigma %g want %g", got,
      want);

  /* one 32x32 tile: columns 0..15 flat 100, 16..31 checkerboard 90 / 110.
   * v = 0 in columns 0..14 (480 values), 40 in column 15 (32), 120 in
   * column 16 (32), 160 in columns 17..31 (480): the lower median (rank
   * 511) is 40, the upper one (rank 512) would be 120 */
  {
    CfxRefPlane t = { d, 32, 32, 32 };

    for (y = 0; y < 32; y++)
      for (x = 0; x < 32; x++)
        d[y * 32 + x] = x < 16 ? 100 : (x + y) & 1 ? 90 : 110;
    got = cfx_ref_degrain_estimate_sigma (&t);
    CHECK (fabs (got - 40 / 16.0 / 0.6745 / 0.375 * 1.07) < 1e-4,
        "lower median: sigma %g", got);
  }

  /* clipped flat areas do not count: rows 0..63 at 255, 64..127 at 0, the
   * rest checkerboard; 200x200 gives 6x6 tiles, 24 of them clipped
   * (excluded), 12 checkerboard ones count (k = 11 / 10 = 1) */
  {
    uint8_t *e = malloc (200 * 200);
    CfxRefPlane t = { e, 200, 200, 200 };

    for (y = 0; y < 200; y++)
      for (x = 0; x < 200; x++)
        e[y * 200 + x] = y < 64 ? 255 : y < 128 ? 0 : (x + y) & 1 ? 90 : 110;
    got = cfx_ref_degrain_estimate_sigma (&t);
    CHECK (fabs (got - want) < 1e-4, "clipped tiles counted: sigma %g", got);
    free (e);
  }

  /* a tile counts iff at least half of its v are valid: one 32x32 tile,
   * rows 0..n-1 at 255, the rest checkerboard; valid rows are n+1..31 */
  {
    CfxRefPlane t = { d, 32, 32, 32 };
    int clipped_rows;

    for (clipped_rows = 15; clipped_rows <= 16; clipped_rows++) {
      for (y = 0; y < 32; y++)
        for (x = 0; x < 32; x++)
          d[y * 32 + x] = y < clipped_rows ? 255 : (x + y) & 1 ? 90 : 110;
      got = cfx_ref_degrain_estimate_sigma (&t);
      /* 15: 16 valid rows = 512 of 1024, counts; 16: 480, does not */
      CHECK (fabs (got - (clipped_rows == 15 ? want : 0.0)) < 1e-4,
          "%d clipped rows: sigma %g", clipped_rows, got);
    }
  }

  /* the 10th percentile: 20 tiles in a row, checkerboards of amplitude
   * 1..20 in shuffled order; each tile's median is 16 * amplitude (its
   * 30x30 interior agrees); N = 20, k = 19 / 10 = 1: amplitude 2 */
  {
    static const int amp[20] = { 7, 13, 2, 19, 5, 11, 17, 1, 9, 15, 20, 3,
      12, 6, 18, 8, 14, 4, 16, 10
    };
    uint8_t *e = malloc (640 * 32);
    CfxRefPlane t = { e, 640, 640, 32 };

    for (y = 0; y < 32; y++)
      for (x = 0; x < 640; x++)
        e[y * 640 + x] = 100 + ((x + y) & 1 ? -1 : 1) * amp[x / 32];
    got = cfx_ref_degrain_estimate_sigma (&t);
    CHECK (fabs (got - 32 / 16.0 / 0.6745 / 0.375 * 1.07) < 1e-4,
        "percentile: sigma %g", got);
    free (e);
  }

  /* all clipped (0 / 255): no tile counts, sigma 0 */
  for (i = 0; i < w * h; i++)
    d[i] = (rng () & 1) ? 255 : 0;
  CHECK (cfx_ref_degrain_estimate_sigma (&p) == 0.0f, "clipped sigma != 0");

  /* tiny images: one tile per short axis, no crash; 1x1 gives 0 */
  {
    CfxRefPlane t = { d, w, 1, 1 };

    CHECK (cfx_ref_degrain_estimate_sigma (&t) == 0.0f, "1x1 sigma != 0");
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        d[y * w + x] = (x + y) & 1 ? 90 : 110;
    t.width = 7;
    t.height = 5;
    got = cfx_ref_degrain_estimate_sigma (&t);
    CHECK (fabs (got - want) < 1e-4, "7x5 checkerboard %g", got);
  }

  /* pure noise, sigma 10 around 128: within 10 % */
  for (i = 0; i < w * h; i++) {
    double v = floor (128.0 + 10.0 * gauss () + 0.5);

    d[i] = v < 0 ? 0 : v > 255 ? 255 : (uint8_t) v;
  }
  got = cfx_ref_degrain_estimate_sigma (&p);
  CHECK (fabs (got / 10.0 - 1.0) < 0.10, "noise sigma 10 estimated %g", got);

  free (d);
}

int
main (void)
{
  test_reconstruction ();
  test_gains ();
  test_known_answers ();
  test_properties ();
  test_estimate ();

  if (failures) {
    fprintf (stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf ("PASS\n");
  return 0;
}
