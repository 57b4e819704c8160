/* Tests of the motion-compensated deinterlacing reference
 * (deinterlace-mc.c), by properties that hold whatever its tuning:
 *
 *  - the kept rows are the current frame's, byte for byte, and every
 *    sample of the output is written (two poisons give one result);
 *  - a still picture comes out woven (the progressive picture itself),
 *    which is also bwdif's result there (not at bwdif's intra-only ends);
 *  - an integer pan, vertical or horizontal, of a picture with fine detail
 *    is rebuilt better than bwdif does (PSNR of the interpolated rows
 *    against the progressive pictures);
 *  - across a cut (the previous frame another picture) the output is
 *    bwdif's;
 * on 3-plane 4:2:0 frames, odd and even sizes, 8 and 10 bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deinterlace-mc.h"
#include "ref-test.h"

static int failures;

/* a clip's frame: 3 planes, 4:2:0, samples kept as uint16_t or uint8_t */
typedef struct
{
  CfxRefMcFrame f;
  void *buf;
} Frame;

static void
frame_init (Frame * fr, int w, int h, int depth)
{
  int bps = depth > 8 ? 2 : 1, i;
  size_t off = 0, total;

  memset (fr, 0, sizeof (*fr));
  fr->f.n_planes = 3;
  fr->f.depth = depth;
  /* strides wider than the rows */
  total = (size_t) (w + 3) * h + 2 * (size_t) ((w + 1) / 2 + 3) *
      ((h + 1) / 2);
  fr->buf = calloc (total, bps);
  for (i = 0; i < 3; i++) {
    fr->f.width[i] = i ? (w + 1) / 2 : w;
    fr->f.height[i] = i ? (h + 1) / 2 : h;
    fr->f.stride[i] = fr->f.width[i] + 3;
    fr->f.data[i] = (uint8_t *) fr->buf + off * bps;
    off += (size_t) fr->f.stride[i] * fr->f.height[i];
  }
}

static int
get (const CfxRefMcFrame * f, int i, int x, int y)
{
  size_t o = (size_t) y * f->stride[i] + x;

  return f->depth == 8 ? ((uint8_t *) f->data[i])[o] :
      ((uint16_t *) f->data[i])[o];
}

static void
put (const CfxRefMcFrame * f, int i, int x, int y, int v)
{
  size_t o = (size_t) y * f->stride[i] + x;

  if (f->depth == 8)
    ((uint8_t *) f->data[i])[o] = (uint8_t) v;
  else
    ((uint16_t *) f->data[i])[o] = (uint16_t) v;
}

static void
fill (const CfxRefMcFrame * f, int v)
{
  int i, x, y;

  for (i = 0; i < f->n_planes; i++)
    for (y = 0; y < f->height[i]; y++)
      for (x = 0; x < f->width[i]; x++)
        put (f, i, x, y, v);
}

/* A detailed texture on an unbounded canvas: smooth blobs plus fine
 * structure down to one sample, in 0..255; seed picks the picture */
static double
texture (double x, double y, int seed)
{
  double s = seed * 1.7;

  return 128 + 50 * sin (0.11 * x + 0.07 * y + s) * cos (0.05 * x - 0.13 * y)
      + 30 * sin (0.9 * x + 0.4 * y + 2 * s) + 25 * sin (1.3 * y - 0.3 * x + s)
      + 15 * cos (2.1 * x + 2.9 * y + 3 * s);
}

/* the progressive picture of the canvas shifted by (sx, sy) luma px */
static void
picture (const CfxRefMcFrame * f, int sx, int sy, int seed)
{
  int i, x, y, max = (1 << f->depth) - 1;

  for (i = 0; i < f->n_planes; i++) {
    int sub = i ? 2 : 1;

    for (y = 0; y < f->height[i]; y++)
      for (x = 0; x < f->width[i]; x++) {
        double v = texture (x * sub + sx + 7 * i, y * sub + sy, seed + i);
        int s = (int) lrint (v * (max / 255.0));

        put (f, i, x, y, s < 0 ? 0 : s > max ? max : s);
      }
  }
}

/* frame t of an interlaced clip of pictures at field rate: the top rows
 * of picture 2t, the bottom rows of picture 2t + 1 (top field first) */
static void
weave (const CfxRefMcFrame * dst, const CfxRefMcFrame * top,
    const CfxRefMcFrame * bottom)
{
  int i, x, y;

  for (i = 0; i < dst->n_planes; i++)
    for (y = 0; y < dst->height[i]; y++)
      for (x = 0; x < dst->width[i]; x++)
        put (dst, i, x, y, get (y & 1 ? bottom : top, i, x, y));
}

static int
same (const CfxRefMcFrame * a, const CfxRefMcFrame * b, int rows_parity)
{
  int i, x, y;

  for (i = 0; i < a->n_planes; i++)
    for (y = 0; y < a->height[i]; y++)
      for (x = 0; x < a->width[i]; x++)
        if ((rows_parity < 0 || (y & 1) == rows_parity)
            && get (a, i, x, y) != get (b, i, x, y))
          return 0;
  return 1;
}

/* PSNR (peak 2^depth - 1) of the rows of parity @rows, luma */
static double
psnr_rows (const CfxRefMcFrame * a, const CfxRefMcFrame * b, int rows)
{
  double se = 0, max = (1 << a->depth) - 1;
  long n = 0;
  int x, y;

  for (y = rows; y < a->height[0]; y += 2)
    for (x = 0; x < a->width[0]; x++, n++) {
      double d = get (a, 0, x, y) - get (b, 0, x, y);

      se += d * d;
    }
  return se == 0 ? 99.0 : 10 * log10 (max * max * n / se);
}

/* bwdif alone, the floor mc starts from (top field first) */
static void
bwdif_frame (const CfxRefMcFrame * dst, const CfxRefMcFrame * prev,
    const CfxRefMcFrame * cur, const CfxRefMcFrame * next, int parity,
    int intra_only)
{
  cfx_ref_deinterlace_frame (dst, prev, cur, next, parity, 1,
      CFX_REF_DEINT_BWDIF, intra_only);
}

/* mc into dst twice, over two poisons: every sample written, the same */
static void
mc_checked (const char *what, Frame * dst, Frame * other,
    const CfxRefMcFrame * prev, const CfxRefMcFrame * cur,
    const CfxRefMcFrame * next, int parity, int intra, CfxRefMcInfo * info)
{
  fill (&dst->f, 0);
  cfx_ref_deinterlace_mc (&dst->f, prev, cur, next, parity, 1, intra, info);
  fill (&other->f, (1 << (cur->depth > 8 ? 16 : 8)) - 1);
  cfx_ref_deinterlace_mc (&other->f, prev, cur, next, parity, 1, intra, NULL);
  CHECK (same (&dst->f, &other->f, -1), "%s: output depends on what the "
      "buffer held (a sample not written)", what);
  CHECK (same (&dst->f, cur, parity), "%s: kept rows not copied", what);
}

static void
test_size (int w, int h, int depth)
{
  Frame pics[6], fr[3], out, other, bw;
  CfxRefMcInfo info;
  char what[128];
  int k, parity, t;
  uint32_t rng = 12345u + w * 31 + h + depth;

  for (k = 0; k < 6; k++)
    frame_init (&pics[k], w, h, depth);
  for (k = 0; k < 3; k++)
    frame_init (&fr[k], w, h, depth);
  frame_init (&out, w, h, depth);
  frame_init (&other, w, h, depth);
  frame_init (&bw, w, h, depth);

  /* random frames: kept rows, every sample written */
  for (k = 0; k < 3; k++) {
    int i, x, y;

    for (i = 0; i < 3; i++)
      for (y = 0; y < fr[k].f.height[i]; y++)
        for (x = 0; x < fr[k].f.width[i]; x++)
          put (&fr[k].f, i, x, y, cfx_ref_xorshift32 (&rng) &
              ((1 << depth) - 1));
  }
  for (parity = 0; parity < 2; parity++) {
    snprintf (what, sizeof what, "random %dx%d depth %d parity %d", w, h,
        depth, parity);
    mc_checked (what, &out, &other, &fr[0].f, &fr[1].f, &fr[2].f, parity, 0,
        NULL);
    mc_checked (what, &out, &other, NULL, &fr[1].f, &fr[2].f, parity, 1,
        NULL);
    mc_checked (what, &out, &other, &fr[0].f, &fr[1].f, NULL, parity, 1,
        NULL);
  }

  /* a still picture: the weave, at the ends too; bwdif's inside */
  picture (&fr[0].f, 0, 0, 1);
  for (parity = 0; parity < 2; parity++)
    for (t = 0; t < 3; t++) {
      const CfxRefMcFrame *prev = t == 0 ? NULL : &fr[0].f;
      const CfxRefMcFrame *next = t == 2 ? NULL : &fr[0].f;

      snprintf (what, sizeof what, "still %dx%d depth %d parity %d end %d",
          w, h, depth, parity, t);
      mc_checked (what, &out, &other, prev, &fr[0].f, next, parity, t != 1,
          NULL);
      CHECK (same (&out.f, &fr[0].f, -1), "%s: not the weave", what);
      if (t == 1) {
        bwdif_frame (&bw.f, &fr[0].f, &fr[0].f, &fr[0].f, parity, 0);
        CHECK (same (&out.f, &bw.f, -1), "%s: not bwdif's", what);
      }
    }

  /* integer pans: 2 rows a field period down, 3 px across (frames of a
   * few rows have no room for either) */
  for (k = 0; k < 2 && h >= 16; k++) {
    int vx = k ? 3 : 0, vy = k ? 0 : 2;
    double p_mc = 0, p_bw = 0;

    for (t = 0; t < 6; t++)
      picture (&pics[t].f, vx * t, vy * t, 2);
    for (t = 0; t < 3; t++)
      weave (&fr[t].f, &pics[2 * t].f, &pics[2 * t + 1].f);
    /* frame 1's two fields: pictures 2 (top kept) and 3 (bottom kept) */
    for (parity = 0; parity < 2; parity++) {
      snprintf (what, sizeof what, "pan %s %dx%d depth %d parity %d",
          k ? "across" : "down", w, h, depth, parity);
      mc_checked (what, &out, &other, &fr[0].f, &fr[1].f, &fr[2].f, parity,
          0, &info);
      CHECK (!info.cut[0] && !info.cut[1], "%s: taken for a cut", what);
      p_mc += psnr_rows (&out.f, &pics[2 + parity].f, 1 - parity);
      bwdif_frame (&bw.f, &fr[0].f, &fr[1].f, &fr[2].f, parity, 0);
      p_bw += psnr_rows (&bw.f, &pics[2 + parity].f, 1 - parity);
    }
    printf ("%s: mc %.2f dB, bwdif %.2f dB\n", what, p_mc / 2, p_bw / 2);
    CHECK (p_mc / 2 > p_bw / 2 + 3.0, "%s: mc %.2f dB not 3 dB over bwdif's "
        "%.2f", what, p_mc / 2, p_bw / 2);
  }

  /* a cut: the previous frame is another picture */
  picture (&fr[0].f, 0, 0, 7);
  for (t = 1; t < 3; t++)
    picture (&fr[t].f, t, 0, 3);
  for (parity = 0; parity < 2 && h >= 16; parity++) {
    snprintf (what, sizeof what, "cut %dx%d depth %d parity %d", w, h, depth,
        parity);
    mc_checked (what, &out, &other, &fr[0].f, &fr[1].f, &fr[2].f, parity, 0,
        &info);
    CHECK (info.cut[0], "%s: not found (mean cost %d)", what,
        info.mean_cost[0]);
    bwdif_frame (&bw.f, &fr[0].f, &fr[1].f, &fr[2].f, parity, 0);
    CHECK (same (&out.f, &bw.f, -1), "%s: not bwdif's", what);
  }

  for (k = 0; k < 6; k++)
    free (pics[k].buf);
  for (k = 0; k < 3; k++)
    free (fr[k].buf);
  free (out.buf);
  free (other.buf);
  free (bw.buf);
}

int
main (void)
{
  static const int sizes[][2] = { {96, 64}, {83, 57}, {64, 34}, {40, 3} };
  int s, depth;

  for (depth = 8; depth <= 10; depth += 2)
    for (s = 0; s < 4; s++)
      test_size (sizes[s][0], sizes[s][1], depth);
  if (failures)
    fprintf (stderr, "%d failures\n", failures);
  return failures ? 1 : 0;
}
