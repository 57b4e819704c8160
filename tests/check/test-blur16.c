/* GPU suite for cudablur on formats of 10 to 16 bits: the element against
 * the CPU reference (tests/reference/blur16.c), in units of each
 * component's own depth.
 *
 * Tolerances: the Gaussian within 1 of the double-precision reference at
 * every sigma (the 16-bit path sums directly in double precision), the
 * box exact. The input words' unused bits hold random garbage, which must
 * not change the output; the output's unused bits must be 0. Each case
 * runs two frames through one harness, so the second frame's output lands
 * in a device buffer the first one already wrote. */
#include "cfx-test.h"
#include "cfx-reference.h"

#include <gst/cudafx.h>
#include <string.h>

typedef struct
{
  gboolean box;
  gdouble sigma;
  gint radius;
  gboolean fields;
} Blur;

static gint
scale_radius (gint radius, gint s)
{
  return s == 1 ? radius : MAX (1, (radius + s / 2) / s);
}

/* Component @c of a mapped frame as the reference takes it */
static CfxRefWordPlane
comp_plane (GstVideoFrame * f, guint c)
{
  const GstVideoFormatInfo *finfo = f->info.finfo;
  /* not GST_VIDEO_FRAME_COMP_DATA: GStreamer 1.22 puts P01x's V one byte,
   * not one sample, into its plane */
  CfxRefWordPlane p = {
    (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, GST_VIDEO_FORMAT_INFO_PLANE
        (finfo, c)) + cfx_test_comp_byte_offset (finfo, c),
    GST_VIDEO_FRAME_COMP_STRIDE (f, c), GST_VIDEO_FRAME_COMP_PSTRIDE (f, c),
    GST_VIDEO_FRAME_COMP_WIDTH (f, c), GST_VIDEO_FRAME_COMP_HEIGHT (f, c),
    GST_VIDEO_FRAME_COMP_DEPTH (f, c),
    GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c)
  };
  return p;
}

/* Each component of @out against the reference blur of @in's */
static gboolean
check_frame (GstVideoFrame * in, GstVideoFrame * out, const Blur * b,
    const gchar * what)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gboolean ok = TRUE;
  guint c;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++) {
    CfxRefWordPlane src = comp_plane (in, c), got = comp_plane (out, c), want;
    gint sx = 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    gint sy = (1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c)) * (b->fields ? 2 :
        1);
    gint x, y, max = 0, unused = 0;
    guint16 mask = (guint16) (((1u << src.depth) - 1) << src.shift);

    want = src;
    want.stride = 2 * MAX (src.width, 1);
    want.step = 2;
    want.data = g_malloc0 ((gsize) want.stride * MAX (src.height, 1));
    if (b->box)
      cfx_ref_box_blur16 (&want, &src, scale_radius (b->radius, sx),
          scale_radius (b->radius, sy), b->fields ? 2 : 1);
    else
      cfx_ref_gaussian_blur16 (&want, &src, b->sigma / sx, b->sigma / sy,
          b->fields ? 2 : 1);

    for (y = 0; y < src.height; y++)
      for (x = 0; x < src.width; x++) {
        guint16 g = GST_READ_UINT16_LE (got.data + (gsize) y * got.stride +
            (gsize) x * got.step);
        guint16 w = GST_READ_UINT16_LE (want.data + (gsize) y * want.stride +
            (gsize) x * want.step);
        gint d = ABS (((gint) (g & mask) >> src.shift) -
            ((gint) (w & mask) >> src.shift));

        max = MAX (max, d);
        unused += (g & ~mask) != 0;
      }
    if (max > (b->box ? 0 : 1) || unused) {
      g_print ("FAIL %s: component %u (%dx%d, depth %d, shift %d): max "
          "error %d, %d words with unused bits set\n", what, c, src.width,
          src.height, src.depth, src.shift, max, unused);
      ok = FALSE;
    }
    g_free (want.data);
  }
  return ok;
}

static gboolean
run_case (const gchar * format, gint w, gint h, const Blur * b, guint64 seed)
{
  gchar *launch = b->box ?
      g_strdup_printf ("cudafxupload ! cudablur method=box radius=%d ! "
      "cudafxdownload", b->radius) :
      g_strdup_printf ("cudafxupload ! cudablur sigma=%g ! cudafxdownload",
      b->sigma);
  gchar *caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
      "height=%d,framerate=30/1%s", format, w, h,
      b->fields ? ",interlace-mode=interleaved" : "");
  gchar *what = g_strdup_printf ("%s %dx%d %s %g%s", format, w, h,
      b->box ? "box radius" : "sigma", b->box ? b->radius : b->sigma,
      b->fields ? " fields" : "");
  GstHarness *hn = gst_harness_new_parse (launch);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info;
  gboolean ok = TRUE;
  gint n;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (hn, caps);
  for (n = 0; n < 2; n++) {
    /* random words: random samples, and garbage in the unused bits */
    GstBuffer *inbuf = cfx_test_random_frame (&info, seed * 10 + n), *outbuf;
    GstVideoFrame in, out;

    GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (hn, gst_buffer_ref (inbuf)),
        GST_FLOW_OK);
    outbuf = gst_harness_pull (hn);
    fail_unless (outbuf != NULL);
    fail_unless (gst_video_frame_map (&in, &info, inbuf, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&out, &info, outbuf, GST_MAP_READ));
    ok &= check_frame (&in, &out, b, what);
    gst_video_frame_unmap (&out);
    gst_video_frame_unmap (&in);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
  }
  gst_harness_teardown (hn);
  g_free (launch);
  g_free (caps_str);
  g_free (what);
  return ok;
}

GST_START_TEST (test_formats_sizes_blurs)
{
  const gchar *formats[] = { "P010_10LE", "P016_LE", "I420_10LE", "I420_12LE",
    "I422_10LE", "Y444_16LE", "GRAY16_LE"
  };
  const struct
  {
    gint w, h;
  } sizes[] = { {1, 1}, {2, 3}, {67, 45}, {64, 48} };
  const Blur blurs[] = {
    {FALSE, 0.8, 0, FALSE}, {FALSE, 3.0, 0, FALSE}, {FALSE, 20.0, 0, FALSE},
    /* radius 90: past the tiled kernels' 64 (chroma 45: tiled) */
    {FALSE, 30.0, 0, FALSE},
    {TRUE, 0, 1, FALSE}, {TRUE, 0, 7, FALSE},
    {FALSE, 2.0, 0, TRUE}, {TRUE, 0, 3, TRUE},
  };
  gboolean ok = TRUE;
  guint f, s, b;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (b = 0; b < G_N_ELEMENTS (blurs); b++)
        ok &= run_case (formats[f], sizes[s].w, sizes[s].h, &blurs[b],
            (f * 10 + s) * 10 + b);
  fail_unless (ok, "some 16-bit blurs differ from the reference (above)");
}

GST_END_TEST;

/* Frames of 1080p and about 720p: grids of many blocks, interior and
 * border paths */
GST_START_TEST (test_1080p)
{
  const Blur gauss = { FALSE, 3.0, 0, FALSE }, box = { TRUE, 0, 5, FALSE };
  const Blur wide = { FALSE, 25.0, 0, FALSE };
  const Blur sigma5 = { FALSE, 5.0, 0, FALSE };

  fail_unless (run_case ("P010_10LE", 1920, 1080, &gauss, 901));
  /* odd sizes, the fused kernel's largest radius (16) */
  fail_unless (run_case ("I420_10LE", 1281, 721, &sigma5, 904));
  fail_unless (run_case ("Y444_16LE", 1920, 1080, &box, 902));
  fail_unless (run_case ("GRAY16_LE", 1920, 1080, &wide, 903));
}

GST_END_TEST;

static Suite *
blur16_suite (void)
{
  Suite *s = suite_create ("cudablur-16bit");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_formats_sizes_blurs);
  tcase_add_test (tc, test_1080p);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "cudablur-16bit", blur16_suite);
}
