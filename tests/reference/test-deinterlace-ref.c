/* Tests of the deinterlacing reference (deinterlace.c):
 *
 *  1. hand-worked known answers on tiny planes (always run);
 *  2. bit-exact comparison with FFmpeg's CPU yadif and bwdif filters on
 *     yuv420p clips, every output frame, all three planes (run when
 *     `ffmpeg` is on PATH; without it the comparison is skipped and the
 *     program still passes, unless CFX_REQUIRE_FFMPEG=1 is set).
 *
 * Exit status: 0 pass, 1 fail.
 *
 * bwdif's first and last fields differ between FFmpeg versions
 * (kernels/deinterlace.md, "FFmpeg versions"): the comparison reads the
 * major version from `ffmpeg -version` and compares with the reference's
 * rules for it (5.x and older: 5.1's; 6 to 8: 6.1's, the default; 9 and
 * later: 9's), and says which.
 *
 * Stream semantics driven here (kernels/deinterlace.md, checked
 * against FFmpeg 5.1's and 7.1's yadif_common.c):
 *   output for input frame i uses P = F[max(i-1,0)], C = F[i],
 *   N = F[min(i+1,last)]; output field k (0 first in time) has
 *   parity = tff ^ (k == 0).
 *   bwdif intra_only: send_field: the first field of frame 0 and the
 *   second field of the last frame; send_frame: only the output of frame 0
 *   (FFmpeg marks the stream end "back end" and only turns it into "end"
 *   when a second field is produced, which send_frame never does). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfx-reference.h"
#include "ref-test.h"

static int failures;

static void
fail (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  fprintf (stderr, "FAIL: ");
  vfprintf (stderr, fmt, ap);
  fprintf (stderr, "\n");
  va_end (ap);
  failures++;
}

static CfxRefPlane
plane_of (uint8_t * data, int w, int h)
{
  CfxRefPlane p;

  p.data = data;
  p.stride = w;
  p.width = w;
  p.height = h;
  return p;
}

/* compare a w x h result against expected values, row-major */
static void
expect_plane (const char *name, const uint8_t * got, const uint8_t * want,
    int w, int h)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (got[y * w + x] != want[y * w + x])
        fail ("%s: (x=%d, y=%d) got %d, expected %d", name, x, y,
            got[y * w + x], want[y * w + x]);
}

/* ---- 1. known answers ------------------------------------------------- */

static void
kat_linear (void)
{
  /* 3x4 plane, rows 0..3 */
  uint8_t c[12] = {
    10, 20, 30,
    99, 99, 99,
    13, 40, 255,
    99, 99, 99,
  };
  uint8_t out[12];
  /* parity 0: rows 0 and 2 copied, rows 1 and 3 interpolated.
   * row 1 = (row0 + row2 + 1) >> 1: (10+13+1)>>1 = 12, (20+40+1)>>1 = 30,
   *         (30+255+1)>>1 = 143;
   * row 3: row 4 mirrors to row 2, so (row2 + row2 + 1) >> 1 = row 2. */
  static const uint8_t want0[12] = {
    10, 20, 30,
    12, 30, 143,
    13, 40, 255,
    13, 40, 255,
  };
  /* parity 1: rows 1 and 3 copied, rows 0 and 2 interpolated.
   * row 0: row -1 mirrors to row 1: (99 + 99 + 1) >> 1 = 99;
   * row 2: (row1 + row3 + 1) >> 1 = 99. */
  static const uint8_t want1[12] = {
    99, 99, 99,
    99, 99, 99,
    99, 99, 99,
    99, 99, 99,
  };
  CfxRefPlane pc = plane_of (c, 3, 4), po = plane_of (out, 3, 4);

  memset (out, 0, sizeof (out));
  cfx_ref_deinterlace_plane (&po, &pc, &pc, &pc, 0, 1, CFX_REF_DEINT_LINEAR,
      1, 0);
  expect_plane ("linear parity 0", out, want0, 3, 4);

  memset (out, 0, sizeof (out));
  cfx_ref_deinterlace_plane (&po, &pc, &pc, &pc, 1, 1, CFX_REF_DEINT_LINEAR,
      1, 0);
  expect_plane ("linear parity 1", out, want1, 3, 4);
}

static void
kat_ela (void)
{
  /* 5x3 plane, a diagonal edge between row 0 and row 2 */
  uint8_t c[15] = {
    0, 0, 0, 100, 100,
    7, 7, 7, 7, 7,
    0, 100, 100, 100, 100,
  };
  uint8_t out[15];
  /* parity 0, row 1 interpolated; cost(j) = |r0[x+j] - r2[x-j]|, x
   * clamped into [0, 4]:
   *   x=0: j=0 |0-0|=0                         -> (0+0+1)>>1 = 0
   *   x=1: j=0 |0-100|=100, j=-1 |r0[0]-r2[2]|=100, j=+1 |r0[2]-r2[0]|=0
   *                                            -> (0+0+1)>>1 = 0
   *   x=2: j=0 |0-100|=100, j=-1 |r0[1]-r2[3]|=100, j=+1 |r0[3]-r2[1]|=0
   *                                            -> (100+100+1)>>1 = 100
   *   x=3: j=0 |100-100|=0                     -> 100
   *   x=4: j=0 |100-100|=0                     -> 100
   * (linear would give 0 50 50 100 100) */
  static const uint8_t want[15] = {
    0, 0, 0, 100, 100,
    0, 0, 100, 100, 100,
    0, 100, 100, 100, 100,
  };
  /* rounding and the tie rule: row 0 = 3 3 3, row 2 = 4 4 4: every
   * direction costs 1, j = 0 is kept: (3+4+1)>>1 = 4 */
  uint8_t c2[9] = { 3, 3, 3, 50, 50, 50, 4, 4, 4 };
  static const uint8_t want2[9] = { 3, 3, 3, 4, 4, 4, 4, 4, 4 };
  uint8_t out2[9];
  CfxRefPlane pc = plane_of (c, 5, 3), po = plane_of (out, 5, 3);
  CfxRefPlane pc2 = plane_of (c2, 3, 3), po2 = plane_of (out2, 3, 3);

  cfx_ref_deinterlace_plane (&po, &pc, &pc, &pc, 0, 1, CFX_REF_DEINT_ELA,
      1, 0);
  expect_plane ("ela diagonal", out, want, 5, 3);
  cfx_ref_deinterlace_plane (&po2, &pc2, &pc2, &pc2, 0, 0, CFX_REF_DEINT_ELA,
      1, 0);
  expect_plane ("ela rounding", out2, want2, 3, 3);
}

static void
kat_constant (void)
{
  /* yadif and bwdif on a constant sequence give the constant, for every
   * parity / tff / spatial-check / intra combination */
  enum
  { W = 11, H = 9 };
  uint8_t c[W * H], out[W * H];
  CfxRefPlane pc = plane_of (c, W, H), po = plane_of (out, W, H);
  int parity, tff, sc, m;

  memset (c, 77, sizeof (c));
  for (m = 0; m < 2; m++)
    for (parity = 0; parity < 2; parity++)
      for (tff = 0; tff < 2; tff++)
        for (sc = 0; sc < 2; sc++) {
          int i;

          memset (out, 0, sizeof (out));
          cfx_ref_deinterlace_plane (&po, &pc, &pc, &pc, parity, tff,
              m ? CFX_REF_DEINT_BWDIF : CFX_REF_DEINT_YADIF, sc, sc);
          for (i = 0; i < W * H; i++)
            if (out[i] != 77) {
              fail ("%s constant: parity %d tff %d flag %d: sample %d = %d",
                  m ? "bwdif" : "yadif", parity, tff, sc, i, out[i]);
              break;
            }
        }
}

static void
kat_yadif_direction (void)
{
  /* 7x3, parity 0, tff 1: first field (fp = 1), A = P, B = C. Row 1 is
   * interpolated; y == 1 so no spatial check; only x = 3 is an interior
   * column (3 <= x < w-3).
   *   C row 0: 0 0 0   0 100 100 100
   *   C row 1: 40 everywhere
   *   C row 2: 0 0 100 100 100 100 100
   *   P: all 0; N = C.
   * x = 3: c = C[0][3] = 0, e = C[2][3] = 100
   *   d = (P[1][3] + C[1][3]) >> 1 = (0 + 40) >> 1 = 20, td0 = 40
   *   td1 = (|P[0][3]-c| + |P[2][3]-e|) >> 1 = (0 + 100) >> 1 = 50
   *   td2 = (|N[0][3]-c| + |N[2][3]-e|) >> 1 = 0
   *   diff = max (40>>1, 50, 0) = 50
   *   sp = (0 + 100) >> 1 = 50
   *   score = |C0[2]-C2[2]| + |c-e| + |C0[4]-C2[4]| - 1 = 100+100+0-1 = 199
   *   S(-1) = |C0[1]-C2[3]| + |C0[2]-C2[4]| + |C0[3]-C2[5]| = 300: no
   *   S(+1) = |C0[3]-C2[1]| + |C0[4]-C2[2]| + |C0[5]-C2[3]| = 0 < 199:
   *           sp = (C0[4] + C2[2]) >> 1 = 100
   *   S(+2) = |C0[4]-C2[0]| + |C0[5]-C2[1]| + |C0[6]-C2[2]| = 200: no
   *   sp = 100 > d + diff = 70 -> out = 70
   * x = 0 (edge, no search): c = 0, e = 0: d = 20,
   *   td1 = 0, td2 = 0, diff = 20; sp = 0 < d - diff = 0? no -> 0
   * x = 2 (edge): c = 0, e = 100: td1 = 50, diff = 50, sp = 50,
   *   within [-30, 70] -> 50 */
  uint8_t p[21], c[21] = {
    0, 0, 0, 0, 100, 100, 100,
    40, 40, 40, 40, 40, 40, 40,
    0, 0, 100, 100, 100, 100, 100,
  };
  uint8_t out[21];
  CfxRefPlane pp = plane_of (p, 7, 3), pc = plane_of (c, 7, 3);
  CfxRefPlane po = plane_of (out, 7, 3);

  memset (p, 0, sizeof (p));
  cfx_ref_deinterlace_plane (&po, &pp, &pc, &pc, 0, 1, CFX_REF_DEINT_YADIF,
      1, 0);
  if (out[7 + 3] != 70)
    fail ("yadif direction x=3: got %d, expected 70", out[7 + 3]);
  if (out[7 + 0] != 0)
    fail ("yadif edge x=0: got %d, expected 0", out[7 + 0]);
  if (out[7 + 2] != 50)
    fail ("yadif edge x=2: got %d, expected 50", out[7 + 2]);
  if (memcmp (out, c, 7) != 0 || memcmp (out + 14, c + 14, 7) != 0)
    fail ("yadif: copied rows differ from cur");
}

static void
kat_bwdif (void)
{
  /* 3x8 plane, the same value across each row; parity 0: rows 0 2 4 6
   * copied, rows 1 3 5 7 interpolated. */
  static const int rows[8] = { 10, 0, 100, 0, 120, 0, 30, 0 };
  static const int want61[4] = { 20, 131, 30, 20 };
  uint8_t c[24], n[24], out[24];
  CfxRefPlane pc = plane_of (c, 3, 8), pn = plane_of (n, 3, 8);
  CfxRefPlane po = plane_of (out, 3, 8);
  int x, y;

  for (y = 0; y < 8; y++)
    for (x = 0; x < 3; x++)
      c[y * 3 + x] = (uint8_t) rows[y];

  /* FFmpeg 5.1's intra only, every row.
   * y = 3: m = 2, p = 4, m3 = 0, p3 = 6:
   *   (5077 * (100 + 120) - 981 * (10 + 30)) >> 13
   *   = (1116940 - 39240) >> 13 = 1077700 >> 13 = 131  (8192 * 131 =
   *   1073152, remainder 4548)
   * y = 1: m = 0, p = 2, m3 = y+1 = 2, p3 = 4:
   *   (5077 * 110 - 981 * 220) >> 13 = (558470 - 215820) >> 13
   *   = 342650 >> 13 = 41  (8192 * 41 = 335872)
   * y = 5: m = 4, p = 6, m3 = 2, p3 = y-1 = 4:
   *   (5077 * 150 - 981 * 220) >> 13 = (761550 - 215820) >> 13
   *   = 545730 >> 13 = 66  (8192 * 66 = 540672)
   * y = 7 (last row): m = 6, p = y-1 = 6, m3 = 4, p3 = y-1 = 6:
   *   (5077 * 60 - 981 * 150) >> 13 = (304620 - 147150) >> 13
   *   = 157470 >> 13 = 19  (8192 * 19 = 155648) */
  cfx_ref_deinterlace_plane_as (&po, &pc, &pc, &pc, 0, 1,
      CFX_REF_DEINT_BWDIF, 1, 1, CFX_REF_BWDIF_FFMPEG_5_1);
  if (out[3 * 3 + 1] != 131)
    fail ("bwdif 5.1 intra y=3: got %d, expected 131", out[3 * 3 + 1]);
  if (out[1 * 3 + 1] != 41)
    fail ("bwdif 5.1 intra y=1: got %d, expected 41", out[1 * 3 + 1]);
  if (out[5 * 3 + 1] != 66)
    fail ("bwdif 5.1 intra y=5: got %d, expected 66", out[5 * 3 + 1]);
  if (out[7 * 3 + 1] != 19)
    fail ("bwdif 5.1 intra y=7: got %d, expected 19", out[7 * 3 + 1]);

  /* FFmpeg 6.1's first field of a stream: P = C (the first frame stands
   * in for its predecessor), N = C + 20 on the copied rows; parity 0,
   * tff 1: A = P, B = C, so d = C[y] = 0 and td0 = td1 = 0,
   * td2 = (20 + 20) >> 1 = 20. Rows y < 3 and y + 3 >= 8 take the edge
   * rule, y = 3 the intra filter (131 as above).
   * y = 1: c = 10, e = 100, no spatial check (y < 2): (10 + 100) >> 1 = 55
   *   into [d - 20, d + 20]: 20
   * y = 5: c = 120, e = 30, spatial check (y + 3 = h): b = 0 - 120,
   *   f = 0 - 30, d - c = -120, d - e = -30: hi = max (-30, -120, -120)
   *   = -30, lo = min (-30, -120, -30) = -120, diff = max (20, -120, 30)
   *   = 30; (120 + 30) >> 1 = 75 into [-30, 30]: 30
   * y = 7: m = 6, p = y-1 = 6, no spatial check (y + 3 > h): 30 into
   *   [-20, 20]: 20 */
  for (y = 0; y < 8; y++)
    for (x = 0; x < 3; x++)
      n[y * 3 + x] = (uint8_t) (rows[y] + (y & 1 ? 0 : 20));
  cfx_ref_deinterlace_plane (&po, &pc, &pc, &pn, 0, 1, CFX_REF_DEINT_BWDIF,
      1, 1);
  for (y = 1; y < 8; y += 2)
    if (out[y * 3 + 1] != want61[y / 2])
      fail ("bwdif 6.1 first field y=%d: got %d, expected %d", y,
          out[y * 3 + 1], want61[y / 2]);

  /* clipping below 0: rows 0 2 = 0, row 4 = 255; y = 1 intra:
   *   (5077 * (0 + 0) - 981 * (0 + 255)) >> 13 = -250155 >> 13
   *   = floor (-30.5) = -31 -> clipped to 0 */
  for (x = 0; x < 3; x++) {
    c[0 * 3 + x] = 0;
    c[2 * 3 + x] = 0;
    c[4 * 3 + x] = 255;
  }
  cfx_ref_deinterlace_plane_as (&po, &pc, &pc, &pc, 0, 1,
      CFX_REF_DEINT_BWDIF, 1, 1, CFX_REF_BWDIF_FFMPEG_5_1);
  if (out[1 * 3 + 1] != 0)
    fail ("bwdif intra clip: got %d, expected 0", out[1 * 3 + 1]);

  /* not intra, P = C = N: every temporal difference is 0, so diff == 0 and
   * out = d = (C[y] + C[y]) >> 1 = C[y]: the weave of the still frame */
  for (y = 0; y < 8; y++)
    for (x = 0; x < 3; x++)
      c[y * 3 + x] = (uint8_t) (y * 20 + x * 3 + 1);
  cfx_ref_deinterlace_plane (&po, &pc, &pc, &pc, 0, 1, CFX_REF_DEINT_BWDIF,
      1, 0);
  expect_plane ("bwdif still frame", out, c, 3, 8);
}

static void
kat_plane16 (void)
{
  /* depth 8 through the 16-bit entry (df = 1, max 255) must give exactly
   * the 8-bit function's output, on random planes, every mode */
  enum
  { W = 13, H = 11 };
  uint8_t f8[3][W * H], out8[W * H];
  uint16_t f16[3][W * H], out16[W * H];
  CfxRefPlane p8[3], o8 = plane_of (out8, W, H);
  CfxRefPlane16 p16[3], o16 = { out16, W, W, H };
  uint32_t st = 0x9e3779b9u;
  int i, k, m, parity, sc;

  for (k = 0; k < 3; k++) {
    for (i = 0; i < W * H; i++) {
      st ^= st << 13;
      st ^= st >> 17;
      st ^= st << 5;
      f8[k][i] = (uint8_t) (st >> 24);
      f16[k][i] = f8[k][i];
    }
    p8[k] = plane_of (f8[k], W, H);
    p16[k].data = f16[k];
    p16[k].stride = W;
    p16[k].width = W;
    p16[k].height = H;
  }
  for (m = 0; m < 4; m++)
    for (parity = 0; parity < 2; parity++)
      for (sc = 0; sc < 2; sc++) {
        cfx_ref_deinterlace_plane (&o8, &p8[0], &p8[1], &p8[2], parity, 1,
            (CfxRefDeintMethod) m, sc, sc);
        cfx_ref_deinterlace_plane16 (&o16, &p16[0], &p16[1], &p16[2], 8,
            parity, 1, (CfxRefDeintMethod) m, sc, sc);
        for (i = 0; i < W * H; i++)
          if (out8[i] != out16[i]) {
            fail ("plane16 depth 8: method %d parity %d flag %d: sample %d "
                "%d != %d", m, parity, sc, i, out16[i], out8[i]);
            break;
          }
      }
}

static void
kat_bwdif16 (void)
{
  /* 1x8 plane at 10 bits, parity 0, intra only; rows 0 2 4 6 = 1023 0 0
   * 1023. FFmpeg 5.1 (to 8.x) reaches 2 rows for two-byte samples:
   *   y = 1: m = y+1 = 2 (y > 1 fails), p = 2, m3 = y+1 = 2, p3 = 4:
   *     (5077 * 0 - 981 * 0) >> 13 = 0
   *   y = 3: m = 2, p = 4, m3 = y+1 = 4 (y > 5 fails), p3 = y-1 = 2
   *     (y+6 < 8 fails): 0
   *   y = 5: m = 4, p = 6, m3 = y+1 = 6, p3 = y-1 = 4:
   *     (5077 * 1023 - 981 * 1023) >> 13 = 4190208 >> 13 = 511
   *   y = 7: m = 6, p = 6, m3 = 4, p3 = 6:
   *     (5077 * 2046 - 981 * 1023) >> 13 = (10387542 - 1003563) >> 13
   *     = 9383979 >> 13 = 1145 -> clipped to 1023
   * FFmpeg 9.x reaches 1 row, as for 8 bits:
   *   y = 1: m = 0, p = 2, m3 = y+1 = 2, p3 = 4:
   *     5077 * 1023 >> 13 = 5193771 >> 13 = 634
   *   y = 3: m = 2, p = 4, m3 = 0, p3 = 6:
   *     -981 * 2046 >> 13 = floor (-245.02) -> clipped to 0
   *   y = 5: m = 4, p = 6, m3 = 2, p3 = y-1 = 4: 634
   *   y = 7: as above, 1023
   * FFmpeg 6.1 to 8.x: y = 1, 5 and 7 take the edge rule; P = C = N, so
   * every temporal difference is 0 and they keep the weave value C[y] = 1;
   * y = 3 is the intra filter's 0. */
  static const int want51[4] = { 0, 0, 511, 1023 };
  static const int want9[4] = { 634, 0, 634, 1023 };
  static const int want61[4] = { 1, 0, 1, 1 };
  uint16_t c[8] = { 1023, 1, 0, 1, 0, 1, 1023, 1 }, out[8];
  CfxRefPlane16 pc = { c, 1, 1, 8 }, po = { out, 1, 1, 8 };
  int i;

  cfx_ref_deinterlace_plane16_as (&po, &pc, &pc, &pc, 10, 0, 1,
      CFX_REF_DEINT_BWDIF, 1, 1, CFX_REF_BWDIF_FFMPEG_5_1);
  for (i = 0; i < 4; i++)
    if (out[2 * i + 1] != want51[i])
      fail ("bwdif16 5.1 intra y=%d: got %d, expected %d", 2 * i + 1,
          out[2 * i + 1], want51[i]);
  cfx_ref_deinterlace_plane16_as (&po, &pc, &pc, &pc, 10, 0, 1,
      CFX_REF_DEINT_BWDIF, 1, 1, CFX_REF_BWDIF_FFMPEG_9);
  for (i = 0; i < 4; i++)
    if (out[2 * i + 1] != want9[i])
      fail ("bwdif16 9 intra y=%d: got %d, expected %d", 2 * i + 1,
          out[2 * i + 1], want9[i]);
  cfx_ref_deinterlace_plane16 (&po, &pc, &pc, &pc, 10, 0, 1,
      CFX_REF_DEINT_BWDIF, 1, 1);
  for (i = 0; i < 4; i++)
    if (out[2 * i + 1] != want61[i])
      fail ("bwdif16 6.1 intra y=%d: got %d, expected %d", 2 * i + 1,
          out[2 * i + 1], want61[i]);
}

/* ---- 2. comparison with FFmpeg ---------------------------------------- */

typedef struct
{
  int w[3], h[3];
  size_t off[3];
  size_t frame_size;
} Geometry;

static Geometry
geometry_420 (int w, int h)
{
  Geometry g;

  g.w[0] = w;
  g.h[0] = h;
  g.w[1] = g.w[2] = (w + 1) / 2;
  g.h[1] = g.h[2] = (h + 1) / 2;
  g.off[0] = 0;
  g.off[1] = (size_t) w *h;
  g.off[2] = g.off[1] + (size_t) g.w[1] * g.h[1];
  g.frame_size = g.off[2] + (size_t) g.w[2] * g.h[2];
  return g;
}

typedef struct
{
  const char *name;
  int w, h, n;
  uint8_t *data;                /* n frames, yuv420p, packed */
} Clip;

typedef struct
{
  const char *filter;           /* "yadif" or "bwdif" */
  int mode;                     /* FFmpeg's mode number */
  int tff;                      /* field order the output must assume */
  int use_setfield;             /* 1: setfield=tff/bff, parity=auto */
} Config;

static char tmpdir[256];
static char *tmp_files[64];
static int n_tmp_files;

static const char *
tmp_path (const char *leaf)
{
  char buf[512];
  int i;

  snprintf (buf, sizeof (buf), "%s/%s", tmpdir, leaf);
  for (i = 0; i < n_tmp_files; i++)
    if (strcmp (tmp_files[i], buf) == 0)
      return tmp_files[i];
  if (n_tmp_files == 64) {
    fprintf (stderr, "too many temporary files\n");
    exit (1);
  }
  tmp_files[n_tmp_files] = strdup (buf);
  return tmp_files[n_tmp_files++];
}

static void
cleanup_tmp (void)
{
  int i;

  for (i = 0; i < n_tmp_files; i++) {
    unlink (tmp_files[i]);
    free (tmp_files[i]);
  }
  n_tmp_files = 0;
  if (tmpdir[0])
    rmdir (tmpdir);
  tmpdir[0] = 0;
}

static int
write_file (const char *path, const uint8_t * data, size_t size)
{
  FILE *f = fopen (path, "wb");
  size_t done;

  if (!f)
    return -1;
  done = fwrite (data, 1, size, f);
  if (fclose (f) != 0 || done != size)
    return -1;
  return 0;
}

static uint8_t *
read_file (const char *path, size_t *size)
{
  FILE *f = fopen (path, "rb");
  uint8_t *buf = NULL;
  size_t cap = 0, len = 0;

  if (!f)
    return NULL;
  for (;;) {
    size_t got;

    if (len == cap) {
      uint8_t *nb;

      cap = cap ? cap * 2 : 1 << 20;
      nb = realloc (buf, cap);
      if (!nb) {
        free (buf);
        fclose (f);
        return NULL;
      }
      buf = nb;
    }
    got = fread (buf + len, 1, cap - len, f);
    len += got;
    if (got == 0)
      break;
  }
  fclose (f);
  *size = len;
  return buf;
}

static int
run_cmd (const char *cmd)
{
  int rc = system (cmd);

  if (rc != 0)
    fprintf (stderr, "command failed (%d): %s\n", rc, cmd);
  return rc;
}

static uint32_t rng_state = 0x12345678u;

static uint32_t
rng (void)
{
  return cfx_ref_xorshift32 (&rng_state);
}

static Clip
clip_random (const char *name, int w, int h, int n, int lo, int span,
    int still_every)
{
  Geometry g = geometry_420 (w, h);
  Clip c;
  int i;
  size_t k;

  c.name = name;
  c.w = w;
  c.h = h;
  c.n = n;
  c.data = malloc (g.frame_size * n);
  for (i = 0; i < n; i++) {
    uint8_t *f = c.data + g.frame_size * i;

    /* still_every > 0: frame i repeats frame i-1 when i % still_every == 1,
     * to exercise the zero-motion paths */
    if (i > 0 && still_every > 0 && i % still_every == 1) {
      memcpy (f, f - g.frame_size, g.frame_size);
      continue;
    }
    for (k = 0; k < g.frame_size; k++)
      f[k] = (uint8_t) (lo + (int) (rng () % (uint32_t) span));
  }
  return c;
}

/* a clip rendered by FFmpeg's lavfi source */
static int
clip_lavfi (Clip * c, const char *name, const char *src, int w, int h, int n)
{
  Geometry g = geometry_420 (w, h);
  const char *path = tmp_path ("lavfi.yuv");
  char cmd[1024];
  size_t size;

  snprintf (cmd, sizeof (cmd),
      "ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i '%s' "
      "-frames:v %d -pix_fmt yuv420p -f rawvideo '%s'", src, n, path);
  if (run_cmd (cmd) != 0)
    return -1;
  c->data = read_file (path, &size);
  unlink (path);
  if (!c->data || size != g.frame_size * n) {
    fprintf (stderr, "%s: got %zu bytes, expected %zu\n", name, size,
        g.frame_size * n);
    free (c->data);
    return -1;
  }
  c->name = name;
  c->w = w;
  c->h = h;
  c->n = n;
  return 0;
}

static long total_outputs, total_samples, total_mismatches;

/* bwdif's rules of the `ffmpeg` being compared with */
static CfxRefBwdifRules ffmpeg_rules = CFX_REF_BWDIF_FFMPEG_6_1;

/* FFmpeg's filter string for @cfg */
static void
config_vf (const Config * cfg, char *vf, size_t size)
{
  if (cfg->use_setfield)
    snprintf (vf, size, "setfield=%s,%s=mode=%d:parity=auto:deint=all",
        cfg->tff ? "tff" : "bff", cfg->filter, cfg->mode);
  else
    snprintf (vf, size, "%s=mode=%d:parity=%s:deint=all", cfg->filter,
        cfg->mode, cfg->tff ? "tff" : "bff");
}

static CfxRefDeintMethod
config_method (const Config * cfg)
{
  return strcmp (cfg->filter, "bwdif") == 0 ? CFX_REF_DEINT_BWDIF :
      CFX_REF_DEINT_YADIF;
}

/* Where output @o of FFmpeg's run of @cfg over @n input frames comes from:
 * its frame and field, the neighbours (the stream's ends stand in for
 * missing ones), the parity of the rows it interpolates, and whether bwdif
 * treats it as its stream's first or last field (intra only) */
typedef struct
{
  int frame, field, prev, next, parity, intra;
} OutputField;

static OutputField
output_field (const Config * cfg, int n, int o)
{
  int send_field = cfg->mode & 1, last = n - 1;
  OutputField f;

  f.frame = send_field ? o / 2 : o;
  f.field = send_field ? o % 2 : 0;
  f.prev = f.frame > 0 ? f.frame - 1 : 0;
  f.next = f.frame < last ? f.frame + 1 : last;
  f.parity = cfg->tff ^ (f.field == 0);
  f.intra = 0;
  if (config_method (cfg) == CFX_REF_DEINT_BWDIF)
    f.intra = send_field ? (f.frame == 0 && f.field == 0)
        || (f.frame == last && f.field == 1) : f.frame == 0;
  return f;
}

/* FFmpeg on a raw clip of @pix_fmt, the same format out; @one_thread:
 * no slice threading in the filter */
static int
run_ffmpeg (const char *pix_fmt, int w, int h, const char *in_path,
    const char *vf, const char *out_path, int one_thread)
{
  char cmd[2048];

  snprintf (cmd, sizeof (cmd),
      "ffmpeg -nostdin -hide_banner -loglevel error -y %s"
      "-f rawvideo -pix_fmt %s -video_size %dx%d -framerate 25 -i '%s' "
      "-vf '%s' -fps_mode passthrough -f rawvideo -pix_fmt %s '%s'",
      one_thread ? "-filter_threads 1 " : "", pix_fmt, w, h, in_path, vf,
      pix_fmt, out_path);
  return run_cmd (cmd);
}

/* Differences between the reference's plane and FFmpeg's (@bytes a
 * sample, @w x @h samples from @off of each frame buffer), the first ones
 * of a configuration (@mism so far) printed; counts the samples */
static long
plane_mismatches (const void *ref, const void *ff, int bytes, size_t off,
    int w, int h, const char *what, int o, const OutputField * f, int pl,
    long mism)
{
  long n = 0;
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      size_t k = off + (size_t) y * w + x;
      int a = bytes == 1 ? ((const uint8_t *) ref)[k] :
          ((const uint16_t *) ref)[k];
      int b = bytes == 1 ? ((const uint8_t *) ff)[k] :
          ((const uint16_t *) ff)[k];

      if (a != b) {
        if (mism + n < 10)
          fprintf (stderr, "MISMATCH %s: output %d (frame %d field %d, "
              "intra %d) plane %d x=%d y=%d: ref %d ffmpeg %d\n", what, o,
              f->frame, f->field, f->intra, pl, x, y, a, b);
        n++;
      }
    }
  total_samples += (long) w *h;
  return n;
}

/* A configuration's result line (@head, then the outputs) and totals */
static void
finish_config (const char *head, const char *where, int n_out, long mism)
{
  printf ("%s %3d outputs  %s", head, n_out, mism ? "" : "ok\n");
  if (mism) {
    printf ("%ld MISMATCHES\n", mism);
    fail ("%s: %ld differing samples", where, mism);
  }
  total_outputs += n_out;
  total_mismatches += mism;
}

/* Every configuration a clip is compared in: yadif modes 0-3 and bwdif
 * modes 0-1, each with tff and bff */
static void
for_each_config (void (*compare) (const void *clip, const Config * cfg),
    const void *clip)
{
  Config cfg;
  int m, t;

  for (t = 1; t >= 0; t--) {
    cfg.tff = t;
    cfg.use_setfield = 0;
    cfg.filter = "yadif";
    for (m = 0; m < 4; m++) {
      cfg.mode = m;
      compare (clip, &cfg);
    }
    cfg.filter = "bwdif";
    for (m = 0; m < 2; m++) {
      cfg.mode = m;
      compare (clip, &cfg);
    }
  }
}

/* Runs one FFmpeg configuration on a clip and compares every sample. */
static void
compare_config (const Clip * clip, const Config * cfg)
{
  Geometry g = geometry_420 (clip->w, clip->h);
  const char *in_path = tmp_path ("in.yuv");
  const char *out_path = tmp_path ("out.yuv");
  int send_field = cfg->mode & 1;
  int spatial_check = !(cfg->mode & 2);
  int n_out = clip->n * (send_field ? 2 : 1);
  char vf[256], what[320], head[400];
  uint8_t *ff, *ref;
  size_t ff_size;
  long mism = 0;
  int o, pl;

  config_vf (cfg, vf, sizeof (vf));

  if (write_file (in_path, clip->data, g.frame_size * clip->n) != 0) {
    fail ("%s: cannot write %s", clip->name, in_path);
    return;
  }
  if (run_ffmpeg ("yuv420p", clip->w, clip->h, in_path, vf, out_path, 0)) {
    fail ("%s / %s: ffmpeg failed", clip->name, vf);
    return;
  }
  ff = read_file (out_path, &ff_size);
  unlink (out_path);
  if (!ff || ff_size != g.frame_size * n_out) {
    fail ("%s / %s: ffmpeg gave %zu bytes, expected %d frames (%zu bytes)",
        clip->name, vf, ff ? ff_size : 0, n_out, g.frame_size * n_out);
    free (ff);
    return;
  }

  snprintf (what, sizeof (what), "%s %s", clip->name, vf);
  ref = malloc (g.frame_size);
  for (o = 0; o < n_out; o++) {
    OutputField f = output_field (cfg, clip->n, o);
    const uint8_t *fp = clip->data + g.frame_size * f.prev;
    const uint8_t *fc = clip->data + g.frame_size * f.frame;
    const uint8_t *fn = clip->data + g.frame_size * f.next;
    const uint8_t *fo = ff + g.frame_size * o;

    for (pl = 0; pl < 3; pl++) {
      int w = g.w[pl], h = g.h[pl];
      CfxRefPlane P = plane_of ((uint8_t *) fp + g.off[pl], w, h);
      CfxRefPlane C = plane_of ((uint8_t *) fc + g.off[pl], w, h);
      CfxRefPlane N = plane_of ((uint8_t *) fn + g.off[pl], w, h);
      CfxRefPlane D = plane_of (ref + g.off[pl], w, h);

      cfx_ref_deinterlace_plane_as (&D, &P, &C, &N, f.parity, cfg->tff,
          config_method (cfg), spatial_check, f.intra, ffmpeg_rules);
      mism += plane_mismatches (ref, fo, 1, g.off[pl], w, h, what, o, &f,
          pl, mism);
    }
  }
  free (ref);
  free (ff);

  snprintf (head, sizeof (head), "%-12s %4dx%-4d %2d frames  %-52s",
      clip->name, clip->w, clip->h, clip->n, vf);
  snprintf (what, sizeof (what), "%s / %s", clip->name, vf);
  finish_config (head, what, n_out, mism);
}

static void
compare_config_of_clip (const void *clip, const Config * cfg)
{
  compare_config (clip, cfg);
}

static void
compare_clip (const Clip * clip)
{
  for_each_config (compare_config_of_clip, clip);
}

/* ---- 3. high bit depth against FFmpeg ---------------------------------- */

typedef struct
{
  const char *pix_fmt;          /* FFmpeg's name, little-endian */
  int depth;
  int cw, ch;                   /* chroma subsampling shifts */
} Format16;

static Geometry
geometry_of (int w, int h, const Format16 * fmt)
{
  Geometry g;

  g.w[0] = w;
  g.h[0] = h;
  g.w[1] = g.w[2] = (w + (1 << fmt->cw) - 1) >> fmt->cw;
  g.h[1] = g.h[2] = (h + (1 << fmt->ch) - 1) >> fmt->ch;
  /* in samples here, not bytes */
  g.off[0] = 0;
  g.off[1] = (size_t) w *h;
  g.off[2] = g.off[1] + (size_t) g.w[1] * g.h[1];
  g.frame_size = g.off[2] + (size_t) g.w[2] * g.h[2];
  return g;
}

typedef struct
{
  const char *name;
  const Format16 *fmt;
  int w, h, n;
  uint16_t *data;               /* n frames, planar, native order */
} Clip16;

static CfxRefPlane16
plane16_of (uint16_t * data, int w, int h)
{
  CfxRefPlane16 p;

  p.data = data;
  p.stride = w;
  p.width = w;
  p.height = h;
  return p;
}

/* raw files are little-endian whatever the host */
static int
write_file16 (const char *path, const uint16_t * data, size_t n)
{
  uint8_t *b = malloc (n * 2);
  size_t k;
  int rc;

  for (k = 0; k < n; k++) {
    b[2 * k] = (uint8_t) (data[k] & 0xff);
    b[2 * k + 1] = (uint8_t) (data[k] >> 8);
  }
  rc = write_file (path, b, n * 2);
  free (b);
  return rc;
}

static uint16_t *
read_file16 (const char *path, size_t *n)
{
  size_t size, k;
  uint8_t *b = read_file (path, &size);
  uint16_t *d;

  if (!b)
    return NULL;
  d = malloc (size / 2 * sizeof (uint16_t) + 1);
  for (k = 0; k < size / 2; k++)
    d[k] = (uint16_t) (b[2 * k] | (b[2 * k + 1] << 8));
  free (b);
  *n = size & 1 ? (size_t) -1 : size / 2;
  return d;
}

static Clip16
clip16_random (const char *name, const Format16 * fmt, int w, int h, int n,
    int lo, int span, int still_every)
{
  Geometry g = geometry_of (w, h, fmt);
  Clip16 c;
  int i;
  size_t k;

  c.name = name;
  c.fmt = fmt;
  c.w = w;
  c.h = h;
  c.n = n;
  c.data = malloc (g.frame_size * n * sizeof (uint16_t));
  for (i = 0; i < n; i++) {
    uint16_t *f = c.data + g.frame_size * i;

    if (i > 0 && still_every > 0 && i % still_every == 1) {
      memcpy (f, f - g.frame_size, g.frame_size * sizeof (uint16_t));
      continue;
    }
    for (k = 0; k < g.frame_size; k++)
      f[k] = (uint16_t) (lo + (int) (rng () % (uint32_t) span));
  }
  return c;
}

/* natural content: FFmpeg's lavfi source rendered straight at the depth */
static int
clip16_lavfi (Clip16 * c, const char *name, const Format16 * fmt,
    const char *src, int w, int h, int n)
{
  Geometry g = geometry_of (w, h, fmt);
  const char *path = tmp_path ("lavfi16.yuv");
  char cmd[1024];
  size_t got = 0;

  snprintf (cmd, sizeof (cmd),
      "ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i '%s' "
      "-frames:v %d -pix_fmt %s -f rawvideo '%s'", src, n, fmt->pix_fmt, path);
  if (run_cmd (cmd) != 0)
    return -1;
  c->data = read_file16 (path, &got);
  unlink (path);
  if (!c->data || got != g.frame_size * n) {
    fprintf (stderr, "%s: got %zu samples, expected %zu\n", name, got,
        g.frame_size * n);
    free (c->data);
    return -1;
  }
  c->name = name;
  c->fmt = fmt;
  c->w = w;
  c->h = h;
  c->n = n;
  return 0;
}

static void
compare_config16 (const Clip16 * clip, const Config * cfg)
{
  const Format16 *fmt = clip->fmt;
  Geometry g = geometry_of (clip->w, clip->h, fmt);
  const char *in_path = tmp_path ("in16.yuv");
  const char *out_path = tmp_path ("out16.yuv");
  int send_field = cfg->mode & 1;
  int spatial_check = !(cfg->mode & 2);
  int n_out = clip->n * (send_field ? 2 : 1);
  char vf[256], what[320], head[400];
  uint16_t *ff, *ref;
  size_t ff_n;
  long mism = 0;
  int o, pl;

  config_vf (cfg, vf, sizeof (vf));

  if (write_file16 (in_path, clip->data, g.frame_size * clip->n) != 0) {
    fail ("%s: cannot write %s", clip->name, in_path);
    return;
  }
  /* same pix_fmt in and out: no conversion anywhere in the graph. One
   * filter thread: with slices, FFmpeg 5.1's high-bit-depth yadif gave a
   * different value at x = 0 of a slice's first row from run to run (seen
   * at 64x48, y = 16), so the comparison would be with a moving target. */
  if (run_ffmpeg (fmt->pix_fmt, clip->w, clip->h, in_path, vf, out_path, 1)) {
    fail ("%s %s / %s: ffmpeg failed", clip->name, fmt->pix_fmt, vf);
    return;
  }
  ff = read_file16 (out_path, &ff_n);
  unlink (out_path);
  if (!ff || ff_n != g.frame_size * n_out) {
    fail ("%s %s / %s: ffmpeg gave %zu samples, expected %d frames (%zu)",
        clip->name, fmt->pix_fmt, vf, ff ? ff_n : 0, n_out,
        g.frame_size * n_out);
    free (ff);
    return;
  }

  snprintf (what, sizeof (what), "%s %s %s", clip->name, fmt->pix_fmt, vf);
  ref = malloc (g.frame_size * sizeof (uint16_t));
  for (o = 0; o < n_out; o++) {
    OutputField f = output_field (cfg, clip->n, o);
    uint16_t *fp = clip->data + g.frame_size * f.prev;
    uint16_t *fc = clip->data + g.frame_size * f.frame;
    uint16_t *fn = clip->data + g.frame_size * f.next;
    const uint16_t *fo = ff + g.frame_size * o;

    for (pl = 0; pl < 3; pl++) {
      int w = g.w[pl], h = g.h[pl];
      CfxRefPlane16 P = plane16_of (fp + g.off[pl], w, h);
      CfxRefPlane16 C = plane16_of (fc + g.off[pl], w, h);
      CfxRefPlane16 N = plane16_of (fn + g.off[pl], w, h);
      CfxRefPlane16 D = plane16_of (ref + g.off[pl], w, h);

      cfx_ref_deinterlace_plane16_as (&D, &P, &C, &N, fmt->depth,
          f.parity, cfg->tff, config_method (cfg), spatial_check, f.intra,
          ffmpeg_rules);
      mism += plane_mismatches (ref, fo, 2, g.off[pl], w, h, what, o, &f,
          pl, mism);
    }
  }
  free (ref);
  free (ff);

  snprintf (head, sizeof (head), "%-12s %-12s %3dx%-3d %2d frames  %-52s",
      clip->name, fmt->pix_fmt, clip->w, clip->h, clip->n, vf);
  snprintf (what, sizeof (what), "%s %s / %s", clip->name, fmt->pix_fmt, vf);
  finish_config (head, what, n_out, mism);
}

static void
compare_config_of_clip16 (const void *clip, const Config * cfg)
{
  compare_config16 (clip, cfg);
}

static void
compare_clip16 (const Clip16 * clip)
{
  for_each_config (compare_config_of_clip16, clip);
}

/* 10-bit 4:2:0 and 4:2:2, 16-bit 4:4:4: FFmpeg's two-byte C paths at the
 * two depths that matter (clipping at 1023 and at 65535) */
static void
ffmpeg_comparison16 (void)
{
  static const Format16 formats[3] = {
    {"yuv420p10le", 10, 1, 1},
    {"yuv422p10le", 10, 1, 0},
    {"yuv444p16le", 16, 0, 0},
  };
  int f;

  for (f = 0; f < 3; f++) {
    const Format16 *fmt = &formats[f];
    int max = (1 << fmt->depth) - 1;
    Clip16 clips[8];
    int n_clips = 0, natural = -1, i;
    Config cfg;

    clips[n_clips++] = clip16_random ("rand", fmt, 64, 48, 5, 0, max + 1, 0);
    clips[n_clips++] = clip16_random ("rand", fmt, 67, 37, 5, 0, max + 1, 0);
    /* small deltas around mid-grey with repeated frames */
    clips[n_clips++] = clip16_random ("rand-lowamp", fmt, 48, 30, 7,
        max / 2 - 2, 4, 3);
    /* extremes only: clipping of the cubic interpolators at 0 and max */
    clips[n_clips] = clip16_random ("rand-0/max", fmt, 40, 26, 6, 0, 2, 4);
    {
      size_t k, size = geometry_of (40, 26, fmt).frame_size * clips[n_clips].n;

      for (k = 0; k < size; k++)
        clips[n_clips].data[k] = clips[n_clips].data[k] ? max : 0;
    }
    n_clips++;
    if (clip16_lavfi (&clips[n_clips], "testsrc2", fmt,
            "testsrc2=size=176x144:rate=25", 176, 144, 6) == 0)
      natural = n_clips++;
    else
      fail ("could not render testsrc2 as %s", fmt->pix_fmt);
    if (clip16_lavfi (&clips[n_clips], "testsrc2-odd", fmt,
            "testsrc2=size=80x56:rate=25,crop=75:51:0:0:exact=1", 75, 51,
            5) == 0)
      n_clips++;
    else
      fail ("could not render odd-sized testsrc2 as %s", fmt->pix_fmt);

    for (i = 0; i < n_clips; i++)
      compare_clip16 (&clips[i]);

    cfg.use_setfield = 1;
    for (i = 0; i < 2 && natural >= 0; i++) {
      cfg.tff = i;
      cfg.filter = "yadif";
      cfg.mode = 1;
      compare_config16 (&clips[natural], &cfg);
      cfg.filter = "bwdif";
      compare_config16 (&clips[natural], &cfg);
    }

    for (i = 0; i < n_clips; i++)
      free (clips[i].data);
  }
}

static int
ffmpeg_available (void)
{
  return system ("ffmpeg -hide_banner -loglevel error -filters "
      ">/dev/null 2>&1") == 0;
}

/* The major version in the first line of `ffmpeg -version` ("ffmpeg
 * version 7.1.5-0+deb13u1 ..."; "n7.1" for a tag's build), or -1 where
 * there is none (a build of a git snapshot: "N-1234-g...") */
static int
ffmpeg_major (char *line, size_t size)
{
  FILE *f = popen ("ffmpeg -hide_banner -version 2>/dev/null", "r");
  const char *v;
  int major = -1;

  line[0] = 0;
  if (!f)
    return -1;
  if (!fgets (line, (int) size, f))
    line[0] = 0;
  pclose (f);
  line[strcspn (line, "\n")] = 0;
  v = strstr (line, "version ");
  if (v) {
    v += strlen ("version ");
    if (*v == 'n')
      v++;
    if (*v >= '0' && *v <= '9')
      major = atoi (v);
  }
  return major;
}

static void
pick_ffmpeg_rules (void)
{
  static const char *names[] = { "6.1 to 8.x", "5.1", "9.x" };
  char line[256];
  int major = ffmpeg_major (line, sizeof (line));

  if (major < 0)
    ffmpeg_rules = CFX_REF_BWDIF_FFMPEG_6_1;
  else if (major <= 5)
    ffmpeg_rules = CFX_REF_BWDIF_FFMPEG_5_1;
  else if (major <= 8)
    ffmpeg_rules = CFX_REF_BWDIF_FFMPEG_6_1;
  else
    ffmpeg_rules = CFX_REF_BWDIF_FFMPEG_9;
  printf ("ffmpeg -version: %s\n", line[0] ? line : "(nothing)");
  printf ("bwdif: the reference's FFmpeg %s rules%s\n", names[ffmpeg_rules],
      major < 0 ? " (no version number: the default)" : "");
}

static void
ffmpeg_comparison (void)
{
  Clip clips[8];
  int n_clips = 0, natural = -1, i;
  const char *base = getenv ("TMPDIR");
  Config cfg;

  snprintf (tmpdir, sizeof (tmpdir), "%s/cfx-deint-XXXXXX",
      base && *base ? base : "/tmp");
  if (!mkdtemp (tmpdir)) {
    fail ("mkdtemp: %s", strerror (errno));
    tmpdir[0] = 0;
    return;
  }

  clips[n_clips++] = clip_random ("rand", 33, 17, 8, 0, 256, 0);
  clips[n_clips++] = clip_random ("rand", 64, 36, 9, 0, 256, 0);
  clips[n_clips++] = clip_random ("rand", 35, 22, 8, 0, 256, 0);
  clips[n_clips++] = clip_random ("rand", 720, 576, 8, 0, 256, 0);
  /* low amplitude with repeated frames: ties, diff == 0, small deltas */
  clips[n_clips++] = clip_random ("rand-lowamp", 48, 30, 10, 100, 4, 3);
  /* extremes only: exercises clipping of the cubic interpolators */
  clips[n_clips] = clip_random ("rand-0/255", 40, 26, 8, 0, 2, 4);
  {
    size_t k, size = geometry_420 (40, 26).frame_size * clips[n_clips].n;

    for (k = 0; k < size; k++)
      clips[n_clips].data[k] = clips[n_clips].data[k] ? 255 : 0;
  }
  n_clips++;
  if (clip_lavfi (&clips[n_clips], "testsrc2", "testsrc2=size=176x144:rate=25",
          176, 144, 10) == 0)
    natural = n_clips++;
  else
    fail ("could not render testsrc2");
  if (clip_lavfi (&clips[n_clips], "testsrc2-odd",
          "testsrc2=size=80x56:rate=25,crop=75:51:0:0:exact=1", 75, 51, 8) == 0)
    n_clips++;
  else
    fail ("could not render odd-sized testsrc2");

  for (i = 0; i < n_clips; i++)
    compare_clip (&clips[i]);

  /* field order from the frames (setfield) instead of the parity option */
  cfg.use_setfield = 1;
  for (i = 0; i < 2 && natural >= 0; i++) {
    cfg.tff = i;
    cfg.filter = "yadif";
    cfg.mode = 1;
    compare_config (&clips[natural], &cfg);
    cfg.filter = "bwdif";
    cfg.mode = 1;
    compare_config (&clips[natural], &cfg);
    cfg.mode = 0;
    compare_config (&clips[natural], &cfg);
  }

  for (i = 0; i < n_clips; i++)
    free (clips[i].data);
  ffmpeg_comparison16 ();
  cleanup_tmp ();

  printf ("FFmpeg comparison: %ld output frames, %ld samples, "
      "%ld mismatches\n", total_outputs, total_samples, total_mismatches);
}

int
main (void)
{
  const char *req = getenv ("CFX_REQUIRE_FFMPEG");

  setvbuf (stdout, NULL, _IOLBF, 0);

  kat_linear ();
  kat_ela ();
  kat_constant ();
  kat_yadif_direction ();
  kat_bwdif ();
  kat_plane16 ();
  kat_bwdif16 ();
  if (failures) {
    fprintf (stderr, "%d known-answer failures\n", failures);
    return 1;
  }
  printf ("known-answer tests: ok\n");

  if (!ffmpeg_available ()) {
    if (req && strcmp (req, "1") == 0) {
      fprintf (stderr, "FAIL: ffmpeg not found and CFX_REQUIRE_FFMPEG=1\n");
      return 1;
    }
    printf ("SKIP ffmpeg comparison\n");
    return 0;
  }

  pick_ffmpeg_rules ();
  ffmpeg_comparison ();
  if (failures) {
    fprintf (stderr, "%d failures\n", failures);
    return 1;
  }
  printf ("PASS\n");
  return 0;
}
