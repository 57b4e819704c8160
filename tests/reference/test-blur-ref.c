/* Known-answer tests for the blur references (blur.c, blur16.c) and
 * cfx_ref_mirror.
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

/* ---- sharpening (cfx_ref_unsharp, cfx_ref_unsharp16) ------------------- */

/* One sample: x, its blur b, the amount, and out = clamp (floor (x +
 * amount / 256 (x - b) + 1/2)) worked out by hand */
typedef struct
{
  int x, b, amount, want;
} UnsharpCase;

static const UnsharpCase unsharp_cases[] = {
  {100, 90, 256, 110},          /* 2 x - b */
  {90, 100, 256, 80},
  {100, 90, 128, 105},          /* 100 + 5 */
  {100, 91, 128, 105},          /* 100 + 4.5: half up */
  {91, 100, 128, 87},           /* 91 - 4.5 = 86.5: half up */
  {100, 97, 85, 101},           /* 100 + 255 / 256 = 100.996 */
  {100, 103, 85, 99},           /* 100 - 0.996 = 99.004 */
  {100, 99, 127, 100},          /* 100 + 0.496 */
  {100, 99, 128, 101},          /* 100 + 0.5 */
  {250, 200, 256, 255},         /* 300: clamped */
  {5, 50, 256, 0},              /* -40: clamped */
  {130, 129, 4096, 146},        /* amount 16 */
  {77, 3, 0, 77},               /* amount 0: the source */
  {0, 255, 256, 0},
  {255, 0, 4096, 255},
};

static void
test_unsharp_hand (void)
{
  size_t i;

  for (i = 0; i < sizeof (unsharp_cases) / sizeof (unsharp_cases[0]); i++) {
    const UnsharpCase *c = &unsharp_cases[i];
    Img src = img_new (1, 1, c->x), b = img_new (1, 1, c->b);
    Img out = img_new (1, 1, -1);

    cfx_ref_unsharp (&out.p, &src.p, &b.p, c->amount);
    CHECK (px (&out, 0, 0) == c->want && padding_intact (&out),
        "unsharp x %d b %d amount %d: got %d want %d", c->x, c->b, c->amount,
        px (&out, 0, 0), c->want);
    img_free (&src);
    img_free (&b);
    img_free (&out);
  }

  CHECK (cfx_ref_sharpen_amount (1.0) == 256, "amount 1.0 -> %d",
      cfx_ref_sharpen_amount (1.0));
  CHECK (cfx_ref_sharpen_amount (0.5) == 128, "amount 0.5 -> %d",
      cfx_ref_sharpen_amount (0.5));
  CHECK (cfx_ref_sharpen_amount (1.0 / 512) == 1, "amount 1/512 -> %d "
      "(half up)", cfx_ref_sharpen_amount (1.0 / 512));
  CHECK (cfx_ref_sharpen_amount (0.3) == 77, "amount 0.3 -> %d (76.8)",
      cfx_ref_sharpen_amount (0.3));
  CHECK (cfx_ref_sharpen_amount (16.0) == 4096, "amount 16 -> %d",
      cfx_ref_sharpen_amount (16.0));
  CHECK (cfx_ref_sharpen_amount (0.0) == 0, "amount 0 -> %d",
      cfx_ref_sharpen_amount (0.0));
}

/* A row [0 0 90 0 0] and its box of radius 1 along x (mirrored: [0 30 30
 * 30 0]); sharpened at amount 1: [0, 0 - 30 -> 0, 90 + 60, 0, 0], at
 * amount 0.5: [0, 0, 90 + 30, 0, 0]; at amount 1 along both axes of a
 * field-split 5x2 frame, each row on its own, the same. */
static void
test_unsharp_box_hand (void)
{
  static const int row[5] = { 0, 0, 90, 0, 0 };
  static const int want1[5] = { 0, 0, 150, 0, 0 };
  static const int want_half[5] = { 0, 0, 120, 0, 0 };
  Img src = img_new (5, 2, 0), b = img_new (5, 2, -1), out = img_new (5, 2,
      -1);
  int x, y, ok1 = 1, ok2 = 1;

  for (y = 0; y < 2; y++)
    for (x = 0; x < 5; x++)
      set_px (&src, x, y, row[x]);
  cfx_ref_box_blur (&b.p, &src.p, 1, 0, 1);
  cfx_ref_unsharp (&out.p, &src.p, &b.p, 256);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 5; x++)
      ok1 &= px (&out, x, y) == want1[x];
  cfx_ref_unsharp (&out.p, &src.p, &b.p, 128);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 5; x++)
      ok2 &= px (&out, x, y) == want_half[x];
  CHECK (ok1 && ok2 && padding_intact (&out), "box unsharp of [0 0 90 0 0]: "
      "amount 1 %s, amount 0.5 %s", ok1 ? "ok" : "wrong",
      ok2 ? "ok" : "wrong");

  /* radius 1 vertically too, field_step 2: each field is one row, so the
   * vertical box changes nothing */
  cfx_ref_box_blur (&b.p, &src.p, 1, 1, 2);
  cfx_ref_unsharp (&out.p, &src.p, &b.p, 256);
  ok1 = 1;
  for (y = 0; y < 2; y++)
    for (x = 0; x < 5; x++)
      ok1 &= px (&out, x, y) == want1[x];
  CHECK (ok1, "box unsharp of [0 0 90 0 0] fields: wrong");

  img_free (&src);
  img_free (&b);
  img_free (&out);
}

/* Properties: amount 0 gives the source; a constant image stays (its blur
 * is itself); in place (dst = src, dst = blurred) gives the same; every
 * output is within the clamped range and moves away from the blur
 * (sign (out - b) = sign (x - b) or out = x). */
static void
test_unsharp_properties (void)
{
  static const int amounts[] = { 0, 1, 128, 256, 300, 4096 };
  size_t ai;
  int kind, x, y;

  for (kind = 0; kind < 2; kind++)
    for (ai = 0; ai < sizeof (amounts) / sizeof (amounts[0]); ai++) {
      const int w = 23, h = 17, amount = amounts[ai];
      Img src = img_random (w, h, 0, 255), b = img_new (w, h, -1);
      Img out = img_new (w, h, -1), in_place = img_new (w, h, -1);
      Img c = img_new (w, h, 131), cb = img_new (w, h, -1);
      int ok_zero = 1, ok_dir = 1;

      blur (kind, &b, &src, kind == 0 ? 1.7 : 2, kind == 0 ? 2.2 : 3, 1);
      cfx_ref_unsharp (&out.p, &src.p, &b.p, amount);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          int v = px (&out, x, y), s = px (&src, x, y), bb = px (&b, x, y);

          if (amount == 0 && v != s)
            ok_zero = 0;
          if ((s > bb && v < s) || (s < bb && v > s) || (s == bb && v != s))
            ok_dir = 0;
        }
      CHECK (ok_zero && ok_dir && padding_intact (&out),
          "unsharp %s amount %d: %s", kind == 0 ? "gauss" : "box", amount,
          !ok_zero ? "amount 0 is not the source" : "moved towards the blur");

      /* in place, over the source and over the blur */
      memcpy (in_place.mem, src.mem, (size_t) src.p.stride * h);
      cfx_ref_unsharp (&in_place.p, &in_place.p, &b.p, amount);
      CHECK (img_equal (&in_place, &out), "unsharp dst = src differs");
      memcpy (in_place.mem, b.mem, (size_t) b.p.stride * h);
      cfx_ref_unsharp (&in_place.p, &src.p, &in_place.p, amount);
      CHECK (img_equal (&in_place, &out), "unsharp dst = blurred differs");

      blur (kind, &cb, &c, 5.0, 5.0, 2);
      cfx_ref_unsharp (&cb.p, &c.p, &cb.p, amount);
      CHECK (img_equal (&cb, &c), "unsharp of a constant changed it");

      img_free (&src);
      img_free (&b);
      img_free (&out);
      img_free (&in_place);
      img_free (&c);
      img_free (&cb);
    }
}

/* ---- 16-bit words (blur16.c) -------------------------------------------- */

/* A component of 16-bit words: data at mem + off, one word every step
 * bytes, PAD spare bytes per row; every byte that is not one of the
 * component's words starts as SENTINEL and must stay so. */
typedef struct
{
  CfxRefWordPlane p;
  uint8_t *mem;
  int off;
} Img16;

typedef struct
{
  int depth, shift, step, off;
} Layout16;

static const Layout16 layouts16[] = {
  {10, 6, 4, 0},                /* P010 U */
  {10, 6, 4, 2},                /* P010 V */
  {10, 6, 2, 0},                /* P010 Y */
  {10, 0, 2, 0},                /* I420_10LE */
  {12, 4, 2, 0},
  {16, 0, 2, 0},                /* GRAY16_LE and friends */
};

static Img16
img16_new (int w, int h, const Layout16 * l)
{
  Img16 im;

  im.p.width = w;
  im.p.height = h;
  im.p.step = l->step;
  im.p.stride = w * l->step + PAD;
  im.p.depth = l->depth;
  im.p.shift = l->shift;
  im.off = l->off;
  im.mem = malloc ((size_t) im.p.stride * h);
  if (!im.mem)
    abort ();
  memset (im.mem, SENTINEL, (size_t) im.p.stride * h);
  im.p.data = im.mem + l->off;
  return im;
}

static void
img16_free (Img16 * im)
{
  free (im->mem);
}

static unsigned int
word16 (const Img16 * im, int x, int y)
{
  const uint8_t *b = im->p.data + y * im->p.stride + x * im->p.step;

  return b[0] | ((unsigned int) b[1] << 8);
}

static int
val16 (const Img16 * im, int x, int y)
{
  return (int) ((word16 (im, x, y) >> im->p.shift)
      & ((1u << im->p.depth) - 1u));
}

/* junk: what goes into the bits of the word outside the value (below it,
 * and above it where depth + shift < 16); they must be ignored */
static void
set16 (Img16 * im, int x, int y, int v, unsigned int junk)
{
  uint8_t *b = im->p.data + y * im->p.stride + x * im->p.step;
  unsigned int field = ((1u << im->p.depth) - 1u) << im->p.shift;
  unsigned int word = ((unsigned int) v << im->p.shift)
      | (junk & ~field & 0xffffu);

  b[0] = (uint8_t) (word & 0xff);
  b[1] = (uint8_t) (word >> 8);
}

/* random garbage for the unused bits of a word */
static unsigned int
poison (const Img16 * im)
{
  (void) im;
  return (unsigned int) rnd (0, 0xffff);
}

/* Bytes outside the component untouched, and every word of it exactly
 * value << shift: the bits outside the value are 0. */
static int
clean16 (const Img16 * im)
{
  int x, y, o;

  for (y = 0; y < im->p.height; y++) {
    for (o = 0; o < im->p.stride; o++) {
      int c = o - im->off;

      if ((c < 0 || c >= im->p.width * im->p.step || c % im->p.step >= 2)
          && im->mem[y * im->p.stride + o] != SENTINEL)
        return 0;
    }
    for (x = 0; x < im->p.width; x++)
      if (word16 (im, x, y) != (unsigned int) val16 (im, x, y) << im->p.shift)
        return 0;
  }
  return 1;
}

static int
img16_equal (const Img16 * a, const Img16 * b)
{
  int x, y;

  for (y = 0; y < a->p.height; y++)
    for (x = 0; x < a->p.width; x++)
      if (val16 (a, x, y) != val16 (b, x, y))
        return 0;
  return 1;
}

static void
blur16 (int kind, Img16 * dst, const Img16 * src, double a, double b,
    int step)
{
  if (kind == 0)
    cfx_ref_gaussian_blur16 (&dst->p, &src->p, a, b, step);
  else
    cfx_ref_box_blur16 (&dst->p, &src->p, (int) a, (int) b, step);
}

/* At depth 8 the 16-bit functions must give exactly what the 8-bit ones
 * give, whatever the layout (planar, or shifted up 8 bits in every other
 * word with garbage below). */
static void
test16_depth8 (void)
{
  static const int sizes[][2] = {
    {1, 1}, {2, 3}, {7, 1}, {1, 6}, {17, 13}, {16, 12},
  };
  static const double gauss[][2] = {
    {0.5, 0.5}, {1.0, 1.0}, {2.3, 0.7}, {0.0, 4.0}, {6.0, 0.0}, {20.0, 20.0},
  };
  static const double box[][2] = {
    {1, 1}, {3, 2}, {0, 4}, {6, 0}, {50, 3},
  };
  static const Layout16 l8[] = { {8, 0, 2, 0}, {8, 8, 4, 2} };
  size_t si, pi, li;
  int kind, step, x, y;

  for (si = 0; si < sizeof (sizes) / sizeof (sizes[0]); si++)
    for (li = 0; li < 2; li++)
      for (kind = 0; kind < 2; kind++)
        for (step = 1; step <= 2; step++) {
          size_t np = kind == 0 ? sizeof (gauss) / sizeof (gauss[0])
              : sizeof (box) / sizeof (box[0]);

          for (pi = 0; pi < np; pi++) {
            int w = sizes[si][0], h = sizes[si][1], ok = 1;
            double a = kind == 0 ? gauss[pi][0] : box[pi][0];
            double b = kind == 0 ? gauss[pi][1] : box[pi][1];
            Img src = img_random (w, h, 0, 255), dst = img_new (w, h, -1);
            Img16 s16 = img16_new (w, h, &l8[li]);
            Img16 d16 = img16_new (w, h, &l8[li]);

            for (y = 0; y < h; y++)
              for (x = 0; x < w; x++)
                set16 (&s16, x, y, px (&src, x, y), poison (&s16));
            blur (kind, &dst, &src, a, b, step);
            blur16 (kind, &d16, &s16, a, b, step);
            for (y = 0; y < h; y++)
              for (x = 0; x < w; x++)
                if (val16 (&d16, x, y) != px (&dst, x, y))
                  ok = 0;
            CHECK (ok && clean16 (&d16),
                "%s16 depth 8 (shift %d step %d) %dx%d params %g/%g "
                "field_step %d differs from 8-bit",
                kind == 0 ? "gauss" : "box", l8[li].shift, l8[li].step, w, h,
                a, b, step);
            img_free (&src);
            img_free (&dst);
            img16_free (&s16);
            img16_free (&d16);
          }
        }
}

static void
test16_constant (void)
{
  static const int sizes[][2] = { {1, 1}, {2, 3}, {7, 1}, {1, 7}, {9, 5} };
  static const double gauss[][2] = {
    {0.3, 0.3}, {1.0, 1.0}, {5.0, 5.0}, {20.0, 20.0}, {1.0, 0.0}, {0.0, 3.0},
  };
  static const double box[][2] = {
    {1, 1}, {3, 2}, {10, 10}, {0, 1}, {50, 3},
  };
  size_t si, li, pi;
  int vi, kind, step, x, y;

  for (li = 0; li < sizeof (layouts16) / sizeof (layouts16[0]); li++)
    for (si = 0; si < sizeof (sizes) / sizeof (sizes[0]); si++)
      for (vi = 0; vi < 5; vi++)
        for (kind = 0; kind < 2; kind++)
          for (step = 1; step <= 2; step++) {
            const Layout16 *l = &layouts16[li];
            int maxv = (1 << l->depth) - 1;
            int values[5] = { 0, 1, maxv / 2 + 1, maxv - 1, maxv };
            int w = sizes[si][0], h = sizes[si][1], v = values[vi];
            size_t np = kind == 0 ? sizeof (gauss) / sizeof (gauss[0])
                : sizeof (box) / sizeof (box[0]);

            for (pi = 0; pi < np; pi++) {
              double a = kind == 0 ? gauss[pi][0] : box[pi][0];
              double b = kind == 0 ? gauss[pi][1] : box[pi][1];
              Img16 src = img16_new (w, h, l), dst = img16_new (w, h, l);
              int ok = 1;

              for (y = 0; y < h; y++)
                for (x = 0; x < w; x++)
                  set16 (&src, x, y, v, poison (&src));
              blur16 (kind, &dst, &src, a, b, step);
              for (y = 0; y < h; y++)
                for (x = 0; x < w; x++)
                  if (val16 (&dst, x, y) != v)
                    ok = 0;
              CHECK (ok && clean16 (&dst),
                  "%s16 constant %d depth %d shift %d step %d on %dx%d "
                  "params %g/%g field_step %d changed",
                  kind == 0 ? "gauss" : "box", v, l->depth, l->shift, l->step,
                  w, h, a, b, step);
              img16_free (&src);
              img16_free (&dst);
            }
          }
}

/* Box sums of 16-bit samples do not fit 32 bits, and a mean half a step
 * from the next value rounds as computed by hand. */
static void
test16_box_hand (void)
{
  static const Layout16 g16 = { 16, 0, 2, 0 };
  static const Layout16 p010v = { 10, 6, 4, 2 };
  Img16 one = img16_new (1, 1, &g16), oneo = img16_new (1, 1, &g16);
  Img16 two = img16_new (2, 1, &g16), twoo = img16_new (2, 1, &g16);
  Img16 r3 = img16_new (3, 1, &p010v), r3o = img16_new (3, 1, &p010v);
  int step;

  /* 1x1 of 65535, radius 300/300: n = 601^2 = 361201, the sum 65535 * n =
   * 23671307535 > 2^32 */
  set16 (&one, 0, 0, 65535, 0);
  cfx_ref_box_blur16 (&oneo.p, &one.p, 300, 300, 1);
  CHECK (val16 (&oneo, 0, 0) == 65535 && clean16 (&oneo),
      "box16 1x1 65535 r300: got %d", val16 (&oneo, 0, 0));

  /* [65535 65534], radius 300/300; mirror with n = 2: even -> 0, odd -> 1.
   *  x=0: columns -300..300: 301 even, 300 odd; mean
   *       (301 * 65535 + 300 * 65534) / 601 = 65535 - 300/601 = 65534.5008
   *       -> 65535
   *  x=1: columns -299..301: 300 even, 301 odd; mean
   *       65534 + 300/601 = 65534.4992 -> 65534
   * (the 601 rows of the box are all row 0 and do not change the mean) */
  set16 (&two, 0, 0, 65535, 0);
  set16 (&two, 1, 0, 65534, 0);
  for (step = 1; step <= 2; step++) {
    cfx_ref_box_blur16 (&twoo.p, &two.p, 300, 300, step);
    CHECK (val16 (&twoo, 0, 0) == 65535 && val16 (&twoo, 1, 0) == 65534
        && clean16 (&twoo), "box16 [65535 65534] r300 step %d: got %d %d "
        "want 65535 65534", step, val16 (&twoo, 0, 0), val16 (&twoo, 1, 0));
  }

  /* P010 V, row [0 900 300], radius_x 2, n = 5, mirror -2 -> 2, -1 -> 1,
   * 3 -> 1, 4 -> 0:
   *  x=0: 300+900+0+900+300 = 2400 -> 2402/5 = 480, word 480 << 6 = 30720
   *  x=1: 900+0+900+300+900 = 3000 -> 3002/5 = 600, word 38400
   *  x=2: 0+900+300+900+0 = 2100 -> 2102/5 = 420, word 26880
   * radius_y 5 on one row, either field_step: the same. */
  set16 (&r3, 0, 0, 0, 0x3f);
  set16 (&r3, 1, 0, 900, 0x15);
  set16 (&r3, 2, 0, 300, 0x2a);
  cfx_ref_box_blur16 (&r3o.p, &r3.p, 2, 0, 1);
  CHECK (word16 (&r3o, 0, 0) == 30720 && word16 (&r3o, 1, 0) == 38400
      && word16 (&r3o, 2, 0) == 26880 && clean16 (&r3o),
      "box16 P010 [0 900 300] r2: words %u %u %u want 30720 38400 26880",
      word16 (&r3o, 0, 0), word16 (&r3o, 1, 0), word16 (&r3o, 2, 0));
  cfx_ref_box_blur16 (&r3o.p, &r3.p, 2, 5, 2);
  CHECK (word16 (&r3o, 0, 0) == 30720 && word16 (&r3o, 1, 0) == 38400
      && word16 (&r3o, 2, 0) == 26880 && clean16 (&r3o),
      "box16 P010 [0 900 300] r2/5 step 2: words %u %u %u",
      word16 (&r3o, 0, 0), word16 (&r3o, 1, 0), word16 (&r3o, 2, 0));

  img16_free (&one);
  img16_free (&oneo);
  img16_free (&two);
  img16_free (&twoo);
  img16_free (&r3);
  img16_free (&r3o);
}

/* Impulse response at depth 16, from the formula (as test_impulse_one). */
static void
test16_impulse_one (double sx, double sy)
{
  static const Layout16 g16 = { 16, 0, 2, 0 };
  const int w = 64, h = 48, cx = 32, cy = 24;
  int rx = (int) ceil (3.0 * sx), ry = (int) ceil (3.0 * sy);
  double sumx = 0.0, sumy = 0.0;
  Img16 src = img16_new (w, h, &g16), dst = img16_new (w, h, &g16);
  int x, y, d, bad = 0;

  for (d = -rx; d <= rx; d++)
    sumx += exp (-(d * d) / (2.0 * sx * sx));
  for (d = -ry; d <= ry; d++)
    sumy += exp (-(d * d) / (2.0 * sy * sy));

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      set16 (&src, x, y, x == cx && y == cy ? 65535 : 0, 0);
  cfx_ref_gaussian_blur16 (&dst.p, &src.p, sx, sy, 1);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int dx = x - cx, dy = y - cy, want = 0;

      if (abs (dx) <= rx && abs (dy) <= ry) {
        double e = (dx * dx) / (2.0 * sx * sx) + (dy * dy) / (2.0 * sy * sy);
        want = (int) floor (65535.0 * exp (-e) / (sumx * sumy) + 0.5);
      }
      if (val16 (&dst, x, y) != want && bad++ < 5)
        CHECK (0, "impulse16 sigma %g/%g at (%d,%d): got %d want %d", sx, sy,
            dx, dy, val16 (&dst, x, y), want);
    }
  CHECK (bad == 0 && clean16 (&dst), "impulse16 sigma %g/%g: %d wrong", sx,
      sy, bad);

  if (sx == 1.0 && sy == 1.0) {
    /* by hand: S = 2.505950 (test_impulse_one), S^2 = 6.279785,
     * centre 65535 / 6.279785 = 10435.87 -> 10436;
     * (1,0): 10435.87 * 0.606531 = 6329.68 -> 6330 */
    CHECK (val16 (&dst, cx, cy) == 10436, "impulse16 centre %d want 10436",
        val16 (&dst, cx, cy));
    CHECK (val16 (&dst, cx + 1, cy) == 6330, "impulse16 (1,0) %d want 6330",
        val16 (&dst, cx + 1, cy));
  }

  img16_free (&src);
  img16_free (&dst);
}

/* P010 (and I420_10LE): garbage in the 6 unused bits changes nothing, the
 * output's unused bits are 0, U and V leave each other alone, and the
 * values are those of the same samples stored as clean I420_10LE. Blurring
 * in place gives the same. */
static void
test16_p010 (void)
{
  static const Layout16 i420 = { 10, 0, 2, 0 };
  const int w = 23, h = 15;
  int kind, step, li, x, y;

  /* the four 10-bit layouts of layouts16 */
  for (li = 0; li < 4; li++)
    for (kind = 0; kind < 2; kind++)
      for (step = 1; step <= 2; step++) {
        const Layout16 *l = &layouts16[li];
        double a = kind == 0 ? 1.7 : 2, b = kind == 0 ? 2.2 : 3;
        Img16 clean = img16_new (w, h, l), dirty = img16_new (w, h, l);
        Img16 dc = img16_new (w, h, l), dd = img16_new (w, h, l);
        Img16 plain = img16_new (w, h, &i420), dp = img16_new (w, h, &i420);

        for (y = 0; y < h; y++)
          for (x = 0; x < w; x++) {
            int v = rnd (0, 1023);

            set16 (&clean, x, y, v, 0);
            set16 (&dirty, x, y, v, poison (&dirty));
            set16 (&plain, x, y, v, 0);
          }
        blur16 (kind, &dc, &clean, a, b, step);
        blur16 (kind, &dd, &dirty, a, b, step);
        blur16 (kind, &dp, &plain, a, b, step);
        CHECK (img16_equal (&dc, &dd) && clean16 (&dc) && clean16 (&dd),
            "%s16 layout %d field_step %d: unused input bits changed the "
            "output, or the output is not clean", kind == 0 ? "gauss" : "box",
            li, step);
        CHECK (img16_equal (&dc, &dp) && clean16 (&dp),
            "%s16 layout %d field_step %d differs from I420_10LE",
            kind == 0 ? "gauss" : "box", li, step);

        /* in place: dst == src */
        blur16 (kind, &dirty, &dirty, a, b, step);
        CHECK (img16_equal (&dirty, &dd) && clean16 (&dirty),
            "%s16 layout %d field_step %d in place differs",
            kind == 0 ? "gauss" : "box", li, step);

        img16_free (&clean);
        img16_free (&dirty);
        img16_free (&dc);
        img16_free (&dd);
        img16_free (&plain);
        img16_free (&dp);
      }
}

/* Even rows 1000, odd rows 0 at depth 10: field_step 2 keeps both fields
 * constant, field_step 1 mixes them. */
static void
test16_fields (void)
{
  static const Layout16 p010 = { 10, 6, 2, 0 };
  const int w = 40, h = 30;
  Img16 src = img16_new (w, h, &p010), dst = img16_new (w, h, &p010);
  int x, y, kind, ok;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      set16 (&src, x, y, (y & 1) ? 0 : 1000, poison (&src));

  for (kind = 0; kind < 2; kind++) {
    double a = kind == 0 ? 5.0 : 7.0;

    blur16 (kind, &dst, &src, a, a, 2);
    CHECK (img16_equal (&dst, &src) && clean16 (&dst),
        "%s16 field_step 2 mixed the fields", kind == 0 ? "gauss" : "box");

    /* field_step 1 must mix them (sanity check of the test itself) */
    blur16 (kind, &dst, &src, a, a, 1);
    ok = 1;
    for (y = 2; y < h - 2; y++)
      for (x = 0; x < w; x++)
        if (val16 (&dst, x, y) < 400 || val16 (&dst, x, y) > 600)
          ok = 0;
    CHECK (ok, "%s16 field_step 1 did not mix the rows",
        kind == 0 ? "gauss" : "box");
  }

  img16_free (&src);
  img16_free (&dst);
}

/* Samples v * 257 at depth 16 against v at depth 8: both round the same
 * exact mean (257 times larger at 16 bits) to nearest, so
 * |r16 - 257 r8| <= 257 / 2 + 1 / 2 = 129. */
static void
test16_scale (void)
{
  static const Layout16 g16 = { 16, 0, 2, 0 };
  const int w = 21, h = 14;
  int kind, step, x, y;

  for (kind = 0; kind < 2; kind++)
    for (step = 1; step <= 2; step++) {
      double a = kind == 0 ? 1.3 : 2, b = kind == 0 ? 2.6 : 1;
      Img src = img_random (w, h, 0, 255), dst = img_new (w, h, -1);
      Img16 s16 = img16_new (w, h, &g16), d16 = img16_new (w, h, &g16);
      int worst = 0;

      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          set16 (&s16, x, y, px (&src, x, y) * 257, 0);
      blur (kind, &dst, &src, a, b, step);
      blur16 (kind, &d16, &s16, a, b, step);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          int d = abs (val16 (&d16, x, y) - 257 * px (&dst, x, y));

          if (d > worst)
            worst = d;
        }
      CHECK (worst <= 129 && clean16 (&d16),
          "%s16 of v * 257 step %d: off by %d from 257 * 8-bit",
          kind == 0 ? "gauss" : "box", step, worst);
      img_free (&src);
      img_free (&dst);
      img16_free (&s16);
      img16_free (&d16);
    }
}

/* cfx_ref_unsharp16: at depth 8 what the 8-bit one gives (any layout,
 * garbage in the unused bits), the hand cases at depth 16 (clamped to
 * 65535), and the output words clean. */
static void
test16_unsharp (void)
{
  static const Layout16 l8[] = { {8, 0, 2, 0}, {8, 8, 4, 2} };
  static const Layout16 g16 = { 16, 0, 2, 0 };
  static const Layout16 p010 = { 10, 6, 4, 2 };
  static const int amounts[] = { 0, 77, 256, 4096 };
  const int w = 19, h = 7;
  size_t li, ai, i;
  int x, y;

  for (li = 0; li < 2; li++)
    for (ai = 0; ai < sizeof (amounts) / sizeof (amounts[0]); ai++) {
      Img src = img_random (w, h, 0, 255), b = img_random (w, h, 0, 255);
      Img out = img_new (w, h, -1);
      Img16 s16 = img16_new (w, h, &l8[li]), b16 = img16_new (w, h, &l8[li]);
      Img16 o16 = img16_new (w, h, &l8[li]);
      int ok = 1;

      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          set16 (&s16, x, y, px (&src, x, y), poison (&s16));
          set16 (&b16, x, y, px (&b, x, y), poison (&b16));
        }
      cfx_ref_unsharp (&out.p, &src.p, &b.p, amounts[ai]);
      cfx_ref_unsharp16 (&o16.p, &s16.p, &b16.p, amounts[ai]);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          ok &= val16 (&o16, x, y) == px (&out, x, y);
      CHECK (ok && clean16 (&o16), "unsharp16 depth 8 layout %d amount %d "
          "differs from 8-bit", (int) li, amounts[ai]);
      img_free (&src);
      img_free (&b);
      img_free (&out);
      img16_free (&s16);
      img16_free (&b16);
      img16_free (&o16);
    }

  /* depth 16 and P010's V: x 60000, b 50000, amount 1 -> 70000 clamped
   * to 65535; amount 0.5 (128) -> 65000; x 1000, b 1001, amount 128 ->
   * 999.5 -> 1000 (half up). P010 (depth 10): x 1000, b 900, amount 256
   * -> 1100 clamped to 1023; x 24, b 30, amount 384 -> 15. */
  {
    const struct
    {
      const Layout16 *l;
      int x, b, amount, want;
    } c[] = {
      {&g16, 60000, 50000, 256, 65535},
      {&g16, 60000, 50000, 128, 65000},
      {&g16, 1000, 1001, 128, 1000},
      {&g16, 65535, 0, 4096, 65535},
      {&g16, 0, 65535, 4096, 0},
      {&p010, 1000, 900, 256, 1023},
      {&p010, 24, 30, 384, 15},
    };

    for (i = 0; i < sizeof (c) / sizeof (c[0]); i++) {
      Img16 s1 = img16_new (1, 1, c[i].l), b1 = img16_new (1, 1, c[i].l);
      Img16 o1 = img16_new (1, 1, c[i].l);

      set16 (&s1, 0, 0, c[i].x, poison (&s1));
      set16 (&b1, 0, 0, c[i].b, poison (&b1));
      cfx_ref_unsharp16 (&o1.p, &s1.p, &b1.p, c[i].amount);
      CHECK (val16 (&o1, 0, 0) == c[i].want && clean16 (&o1),
          "unsharp16 depth %d x %d b %d amount %d: got %d want %d",
          c[i].l->depth, c[i].x, c[i].b, c[i].amount, val16 (&o1, 0, 0),
          c[i].want);
      img16_free (&s1);
      img16_free (&b1);
      img16_free (&o1);
    }
  }
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
  test16_depth8 ();
  test16_constant ();
  test16_box_hand ();
  test16_impulse_one (1.0, 1.0);
  test16_impulse_one (1.5, 0.8);
  test16_p010 ();
  test16_fields ();
  test16_scale ();
  test_unsharp_hand ();
  test_unsharp_box_hand ();
  test_unsharp_properties ();
  test16_unsharp ();

  printf ("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
