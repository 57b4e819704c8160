/* Known-answer tests for the blur references (blur.c) and cfx_ref_mirror.
 * Plain C: exit status 0 when everything passes, 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

#define PAD 5                   /* extra bytes per row, checked untouched */
#define SENTINEL 0xA5

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                        \
  do {                                                          \
    checks++;                                                   \
    if (!(cond)) {                                              \
      failures++;                                               \
      if (failures <= 50) {                                     \
        fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__);   \
        fprintf (stderr, __VA_ARGS__);                          \
        fprintf (stderr, "\n");                                 \
      }                                                         \
    }                                                           \
  } while (0)

/* ---- small image helpers ------------------------------------------------ */

typedef struct
{
  CfxRefPlane p;
  uint8_t *mem;
} Img;

static Img
img_new (int w, int h, int fill)
{
  Img im;

  im.p.width = w;
  im.p.height = h;
  im.p.stride = w + PAD;
  im.mem = malloc ((size_t) im.p.stride * h);
  if (!im.mem)
    abort ();
  memset (im.mem, SENTINEL, (size_t) im.p.stride * h);
  im.p.data = im.mem;
  if (fill >= 0) {
    int x, y;

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        im.mem[y * im.p.stride + x] = (uint8_t) fill;
  }
  return im;
}

static void
img_free (Img * im)
{
  free (im->mem);
}

static uint8_t
px (const Img * im, int x, int y)
{
  return im->mem[y * im->p.stride + x];
}

static void
set_px (Img * im, int x, int y, int v)
{
  im->mem[y * im->p.stride + x] = (uint8_t) v;
}

static int
padding_intact (const Img * im)
{
  int x, y;

  for (y = 0; y < im->p.height; y++)
    for (x = im->p.width; x < im->p.stride; x++)
      if (px (im, x, y) != SENTINEL)
        return 0;
  return 1;
}

static unsigned int rng_state = 12345u;

static int
rnd (int lo, int hi)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return lo + (int) ((rng_state >> 8) % (unsigned int) (hi - lo + 1));
}

static Img
img_random (int w, int h, int lo, int hi)
{
  Img im = img_new (w, h, 0);
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      set_px (&im, x, y, rnd (lo, hi));
  return im;
}

static int
img_equal (const Img * a, const Img * b)
{
  int x, y;

  for (y = 0; y < a->p.height; y++)
    for (x = 0; x < a->p.width; x++)
      if (px (a, x, y) != px (b, x, y))
        return 0;
  return 1;
}

/* blur dispatch: kind 0 = Gaussian (a, b are sigmas), 1 = box (radii) */
static void
blur (int kind, Img * dst, const Img * src, double a, double b, int step)
{
  if (kind == 0)
    cfx_ref_gaussian_blur (&dst->p, &src->p, a, b, step);
  else
    cfx_ref_box_blur (&dst->p, &src->p, (int) a, (int) b, step);
}

/* ---- cfx_ref_mirror --------------------------------------------------- */

static void
test_mirror (void)
{
  /* n = 5: period 8, pattern from 0: 0 1 2 3 4 3 2 1 | 0 1 2 ...
   * going left: -1 -> 1, -2 -> 2, -3 -> 3, -4 -> 4, -5 -> 3, -8 -> 0;
   * 100 = 12 * 8 + 4 -> 4; -100 = -13 * 8 + 4 -> 4; 1003 = 125 * 8 + 3 -> 3;
   * -1001 = -126 * 8 + 7 -> pattern[7] = 1 */
  static const int m5[][2] = {
    {0, 0}, {1, 1}, {4, 4}, {5, 3}, {6, 2}, {7, 1}, {8, 0}, {12, 4},
    {13, 3}, {-1, 1}, {-2, 2}, {-3, 3}, {-4, 4}, {-5, 3}, {-7, 1}, {-8, 0},
    {-9, 1}, {100, 4}, {-100, 4}, {1003, 3}, {-1001, 1},
  };
  /* n = 2: period 2, even -> 0, odd -> 1 */
  static const int m2[][2] = {
    {0, 0}, {1, 1}, {2, 0}, {3, 1}, {-1, 1}, {-2, 0}, {-3, 1}, {100, 0},
    {-101, 1}, {999, 1},
  };
  static const int m1[] = { 0, 1, -1, 2, -2, 7, -1000, 1000, 123457 };
  size_t i;

  for (i = 0; i < sizeof (m5) / sizeof (m5[0]); i++)
    CHECK (cfx_ref_mirror (m5[i][0], 5) == m5[i][1],
        "mirror(%d, 5) = %d, want %d", m5[i][0], cfx_ref_mirror (m5[i][0], 5),
        m5[i][1]);
  for (i = 0; i < sizeof (m2) / sizeof (m2[0]); i++)
    CHECK (cfx_ref_mirror (m2[i][0], 2) == m2[i][1],
        "mirror(%d, 2) = %d, want %d", m2[i][0], cfx_ref_mirror (m2[i][0], 2),
        m2[i][1]);
  for (i = 0; i < sizeof (m1) / sizeof (m1[0]); i++)
    CHECK (cfx_ref_mirror (m1[i], 1) == 0, "mirror(%d, 1) = %d, want 0",
        m1[i], cfx_ref_mirror (m1[i], 1));
}

/* ---- constant images stay constant -------------------------------------- */

static void
test_constant (void)
{
  static const int sizes[][2] = {
    {1, 1}, {2, 3}, {3, 2}, {1, 7}, {7, 1}, {7, 5}, {16, 9},
  };
  static const int values[] = { 0, 1, 128, 254, 255 };
  static const double sigmas[][2] = {
    {0.3, 0.3}, {0.5, 0.5}, {1.0, 1.0}, {2.5, 2.5}, {5.0, 5.0}, {20.0, 20.0},
    {1.0, 0.0}, {0.0, 3.0}, {4.0, 0.7},
  };
  static const int radii[][2] = {
    {0, 0}, {1, 0}, {0, 1}, {1, 1}, {3, 2}, {10, 10}, {50, 3},
  };
  size_t s, v, k;
  int step;

  for (s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++)
    for (v = 0; v < sizeof (values) / sizeof (values[0]); v++)
      for (step = 1; step <= 2; step++) {
        int w = sizes[s][0], h = sizes[s][1];
        Img src = img_new (w, h, values[v]);

        for (k = 0; k < sizeof (sigmas) / sizeof (sigmas[0]); k++) {
          Img dst = img_new (w, h, -1);

          cfx_ref_gaussian_blur (&dst.p, &src.p, sigmas[k][0], sigmas[k][1],
              step);
          CHECK (img_equal (&dst, &src) && padding_intact (&dst),
              "gauss constant %d on %dx%d sigma %g/%g step %d changed",
              values[v], w, h, sigmas[k][0], sigmas[k][1], step);
          img_free (&dst);
        }
        for (k = 0; k < sizeof (radii) / sizeof (radii[0]); k++) {
          Img dst = img_new (w, h, -1);

          cfx_ref_box_blur (&dst.p, &src.p, radii[k][0], radii[k][1], step);
          CHECK (img_equal (&dst, &src) && padding_intact (&dst),
              "box constant %d on %dx%d radius %d/%d step %d changed",
              values[v], w, h, radii[k][0], radii[k][1], step);
          img_free (&dst);
        }
        img_free (&src);
      }
}

/* ---- untouched axes ---------------------------------------------------- */

static void
test_untouched_axes (void)
{
  Img src = img_random (13, 11, 0, 255);
  Img dst = img_new (13, 11, -1);
  Img cols = img_new (13, 11, 0), rows = img_new (13, 11, 0);
  int x, y, step;

  /* both axes off: exact copy */
  for (step = 1; step <= 2; step++) {
    cfx_ref_gaussian_blur (&dst.p, &src.p, 0.0, -1.0, step);
    CHECK (img_equal (&dst, &src), "gauss sigma 0/-1 step %d not a copy",
        step);
    cfx_ref_box_blur (&dst.p, &src.p, 0, 0, step);
    CHECK (img_equal (&dst, &src), "box radius 0/0 step %d not a copy", step);
  }

  /* every column constant: a vertical-only blur leaves it alone;
   * every row constant: a horizontal-only blur leaves it alone */
  for (y = 0; y < 11; y++)
    for (x = 0; x < 13; x++) {
      set_px (&cols, x, y, (x * 37) % 256);
      set_px (&rows, x, y, (y * 53 + 11) % 256);
    }
  for (step = 1; step <= 2; step++) {
    cfx_ref_gaussian_blur (&dst.p, &cols.p, 0.0, 3.0, step);
    CHECK (img_equal (&dst, &cols), "gauss 0/3 touched x (step %d)", step);
    cfx_ref_gaussian_blur (&dst.p, &rows.p, 3.0, 0.0, step);
    CHECK (img_equal (&dst, &rows), "gauss 3/0 touched y (step %d)", step);
    cfx_ref_box_blur (&dst.p, &cols.p, 0, 4, step);
    CHECK (img_equal (&dst, &cols), "box 0/4 touched x (step %d)", step);
    cfx_ref_box_blur (&dst.p, &rows.p, 4, 0, step);
    CHECK (img_equal (&dst, &rows), "box 4/0 touched y (step %d)", step);
  }

  img_free (&src);
  img_free (&dst);
  img_free (&cols);
  img_free (&rows);
}

/* ---- impulse response -------------------------------------------------- */

/* Expected response of a 255 impulse: 255 * g(dx) * g(dy) / (S_x * S_y),
 * g(d) = exp (-d^2 / (2 sigma^2)) written as one 2-D exponent, S the sum of
 * the 1-D truncated kernel; zero outside the truncation radius. */
static void
test_impulse_one (double sx, double sy)
{
  const int w = 64, h = 48, cx = 32, cy = 24;
  int rx = (int) ceil (3.0 * sx), ry = (int) ceil (3.0 * sy);
  double sumx = 0.0, sumy = 0.0;
  Img src = img_new (w, h, 0), dst = img_new (w, h, -1);
  int x, y, d, bad = 0;

  for (d = -rx; d <= rx; d++)
    sumx += exp (-(d * d) / (2.0 * sx * sx));
  for (d = -ry; d <= ry; d++)
    sumy += exp (-(d * d) / (2.0 * sy * sy));

  set_px (&src, cx, cy, 255);
  cfx_ref_gaussian_blur (&dst.p, &src.p, sx, sy, 1);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int dx = x - cx, dy = y - cy, want = 0;

      if (abs (dx) <= rx && abs (dy) <= ry) {
        double e = (dx * dx) / (2.0 * sx * sx) + (dy * dy) / (2.0 * sy * sy);
        want = (int) floor (255.0 * exp (-e) / (sumx * sumy) + 0.5);
      }
      if (px (&dst, x, y) != want && bad++ < 5)
        CHECK (0, "impulse sigma %g/%g at (%d,%d): got %d want %d", sx, sy,
            dx, dy, px (&dst, x, y), want);
    }
  CHECK (bad == 0, "impulse sigma %g/%g: %d wrong pixels", sx, sy, bad);
  CHECK (padding_intact (&dst), "impulse: padding written");

  if (sx == 1.0 && sy == 1.0) {
    /* by hand: S = 1 + 2 (e^-0.5 + e^-2 + e^-4.5)
     *            = 1 + 2 (0.606531 + 0.135335 + 0.011109) = 2.505950,
     * centre = 255 / S^2 = 255 / 6.279785 = 40.61 -> 41;
     * (1,0): 40.606 * e^-0.5 = 40.606 * 0.606531 = 24.63 -> 25;
     * (1,1): 40.606 * e^-1 = 40.606 * 0.367879 = 14.94 -> 15;
     * (3,0): 40.606 * e^-4.5 = 40.606 * 0.011109 = 0.45 -> 0;
     * (2,0): 40.606 * e^-2 = 40.606 * 0.135335 = 5.495 -> 5 */
    CHECK (px (&dst, cx, cy) == 41, "impulse centre %d want 41",
        px (&dst, cx, cy));
    CHECK (px (&dst, cx + 1, cy) == 25, "impulse (1,0) %d want 25",
        px (&dst, cx + 1, cy));
    CHECK (px (&dst, cx - 1, cy + 1) == 15, "impulse (-1,1) %d want 15",
        px (&dst, cx - 1, cy + 1));
    CHECK (px (&dst, cx, cy - 2) == 5, "impulse (0,-2) %d want 5",
        px (&dst, cx, cy - 2));
    CHECK (px (&dst, cx + 3, cy) == 0, "impulse (3,0) %d want 0",
        px (&dst, cx + 3, cy));
  }

  img_free (&src);
  img_free (&dst);
}

static void
test_impulse (void)
{
  test_impulse_one (1.0, 1.0);
  test_impulse_one (2.0, 2.0);
  test_impulse_one (1.0, 2.0);
  test_impulse_one (2.0, 1.0);
}

/* ---- box blur, hand computed ---------------------------------------- */

static void
test_box_hand (void)
{
  /* 4x3 image, radius 1/1, n = 9, out = (sum + 4) / 9.
   *        x=0  x=1  x=2  x=3
   *  y=0:    0   10   20  255
   *  y=1:    7    3  100   50
   *  y=2:    1    2    4    8
   * mirror: column -1 -> 1, column 4 -> 2; row -1 -> 1, row 3 -> 1.
   * Horizontal 3-sums H (columns x-1, x, x+1):
   *  y=0: 10+0+10=20   0+10+20=30   10+20+255=285  20+255+20=295
   *  y=1:  3+7+3=13    7+3+100=110   3+100+50=153  100+50+100=250
   *  y=2:  2+1+2=5     1+2+4=7       2+4+8=14        4+8+4=16
   * Vertical 3-sums of H (rows y-1, y, y+1):
   *  y=0 (rows 1,0,1): 13+20+13=46  110+30+110=250  153+285+153=591
   *                    250+295+250=795
   *  y=1 (rows 0,1,2): 20+13+5=38   30+110+7=147    285+153+14=452
   *                    295+250+16=561
   *  y=2 (rows 1,2,1): 13+5+13=31   110+7+110=227   153+14+153=320
   *                    250+16+250=516
   * (sum + 4) / 9:
   *  y=0: 50/9=5 (5.11)  254/9=28 (27.78)  595/9=66 (65.67)  799/9=88 (88.33)
   *  y=1: 42/9=4 (4.22)  151/9=16 (16.33)  456/9=50 (50.22)  565/9=62 (62.33)
   *  y=2: 35/9=3 (3.44)  231/9=25 (25.22)  324/9=36 (35.56)  520/9=57 (57.33)
   */
  static const int in[3][4] = {
    {0, 10, 20, 255}, {7, 3, 100, 50}, {1, 2, 4, 8},
  };
  static const int want[3][4] = {
    {5, 28, 66, 88}, {4, 16, 50, 62}, {3, 25, 36, 57},
  };
  Img src = img_new (4, 3, 0), dst = img_new (4, 3, -1);
  Img r3 = img_new (3, 1, 0), r3o = img_new (3, 1, -1);
  Img r2 = img_new (2, 1, 0), r2o = img_new (2, 1, -1);
  int x, y;

  for (y = 0; y < 3; y++)
    for (x = 0; x < 4; x++)
      set_px (&src, x, y, in[y][x]);
  cfx_ref_box_blur (&dst.p, &src.p, 1, 1, 1);
  for (y = 0; y < 3; y++)
    for (x = 0; x < 4; x++)
      CHECK (px (&dst, x, y) == want[y][x], "box 4x3 (%d,%d) = %d want %d",
          x, y, px (&dst, x, y), want[y][x]);
  CHECK (padding_intact (&dst), "box 4x3: padding written");

  /* 3x1 row [0 9 3], radius_x 2, n = 5, out = (sum + 2) / 5; mirror of
   * -2 -> 2, -1 -> 1, 3 -> 1, 4 -> 0:
   *  x=0: columns 2,1,0,1,2 = 3+9+0+9+3 = 24 -> 26/5 = 5 (4.8)
   *  x=1: columns 1,0,1,2,1 = 9+0+9+3+9 = 30 -> 32/5 = 6 (6.0)
   *  x=2: columns 0,1,2,1,0 = 0+9+3+9+0 = 21 -> 23/5 = 4 (4.2)
   * radius_y 5 on a 1-row image reads row 0 eleven times: n = 55, same
   * means. */
  set_px (&r3, 0, 0, 0);
  set_px (&r3, 1, 0, 9);
  set_px (&r3, 2, 0, 3);
  cfx_ref_box_blur (&r3o.p, &r3.p, 2, 0, 1);
  CHECK (px (&r3o, 0, 0) == 5 && px (&r3o, 1, 0) == 6 && px (&r3o, 2, 0) == 4,
      "box [0 9 3] r2: got %d %d %d want 5 6 4", px (&r3o, 0, 0),
      px (&r3o, 1, 0), px (&r3o, 2, 0));
  cfx_ref_box_blur (&r3o.p, &r3.p, 2, 5, 2);
  CHECK (px (&r3o, 0, 0) == 5 && px (&r3o, 1, 0) == 6 && px (&r3o, 2, 0) == 4,
      "box [0 9 3] r2/5 step 2: got %d %d %d want 5 6 4", px (&r3o, 0, 0),
      px (&r3o, 1, 0), px (&r3o, 2, 0));

  /* 2x1 row [10 20], radius_x 3 (> width), n = 7, out = (sum + 3) / 7;
   * mirror with n = 2: even -> 0, odd -> 1:
   *  x=0: columns -3..3 -> 1,0,1,0,1,0,1 = 4*20 + 3*10 = 110 -> 113/7 = 16
   *  x=1: columns -2..4 -> 0,1,0,1,0,1,0 = 4*10 + 3*20 = 100 -> 103/7 = 14 */
  set_px (&r2, 0, 0, 10);
  set_px (&r2, 1, 0, 20);
  cfx_ref_box_blur (&r2o.p, &r2.p, 3, 0, 1);
  CHECK (px (&r2o, 0, 0) == 16 && px (&r2o, 1, 0) == 14,
      "box [10 20] r3: got %d %d want 16 14", px (&r2o, 0, 0),
      px (&r2o, 1, 0));

  img_free (&src);
  img_free (&dst);
  img_free (&r3);
  img_free (&r3o);
  img_free (&r2);
  img_free (&r2o);
}

/* ---- fields ------------------------------------------------------------ */

static void
test_fields_stripes (void)
{
  const int w = 40, h = 30;
  Img src = img_new (w, h, 0), dst = img_new (w, h, -1);
  int x, y, kind, ok;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      set_px (&src, x, y, (y & 1) ? 255 : 0);

  for (kind = 0; kind < 2; kind++) {
    double a = kind == 0 ? 5.0 : 7.0;

    blur (kind, &dst, &src, a, a, 2);
    CHECK (img_equal (&dst, &src) && padding_intact (&dst),
        "%s field_step 2 mixed the fields", kind == 0 ? "gauss" : "box");

    /* field_step 1 must mix them (sanity check of the test itself) */
    blur (kind, &dst, &src, a, a, 1);
    ok = 1;
    for (y = 2; y < h - 2; y++)
      for (x = 0; x < w; x++)
        if (px (&dst, x, y) < 100 || px (&dst, x, y) > 155)
          ok = 0;
    CHECK (ok, "%s field_step 1 did not mix the rows",
        kind == 0 ? "gauss" : "box");
  }

  img_free (&src);
  img_free (&dst);
}

/* field_step 2 equals blurring each field extracted as its own image */
static void
test_fields_split (void)
{
  static const int heights[] = { 1, 2, 3, 4, 7, 10 };
  static const double params[][2] = {
    {1.0, 1.0}, {2.0, 0.8}, {0.0, 3.0}, {5.0, 5.0},
  };
  size_t hi, pi;
  int kind;

  for (hi = 0; hi < sizeof (heights) / sizeof (heights[0]); hi++)
    for (pi = 0; pi < sizeof (params) / sizeof (params[0]); pi++)
      for (kind = 0; kind < 2; kind++) {
        int w = 11, h = heights[hi], f, x, j, ok = 1;
        Img src = img_random (w, h, 0, 255), dst = img_new (w, h, -1);

        blur (kind, &dst, &src, params[pi][0], params[pi][1], 2);
        for (f = 0; f < 2 && f < h; f++) {
          int fh = (h - f + 1) / 2;
          Img fs = img_new (w, fh, 0), fd = img_new (w, fh, -1);

          for (j = 0; j < fh; j++)
            for (x = 0; x < w; x++)
              set_px (&fs, x, j, px (&src, x, f + 2 * j));
          blur (kind, &fd, &fs, params[pi][0], params[pi][1], 1);
          for (j = 0; j < fh; j++)
            for (x = 0; x < w; x++)
              if (px (&fd, x, j) != px (&dst, x, f + 2 * j))
                ok = 0;
          img_free (&fs);
          img_free (&fd);
        }
        CHECK (ok && padding_intact (&dst),
            "%s field split h %d params %g/%g differs",
            kind == 0 ? "gauss" : "box", h, params[pi][0], params[pi][1]);
        img_free (&src);
        img_free (&dst);
      }
}

/* ---- symmetry ------------------------------------------------------- */

static Img
img_flip (const Img * src, int horizontal)
{
  int w = src->p.width, h = src->p.height, x, y;
  Img out = img_new (w, h, 0);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      set_px (&out, x, y,
          horizontal ? px (src, w - 1 - x, y) : px (src, x, h - 1 - y));
  return out;
}

static void
test_symmetry (void)
{
  static const int sizes[][2] = { {17, 13}, {16, 12}, {5, 3} };
  static const double params[][2] = {
    {1.0, 1.0}, {2.3, 0.7}, {0.0, 4.0}, {6.0, 0.0}, {3.0, 9.0},
  };
  size_t si, pi;
  int kind, step, hor;

  for (si = 0; si < sizeof (sizes) / sizeof (sizes[0]); si++)
    for (pi = 0; pi < sizeof (params) / sizeof (params[0]); pi++)
      for (kind = 0; kind < 2; kind++)
        for (step = 1; step <= 2; step++)
          for (hor = 0; hor < 2; hor++) {
            int w = sizes[si][0], h = sizes[si][1];
            Img src = img_random (w, h, 0, 255);
            Img flipped = img_flip (&src, hor);
            Img a = img_new (w, h, -1), b = img_new (w, h, -1), fa;

            blur (kind, &a, &src, params[pi][0], params[pi][1], step);
            blur (kind, &b, &flipped, params[pi][0], params[pi][1], step);
            fa = img_flip (&a, hor);
            CHECK (img_equal (&fa, &b),
                "%s %s flip symmetry %dx%d params %g/%g step %d",
                kind == 0 ? "gauss" : "box", hor ? "horizontal" : "vertical",
                w, h, params[pi][0], params[pi][1], step);
            img_free (&src);
            img_free (&flipped);
            img_free (&a);
            img_free (&b);
            img_free (&fa);
          }
}

/* ---- large radius keeps values inside min..max -------------------------- */

static void
test_large_sigma (void)
{
  const int w = 33, h = 17;
  Img src = img_random (w, h, 37, 200), dst = img_new (w, h, -1);
  int mn = 255, mx = 0, x, y, kind, step, ok;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if (px (&src, x, y) < mn)
        mn = px (&src, x, y);
      if (px (&src, x, y) > mx)
        mx = px (&src, x, y);
    }

  for (kind = 0; kind < 2; kind++)
    for (step = 1; step <= 2; step++) {
      blur (kind, &dst, &src, 50.0, 50.0, step);
      ok = 1;
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          if (px (&dst, x, y) < mn || px (&dst, x, y) > mx)
            ok = 0;
      CHECK (ok && padding_intact (&dst),
          "%s 50 on 33x17 step %d left %d..%d", kind == 0 ? "gauss" : "box",
          step, mn, mx);
    }

  img_free (&src);
  img_free (&dst);
}

int
main (void)
{
  test_mirror ();
  test_constant ();
  test_untouched_axes ();
  test_impulse ();
  test_box_hand ();
  test_fields_stripes ();
  test_fields_split ();
  test_symmetry ();
  test_large_sigma ();

  printf ("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
