/* GPU suite for the v210 kernels: unpack and pack against the CPU
 * reference (tests/reference/v210.c, itself checked against GStreamer's
 * unpack) on random rows whose unused bits, slots and padding hold
 * garbage, random planar samples with bits above the 10th set, poisoned
 * outputs, widths around the 6-pixel group and 48-pixel row sizes, and
 * the round trip v210 -> planar -> v210 returning the same bytes. */
#include "cfx-test.h"
#include "cudafx-kernels.h"
#include "v210.h"

#include <string.h>

#define POISON 0xA5

static const struct
{
  gint w, h;
} sizes[] = { {1, 1}, {2, 2}, {5, 3}, {6, 1}, {7, 7}, {12, 2}, {47, 5},
{48, 2}, {49, 3}, {1280, 720}, {1919, 1079}, {1920, 1080}, {3840, 2160},
{7680, 4320}
};

/* Three device planes of 16-bit samples (I422_10LE) with rows of
 * @pad extra samples; the planes' memory in *mem */
static void
planar_planes (gint w, gint h, gint pad, CfxPlane p[3], guint8 ** mem,
    gsize * bytes)
{
  gint cw = (w + 1) / 2, i;
  gint pitch[3] = { (w + pad) * 2, (cw + pad) * 2, (cw + pad) * 2 };
  gsize off = 0;

  *bytes = (gsize) (pitch[0] + pitch[1] + pitch[2]) * h;
  fail_unless_equals_int (cudaMalloc ((void **) mem, *bytes), cudaSuccess);
  for (i = 0; i < 3; i++) {
    p[i].data = *mem + off;
    p[i].pitch = pitch[i];
    p[i].width = i == 0 ? w : cw;
    p[i].height = h;
    p[i].bytes = 2;
    p[i].depth = 10;
    p[i].shift = 0;
    p[i].step = 2;
    p[i].offset = 0;
    off += (gsize) pitch[i] * h;
  }
}

static gboolean
same_samples (const guint8 * host, const CfxPlane * p, const guint16 * want,
    gint want_stride, const gchar * what, gint w, gint h, gint plane)
{
  gint x, y;

  for (y = 0; y < p->height; y++) {
    const guint16 *row = (const guint16 *) (host + (gsize) y * p->pitch);

    for (x = 0; x < p->width; x++) {
      if (row[x] != want[(gsize) y * want_stride + x]) {
        g_print ("%s %dx%d: plane %d sample %d,%d is %u, want %u\n", what, w,
            h, plane, x, y, row[x], want[(gsize) y * want_stride + x]);
        return FALSE;
      }
    }
    /* the padding of the row keeps its poison */
    for (x = p->width * 2; x < p->pitch; x++) {
      if (((const guint8 *) row)[x] != POISON) {
        g_print ("%s %dx%d: plane %d row %d padding byte %d written\n",
            what, w, h, plane, y, x);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* Unpack of garbage-laden v210 against the reference, then pack of the
 * result against the reference, then the round trip of clean v210 */
static gboolean
v210_case (gint w, gint h, guint64 seed)
{
  gint pitch = cfx_v210_pitch (w), cw = (w + 1) / 2, i;
  gsize v210_bytes = (gsize) pitch * h, planar_bytes;
  guint8 *host_v210 = g_malloc (v210_bytes), *back = g_malloc (v210_bytes);
  guint8 *clean = g_malloc (v210_bytes), *dev_v210, *dev_planar, *host_planar;
  guint16 *want[3], *noisy[3];
  gint want_stride[3] = { w, cw, cw };
  CfxPlane p[3];
  gboolean ok = TRUE;

  cfx_test_fill_random (host_v210, v210_bytes, seed);
  planar_planes (w, h, 3, p, &dev_planar, &planar_bytes);
  host_planar = g_malloc (planar_bytes);
  for (i = 0; i < 3; i++) {
    want[i] = g_new (guint16, (gsize) want_stride[i] * h);
    noisy[i] = g_new (guint16, (gsize) want_stride[i] * h);
  }
  fail_unless_equals_int (cudaMalloc ((void **) &dev_v210, v210_bytes),
      cudaSuccess);

  /* unpack: the used slots only, nothing past the samples */
  fail_unless_equals_int (cudaMemcpy (dev_v210, host_v210, v210_bytes,
          cudaMemcpyHostToDevice), cudaSuccess);
  fail_unless_equals_int (cudaMemset (dev_planar, POISON, planar_bytes),
      cudaSuccess);
  fail_unless_equals_int (cfx_v210_unpack (p[0], p[1], p[2], dev_v210, pitch,
          w, h, 0), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (host_planar, dev_planar, planar_bytes,
          cudaMemcpyDeviceToHost), cudaSuccess);
  ref_v210_unpack (host_v210, pitch, w, h, want[0], w, want[1], cw, want[2],
      cw);
  for (i = 0; i < 3 && ok; i++)
    ok = same_samples (host_planar + (p[i].data - dev_planar), &p[i],
        want[i], want_stride[i], "unpack", w, h, i);

  /* pack: random 16-bit samples (bits above the 10th set), every byte of
   * the rows written */
  for (i = 0; i < 3; i++) {
    gint y;

    cfx_test_fill_random ((guint8 *) noisy[i], (gsize) want_stride[i] * h *
        2, seed * 3 + i + 1);
    for (y = 0; y < h; y++)
      memcpy (host_planar + (p[i].data - dev_planar) + (gsize) y * p[i].pitch,
          noisy[i] + (gsize) y * want_stride[i], (gsize) want_stride[i] * 2);
  }
  fail_unless_equals_int (cudaMemcpy (dev_planar, host_planar, planar_bytes,
          cudaMemcpyHostToDevice), cudaSuccess);
  fail_unless_equals_int (cudaMemset (dev_v210, POISON, v210_bytes),
      cudaSuccess);
  fail_unless_equals_int (cfx_v210_pack (dev_v210, pitch, p[0], p[1], p[2],
          w, h, 0), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (back, dev_v210, v210_bytes,
          cudaMemcpyDeviceToHost), cudaSuccess);
  ref_v210_pack (noisy[0], w, noisy[1], cw, noisy[2], cw, w, h, clean,
      pitch);
  if (ok && memcmp (back, clean, v210_bytes) != 0) {
    gsize b;

    for (b = 0; back[b] == clean[b]; b++);
    g_print ("pack %dx%d: row %" G_GSIZE_FORMAT " byte %" G_GSIZE_FORMAT
        " is 0x%02x, want 0x%02x\n", w, h, b / pitch, b % pitch, back[b],
        clean[b]);
    ok = FALSE;
  }

  /* round trip of v210 as the format defines it (the reference's pack:
   * zero padding): the same bytes */
  if (ok) {
    fail_unless_equals_int (cudaMemcpy (dev_v210, clean, v210_bytes,
            cudaMemcpyHostToDevice), cudaSuccess);
    fail_unless_equals_int (cfx_v210_unpack (p[0], p[1], p[2], dev_v210,
            pitch, w, h, 0), cudaSuccess);
    fail_unless_equals_int (cudaMemset (dev_v210, POISON, v210_bytes),
        cudaSuccess);
    fail_unless_equals_int (cfx_v210_pack (dev_v210, pitch, p[0], p[1], p[2],
            w, h, 0), cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (back, dev_v210, v210_bytes,
            cudaMemcpyDeviceToHost), cudaSuccess);
    if (memcmp (back, clean, v210_bytes) != 0) {
      g_print ("round trip %dx%d: bytes differ\n", w, h);
      ok = FALSE;
    }
  }

  for (i = 0; i < 3; i++) {
    g_free (want[i]);
    g_free (noisy[i]);
  }
  cudaFree (dev_v210);
  cudaFree (dev_planar);
  g_free (host_planar);
  g_free (host_v210);
  g_free (back);
  g_free (clean);
  return ok;
}

GST_START_TEST (test_v210_kernels_against_reference)
{
  gboolean ok = TRUE;
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gboolean one = v210_case (sizes[s].w, sizes[s].h, 1000 + s);

    g_print ("%s v210 %dx%d\n", one ? "ok" : "FAIL", sizes[s].w, sizes[s].h);
    ok &= one;
  }
  fail_unless (ok, "v210 kernels differ from the reference (see above)");
}

GST_END_TEST;

GST_START_TEST (test_v210_kernel_arguments)
{
  CfxPlane p[3];
  guint8 *planar, *v210;
  gsize bytes;

  planar_planes (12, 2, 0, p, &planar, &bytes);
  fail_unless_equals_int (cudaMalloc ((void **) &v210, 256 * 2 + 16),
      cudaSuccess);
  /* initialised: the calls accepted read them (initcheck) */
  fail_unless_equals_int (cudaMemset (planar, 0, bytes), cudaSuccess);
  fail_unless_equals_int (cudaMemset (v210, 0, 256 * 2 + 16), cudaSuccess);
  /* pitch too short for the row's groups, unaligned rows */
  fail_unless_equals_int (cfx_v210_unpack (p[0], p[1], p[2], v210, 16, 12, 2,
          0), cudaErrorInvalidValue);
  fail_unless_equals_int (cfx_v210_unpack (p[0], p[1], p[2], v210 + 8, 128,
          12, 2, 0), cudaErrorInvalidValue);
  /* planes of the wrong shape */
  p[1].width = 5;
  fail_unless_equals_int (cfx_v210_pack (v210, 128, p[0], p[1], p[2], 12, 2,
          0), cudaErrorInvalidValue);
  p[1].width = 6;
  p[2].depth = 12;
  fail_unless_equals_int (cfx_v210_pack (v210, 128, p[0], p[1], p[2], 12, 2,
          0), cudaErrorInvalidValue);
  p[2].depth = 10;
  fail_unless_equals_int (cfx_v210_pack (v210, 128, p[0], p[1], p[2], 12, 2,
          0), cudaSuccess);
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  fail_unless_equals_int (cfx_v210_pitch (1), 128);
  fail_unless_equals_int (cfx_v210_pitch (48), 128);
  fail_unless_equals_int (cfx_v210_pitch (49), 256);
  cudaFree (planar);
  cudaFree (v210);
}

GST_END_TEST;

static Suite *
v210_suite (void)
{
  Suite *s = suite_create ("v210 kernels (GPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_v210_kernels_against_reference);
  tcase_add_test (tc, test_v210_kernel_arguments);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "v210", v210_suite);
}
