/* GPU suite for cudablur on formats of 10 to 16 bits: the element against
 * the CPU reference (tests/reference/blur16.c), in units of each
 * component's own depth.
 *
 * Tolerances: the Gaussian within 1 of the double-precision reference at
 * every sigma (the 16-bit path sums directly in double precision), the
 * box exact. Sharpening (negative sizes): the unsharp mask of the
 * element's own blur exactly (the same frame through a second harness
 * that blurs), and of the reference blur within ceil (amount) for the
 * Gaussian (its blur off by 1 moves the output by that), exact for the
 * box. The input words' unused bits hold random garbage, which must
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
  /* sharpen with the blur above (sizes positive here), of this strength */
  gboolean sharpen;
  gdouble amount;
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

/* Each component of @out against the reference blur of @in's (its
 * unsharp mask when sharpening, and then exactly the unsharp mask of
 * @blurred, the element's blur of @in) */
static gboolean
check_frame (GstVideoFrame * in, GstVideoFrame * out, GstVideoFrame * blurred,
    const Blur * b, const gchar * what)
{
  const gint amount = b->sharpen ? cfx_ref_sharpen_amount (b->amount) : 0;
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gboolean ok = TRUE;
  guint c;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++) {
    CfxRefWordPlane src = comp_plane (in, c), got = comp_plane (out, c), want;
    gint sx = 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    gint sy = (1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c)) * (b->fields ? 2 :
        1);
    gint x, y, max = 0, unused = 0, epilogue = 0;
    guint16 mask = (guint16) (((1u << src.depth) - 1) << src.shift);
    CfxRefWordPlane kwant;

    want = src;
    want.stride = 2 * MAX (src.width, 1);
    want.step = 2;
    want.data = g_malloc0 ((gsize) want.stride * MAX (src.height, 1));
    kwant = want;
    kwant.data = g_malloc0 ((gsize) want.stride * MAX (src.height, 1));
    if (b->box)
      cfx_ref_box_blur16 (&want, &src, scale_radius (b->radius, sx),
          scale_radius (b->radius, sy), b->fields ? 2 : 1);
    else
      cfx_ref_gaussian_blur16 (&want, &src, b->sigma / sx, b->sigma / sy,
          b->fields ? 2 : 1);
    if (b->sharpen) {
      CfxRefWordPlane kblur = comp_plane (blurred, c);

      cfx_ref_unsharp16 (&want, &src, &want, amount);
      cfx_ref_unsharp16 (&kwant, &src, &kblur, amount);
    }

    for (y = 0; y < src.height; y++)
      for (x = 0; x < src.width; x++) {
        guint16 g = GST_READ_UINT16_LE (got.data + (gsize) y * got.stride +
            (gsize) x * got.step);
        guint16 w = GST_READ_UINT16_LE (want.data + (gsize) y * want.stride +
            (gsize) x * want.step);
        guint16 k = GST_READ_UINT16_LE (kwant.data + (gsize) y *
            kwant.stride + (gsize) x * kwant.step);
        gint d = ABS (((gint) (g & mask) >> src.shift) -
            ((gint) (w & mask) >> src.shift));

        max = MAX (max, d);
        unused += (g & ~mask) != 0;
        epilogue += b->sharpen && (g & mask) != k;
      }
    if (max > (b->box ? 0 : b->sharpen ? (amount + 255) / 256 : 1) || unused
        || epilogue) {
      g_print ("FAIL %s: component %u (%dx%d, depth %d, shift %d): max "
          "error %d, %d words with unused bits set, %d off the unsharp "
          "mask of the element's blur\n", what, c, src.width, src.height,
          src.depth, src.shift, max, unused, epilogue);
      ok = FALSE;
    }
    g_free (want.data);
    g_free (kwant.data);
  }
  return ok;
}

/* The launch line of @b's element, or (@blur_only) of the blur it
 * sharpens with */
static gchar *
blur_launch (const Blur * b, gboolean blur_only)
{
  const gint sign = b->sharpen && !blur_only ? -1 : 1;
  gchar amount[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_dtostr (amount, sizeof (amount), b->amount);
  if (b->box)
    return g_strdup_printf ("cudafxupload ! cudablur method=box radius=%d "
        "amount=%s ! cudafxdownload", sign * b->radius, amount);
  return g_strdup_printf ("cudafxupload ! cudablur sigma=%g amount=%s ! "
      "cudafxdownload", sign * b->sigma, amount);
}

/* One frame through @h: its output */
static GstBuffer *
push_pull (GstHarness * h, GstBuffer * inbuf)
{
  GstBuffer *outbuf;

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (inbuf)),
      GST_FLOW_OK);
  outbuf = gst_harness_pull (h);
  fail_unless (outbuf != NULL);
  return outbuf;
}

static gboolean
run_case (const gchar * format, gint w, gint h, const Blur * b, guint64 seed)
{
  gchar *launch = blur_launch (b, FALSE);
  gchar *blur_only = blur_launch (b, TRUE);
  gchar *caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
      "height=%d,framerate=30/1%s", format, w, h,
      b->fields ? ",interlace-mode=interleaved" : "");
  gchar *what = g_strdup_printf ("%s %dx%d %s %s %g%s", format, w, h,
      b->sharpen ? "sharpen" : "blur", b->box ? "box radius" : "sigma",
      b->box ? b->radius : b->sigma, b->fields ? " fields" : "");
  GstHarness *hn = gst_harness_new_parse (launch);
  GstHarness *hb = b->sharpen ? gst_harness_new_parse (blur_only) : NULL;
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info;
  gboolean ok = TRUE;
  gint n;

  fail_unless (gst_video_info_from_caps (&info, caps));
  if (hb)
    gst_harness_set_src_caps (hb, gst_caps_ref (caps));
  gst_harness_set_src_caps (hn, caps);
  for (n = 0; n < 2; n++) {
    /* random words: random samples, and garbage in the unused bits */
    GstBuffer *inbuf = cfx_test_random_frame (&info, seed * 10 + n), *outbuf;
    GstBuffer *blurbuf = NULL;
    GstVideoFrame in, out, blurred;

    GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 30;
    outbuf = push_pull (hn, inbuf);
    fail_unless (gst_video_frame_map (&in, &info, inbuf, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&out, &info, outbuf, GST_MAP_READ));
    if (hb) {
      blurbuf = push_pull (hb, inbuf);
      fail_unless (gst_video_frame_map (&blurred, &info, blurbuf,
              GST_MAP_READ));
    }
    ok &= check_frame (&in, &out, hb ? &blurred : NULL, b, what);
    if (hb) {
      gst_video_frame_unmap (&blurred);
      gst_buffer_unref (blurbuf);
    }
    gst_video_frame_unmap (&out);
    gst_video_frame_unmap (&in);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
  }
  gst_harness_teardown (hn);
  if (hb)
    gst_harness_teardown (hb);
  g_free (launch);
  g_free (blur_only);
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
    /* sharpening: the fused kernel (radius <= 16), the two passes tiled
     * (chroma) and not (radius 90), the box; amounts 1, 0.3, 16 */
    {FALSE, 1.5, 0, FALSE, TRUE, 1.0}, {FALSE, 30.0, 0, FALSE, TRUE, 0.3},
    {TRUE, 0, 4, FALSE, TRUE, 1.0}, {TRUE, 0, 2, TRUE, TRUE, 16.0},
    {FALSE, 2.0, 0, TRUE, TRUE, 0.0},
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
  const Blur sharpen = { FALSE, 2.0, 0, FALSE, TRUE, 1.0 };
  const Blur sharpen_box = { TRUE, 0, 3, FALSE, TRUE, 0.6 };

  fail_unless (run_case ("P010_10LE", 1920, 1080, &gauss, 901));
  /* odd sizes, the fused kernel's largest radius (16) */
  fail_unless (run_case ("I420_10LE", 1281, 721, &sigma5, 904));
  fail_unless (run_case ("Y444_16LE", 1920, 1080, &box, 902));
  fail_unless (run_case ("GRAY16_LE", 1920, 1080, &wide, 903));
  fail_unless (run_case ("P010_10LE", 1921, 1081, &sharpen, 905));
  fail_unless (run_case ("I420_12LE", 1920, 1080, &sharpen_box, 906));
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
