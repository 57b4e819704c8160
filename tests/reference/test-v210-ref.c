/* Self-test of the v210 CPU reference (v210.c). Exit 0 pass, 1 fail.
 *
 * - a 6x1 frame packed by hand;
 * - unpack against GStreamer's own v210 unpack (an independent reading of
 *   the format), on random frames of many widths;
 * - round trips planar -> v210 -> planar and v210 -> planar -> v210, and
 *   garbage in the unused bits does not reach the unpacked samples;
 * - samples wider than 10 bits pack as their low 10 bits. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/video/video.h>

#include "v210.h"
#include "ref-test.h"

static int failures;

static uint32_t rng_state = 12345u;

static uint32_t
rng (void)
{
  return cfx_ref_xorshift32 (&rng_state);
}

static const int widths[] = { 1, 2, 5, 6, 7, 47, 48, 49, 1920, 1921 };
static const int heights[] = { 1, 3, 17 };

#define N_WIDTHS ((int) (sizeof (widths) / sizeof (widths[0])))
#define N_HEIGHTS ((int) (sizeof (heights) / sizeof (heights[0])))

/* sentinel in the planar padding: unpack must never write there */
#define SENTINEL 0xbeef

/* A planar frame with a few samples of padding per row, so that mixed-up
 * strides show. */
typedef struct
{
  int width, height, cw;
  int y_stride, c_stride;
  uint16_t *y, *u, *v;
} Planar;

static Planar
planar_new (int width, int height)
{
  Planar p;
  long i, ny, nc;

  p.width = width;
  p.height = height;
  p.cw = (width + 1) / 2;
  p.y_stride = width + 3;
  p.c_stride = p.cw + 5;
  ny = (long) p.y_stride * height;
  nc = (long) p.c_stride * height;
  p.y = malloc (ny * sizeof (uint16_t));
  p.u = malloc (nc * sizeof (uint16_t));
  p.v = malloc (nc * sizeof (uint16_t));
  for (i = 0; i < ny; i++)
    p.y[i] = SENTINEL;
  for (i = 0; i < nc; i++)
    p.u[i] = p.v[i] = SENTINEL;
  return p;
}

static void
planar_free (Planar * p)
{
  free (p->y);
  free (p->u);
  free (p->v);
}

static void
planar_random (Planar * p, uint16_t mask)
{
  int r, x;

  for (r = 0; r < p->height; r++) {
    for (x = 0; x < p->width; x++)
      p->y[r * p->y_stride + x] = rng () & mask;
    for (x = 0; x < p->cw; x++) {
      p->u[r * p->c_stride + x] = rng () & mask;
      p->v[r * p->c_stride + x] = rng () & mask;
    }
  }
}

/* Compares the samples, and checks the padding still holds the sentinel. */
static int
planar_equal (const Planar * a, const Planar * b)
{
  int r, x;

  for (r = 0; r < a->height; r++) {
    for (x = 0; x < a->y_stride; x++)
      if (a->y[r * a->y_stride + x] != b->y[r * b->y_stride + x])
        return 0;
    for (x = 0; x < a->c_stride; x++)
      if (a->u[r * a->c_stride + x] != b->u[r * b->c_stride + x] ||
          a->v[r * a->c_stride + x] != b->v[r * b->c_stride + x])
        return 0;
  }
  return 1;
}

static int
padding_intact (const Planar * p)
{
  int r, x;

  for (r = 0; r < p->height; r++) {
    for (x = p->width; x < p->y_stride; x++)
      if (p->y[r * p->y_stride + x] != SENTINEL)
        return 0;
    for (x = p->cw; x < p->c_stride; x++)
      if (p->u[r * p->c_stride + x] != SENTINEL ||
          p->v[r * p->c_stride + x] != SENTINEL)
        return 0;
  }
  return 1;
}

static void
unpack (const uint8_t * src, int stride, Planar * p)
{
  ref_v210_unpack (src, stride, p->width, p->height, p->y, p->y_stride,
      p->u, p->c_stride, p->v, p->c_stride);
}

static void
pack (const Planar * p, uint8_t * dst, int stride)
{
  ref_v210_pack (p->y, p->y_stride, p->u, p->c_stride, p->v, p->c_stride,
      p->width, p->height, dst, stride);
}

static uint8_t *
random_bytes (long n)
{
  uint8_t *b = malloc (n);
  long i;

  for (i = 0; i < n; i++)
    b[i] = rng () >> 24;
  return b;
}

/* Bit mask (as bytes, like the frame) of the bits that carry samples in a
 * v210 frame of this width: written from the slot list of the format, not
 * from v210.c. Everything else (bits 30-31, unused slots of the last group,
 * the row padding) is 0. */
static uint8_t *
used_bits (int width, int height, int stride)
{
  /* slot (0..11, word = slot / 3) of each sample of a group */
  static const int y_slot[6] = { 1, 3, 5, 7, 9, 11 };
  static const int cb_slot[3] = { 0, 4, 8 };
  static const int cr_slot[3] = { 2, 6, 10 };
  uint8_t *m = calloc ((long) stride * height, 1);
  int cw = (width + 1) / 2;
  int r, i;

  for (r = 0; r < height; r++) {
    uint8_t *row = m + (long) r * stride;
    int slot, b;

    for (i = 0; i < width + 2 * cw; i++) {
      int g;
      uint32_t bits;

      if (i < width) {
        g = i / 6;
        slot = y_slot[i % 6];
      } else if (i < width + cw) {
        g = (i - width) / 3;
        slot = cb_slot[(i - width) % 3];
      } else {
        g = (i - width - cw) / 3;
        slot = cr_slot[(i - width - cw) % 3];
      }
      bits = 0x3ffu << (10 * (slot % 3));
      for (b = 0; b < 4; b++)
        row[16 * g + 4 * (slot / 3) + b] |= (bits >> (8 * b)) & 0xff;
    }
  }
  return m;
}

/* ---- known answer ------------------------------------------------------ */

static void
test_known_answer (void)
{
  /* Y = 10..15, Cb = 100 101 102, Cr = 200 201 202:
   *   word 0 = Cb0 | Y0 << 10  | Cr0 << 20 = 100 | 10 << 10 | 200 << 20
   *          = 0x00000064 + 0x00002800 + 0x0c800000 = 0x0c802864
   *   word 1 = Y1  | Cb1 << 10 | Y2 << 20  = 11 | 101 << 10 | 12 << 20
   *          = 0x0000000b + 0x00019400 + 0x00c00000 = 0x00c1940b
   *   word 2 = Cr1 | Y3 << 10  | Cb2 << 20 = 201 | 13 << 10 | 102 << 20
   *          = 0x000000c9 + 0x00003400 + 0x06600000 = 0x066034c9
   *   word 3 = Y4  | Cr2 << 10 | Y5 << 20  = 14 | 202 << 10 | 15 << 20
   *          = 0x0000000e + 0x00032800 + 0x00f00000 = 0x00f3280e
   * little endian, then zeros up to the 128-byte stride. */
  static const uint16_t y[6] = { 10, 11, 12, 13, 14, 15 };
  static const uint16_t u[3] = { 100, 101, 102 };
  static const uint16_t v[3] = { 200, 201, 202 };
  static const uint8_t expect[16] = {
    0x64, 0x28, 0x80, 0x0c, 0x0b, 0x94, 0xc1, 0x00,
    0xc9, 0x34, 0x60, 0x06, 0x0e, 0x28, 0xf3, 0x00,
  };
  uint8_t out[128];
  uint16_t y2[6], u2[3], v2[3];
  int i, zeros = 1;

  CHECK (ref_v210_stride (6) == 128, "stride(6) = %d", ref_v210_stride (6));
  memset (out, 0xaa, sizeof (out));
  ref_v210_pack (y, 6, u, 3, v, 3, 6, 1, out, 128);
  CHECK (memcmp (out, expect, 16) == 0,
      "6x1 packed %02x %02x %02x %02x ...", out[0], out[1], out[2], out[3]);
  for (i = 16; i < 128; i++)
    zeros &= out[i] == 0;
  CHECK (zeros, "6x1 row padding not zero");

  ref_v210_unpack (expect, 128, 6, 1, y2, 6, u2, 3, v2, 3);
  CHECK (memcmp (y, y2, sizeof (y)) == 0 && memcmp (u, u2, sizeof (u)) == 0
      && memcmp (v, v2, sizeof (v)) == 0, "6x1 unpack of the known bytes");
  printf ("ok known answer 6x1\n");
}

static void
test_strides (void)
{
  static const int w[] = { 1, 47, 48, 49, 96, 97, 1920, 1921 };
  static const int s[] = { 128, 128, 128, 256, 256, 384, 5120, 5248 };
  unsigned i;

  for (i = 0; i < sizeof (w) / sizeof (w[0]); i++)
    CHECK (ref_v210_stride (w[i]) == s[i], "stride(%d) = %d, want %d",
        w[i], ref_v210_stride (w[i]), s[i]);
  printf ("ok strides\n");
}

/* ---- GStreamer's unpack ------------------------------------------------ */

/* GStreamer unpacks v210 to AYUV64 (A, Y, U, V as 16-bit words per pixel;
 * video-format.c, unpack_v210). Each 10-bit sample s is shifted up to
 * s << 6; with flags 0 the top bits are also replicated below it,
 * (s << 6) | (s >> 4); with GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE the low 6
 * bits stay 0. Both are checked: the truncated one against s << 6 exactly,
 * the scaled one against (s << 6) | (s >> 4). Chroma of pixel x is sample
 * x / 2. */
static int
compare_gst_row (const GstVideoFormatInfo * info, GstVideoPackFlags flags,
    const uint8_t * frame, int stride, int row, const Planar * p,
    uint16_t * ayuv)
{
  gpointer data[GST_VIDEO_MAX_PLANES] = { (gpointer) frame };
  gint strides[GST_VIDEO_MAX_PLANES] = { stride };
  int x, c;

  info->unpack_func (info, flags, ayuv, data, strides, 0, row, p->width);
  for (x = 0; x < p->width; x++) {
    uint16_t ref[4];

    ref[0] = 0xffff;
    ref[1] = p->y[row * p->y_stride + x];
    ref[2] = p->u[row * p->c_stride + x / 2];
    ref[3] = p->v[row * p->c_stride + x / 2];
    for (c = 1; c < 4; c++) {
      ref[c] <<= 6;
      if (!(flags & GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE))
        ref[c] |= ref[c] >> 10;
    }
    for (c = 0; c < 4; c++)
      if (ayuv[4 * x + c] != ref[c]) {
        fprintf (stderr, "  width %d row %d x %d comp %d flags %d: "
            "gst 0x%04x ref 0x%04x\n", p->width, row, x, c, (int) flags,
            ayuv[4 * x + c], ref[c]);
        return 0;
      }
  }
  return 1;
}

static void
test_gstreamer (void)
{
  const GstVideoFormatInfo *info =
      gst_video_format_get_info (GST_VIDEO_FORMAT_v210);
  int wi, hi;

  CHECK (info && info->unpack_func
      && info->unpack_format == GST_VIDEO_FORMAT_AYUV64,
      "GStreamer has no v210 unpack to AYUV64");
  if (!info || !info->unpack_func)
    return;

  for (wi = 0; wi < N_WIDTHS; wi++) {
    int ok = 1;

    for (hi = 0; hi < N_HEIGHTS; hi++) {
      int w = widths[wi], h = heights[hi], r;
      int stride = ref_v210_stride (w);
      /* fully random: junk in bits 30-31, unused slots and padding too */
      uint8_t *frame = random_bytes ((long) stride * h);
      Planar p = planar_new (w, h);
      uint16_t *ayuv = malloc ((w + 6) * 4 * sizeof (uint16_t));

      unpack (frame, stride, &p);
      ok &= padding_intact (&p);
      for (r = 0; r < h; r++) {
        ok &= compare_gst_row (info, GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE,
            frame, stride, r, &p, ayuv);
        ok &= compare_gst_row (info, GST_VIDEO_PACK_FLAG_NONE, frame, stride,
            r, &p, ayuv);
      }
      free (ayuv);
      planar_free (&p);
      free (frame);
    }
    CHECK (ok, "unpack differs from GStreamer at width %d", widths[wi]);
    if (ok)
      printf ("ok gstreamer unpack width %d (heights 1 3 17)\n", widths[wi]);
  }
}

/* ---- round trips ------------------------------------------------------- */

static void
test_round_trips (void)
{
  int wi, hi;

  for (wi = 0; wi < N_WIDTHS; wi++) {
    int ok_planar = 1, ok_bytes = 1, ok_zero = 1, ok_poison = 1;

    for (hi = 0; hi < N_HEIGHTS; hi++) {
      int w = widths[wi], h = heights[hi];
      int stride = ref_v210_stride (w);
      long n = (long) stride * h, i;
      uint8_t *mask = used_bits (w, h, stride);
      uint8_t *frame = malloc (n), *frame2 = malloc (n);
      Planar a = planar_new (w, h), b = planar_new (w, h);

      /* planar -> v210 -> planar; pack leaves nothing but samples */
      planar_random (&a, 0x3ff);
      memset (frame, 0xaa, n);
      pack (&a, frame, stride);
      for (i = 0; i < n; i++)
        ok_zero &= (frame[i] & ~mask[i]) == 0;
      unpack (frame, stride, &b);
      ok_planar &= planar_equal (&a, &b);
      free (frame);

      /* v210 (unused bits zeroed) -> planar -> v210 */
      frame = random_bytes (n);
      for (i = 0; i < n; i++)
        frame[i] &= mask[i];
      unpack (frame, stride, &b);
      memset (frame2, 0x55, n);
      pack (&b, frame2, stride);
      ok_bytes &= memcmp (frame, frame2, n) == 0;

      /* junk in the unused bits does not change what unpack gives */
      for (i = 0; i < n; i++)
        frame2[i] = frame[i] | ((rng () >> 24) & ~mask[i]);
      unpack (frame2, stride, &a);
      ok_poison &= planar_equal (&a, &b);
      /* all ones, not just random junk */
      for (i = 0; i < n; i++)
        frame2[i] = frame[i] | ~mask[i];
      unpack (frame2, stride, &a);
      ok_poison &= planar_equal (&a, &b);

      planar_free (&a);
      planar_free (&b);
      free (frame);
      free (frame2);
      free (mask);
    }
    CHECK (ok_planar, "planar -> v210 -> planar differs at width %d",
        widths[wi]);
    CHECK (ok_zero, "pack left non-zero unused bits at width %d", widths[wi]);
    CHECK (ok_bytes, "v210 -> planar -> v210 differs at width %d", widths[wi]);
    CHECK (ok_poison, "unused bits changed unpack at width %d", widths[wi]);
    if (ok_planar && ok_zero && ok_bytes && ok_poison)
      printf ("ok round trips width %d (heights 1 3 17)\n", widths[wi]);
  }
}

/* ---- masking ----------------------------------------------------------- */

static void
test_masking (void)
{
  /* the known-answer frame with bits above 9 set: same bytes */
  static const uint16_t y[6] = { 0x400 | 10, 0x800 | 11, 0xfc00 | 12,
    0x1000 | 13, 0x8000 | 14, 0xffff
  };
  static const uint16_t u[3] = { 0x400 | 100, 0xf000 | 101, 0x7c00 | 102 };
  static const uint16_t v[3] = { 0x400 | 200, 0x200 | 0x400, 1024 };
  /* y[5] = 0xffff -> 1023, v[1] = 0x600 -> 0x200, v[2] = 1024 -> 0 */
  static const uint16_t y_low[6] = { 10, 11, 12, 13, 14, 1023 };
  static const uint16_t u_low[3] = { 100, 101, 102 };
  static const uint16_t v_low[3] = { 200, 0x200, 0 };
  uint8_t out[128], want[128];
  int wi;

  ref_v210_pack (y, 6, u, 3, v, 3, 6, 1, out, 128);
  ref_v210_pack (y_low, 6, u_low, 3, v_low, 3, 6, 1, want, 128);
  CHECK (memcmp (out, want, 128) == 0, "6x1 wide samples not masked");
  /* 1023 fills exactly bits 20-29 of word 3; bits 30-31 stay 0 */
  CHECK (out[15] == 0x3f, "Y5 = 0xffff: byte 15 0x%02x, want 0x3f", out[15]);

  /* random 16-bit samples pack as their low 10 bits, all widths */
  for (wi = 0; wi < N_WIDTHS; wi++) {
    int w = widths[wi], h = 3, r, x;
    int stride = ref_v210_stride (w);
    uint8_t *f1 = malloc ((long) stride * h), *f2 = malloc ((long) stride * h);
    Planar a = planar_new (w, h), b = planar_new (w, h);

    planar_random (&a, 0xffff);
    for (r = 0; r < h; r++) {
      for (x = 0; x < w; x++)
        b.y[r * b.y_stride + x] = a.y[r * a.y_stride + x] & 0x3ff;
      for (x = 0; x < a.cw; x++) {
        b.u[r * b.c_stride + x] = a.u[r * a.c_stride + x] & 0x3ff;
        b.v[r * b.c_stride + x] = a.v[r * a.c_stride + x] & 0x3ff;
      }
    }
    pack (&a, f1, stride);
    pack (&b, f2, stride);
    CHECK (memcmp (f1, f2, (long) stride * h) == 0,
        "wide samples not masked at width %d", w);
    planar_free (&a);
    planar_free (&b);
    free (f1);
    free (f2);
  }
  printf ("ok masking to 10 bits\n");
}

int
main (void)
{
  test_known_answer ();
  test_strides ();
  test_gstreamer ();
  test_round_trips ();
  test_masking ();

  if (failures) {
    printf ("FAIL: %d check(s) failed\n", failures);
    return 1;
  }
  printf ("PASS: v210 reference\n");
  return 0;
}
