/* GPU suite for cudaluma: the kernel against the CPU reference (packed
 * luma, planar and strided components, aligned and unaligned planes,
 * poisoned outputs), and the element through
 * cudaupload ! cudaluma ! cudadownload for every format and size. */
#include "cfx-test.h"
#include "cfx-reference.h"
#include "cudafx-kernels.h"
#include "cudafx-testing.h"

#include <gst/cudafx.h>

/* 8-bit formats give GRAY8; 10 to 16-bit ones GRAY16_LE, from random
 * words: their unused bits must not reach the output */
static const gchar *formats[] = { "UYVY", "YUY2", "I420", "YV12", "NV12",
  "Y42B", "Y444", "GRAY8", "P010_10LE", "P012_LE", "P016_LE", "I420_10LE",
  "I420_12LE", "I422_10LE", "Y444_12LE", "Y444_16LE", "GRAY16_LE", NULL
};

static const struct
{
  gint w, h;
} sizes[] = { {1, 1}, {2, 2}, {33, 17}, {1919, 1079}, {1920, 1080},
{3840, 2160}, {7680, 4320}
};

#define POISON 0xA5

/* Kernel alone: a component of @step bytes (its first sample @offset
 * bytes into the rows) of a device plane of @src_pitch into a plane of
 * @dst_step; outputs poisoned. Packed 4:2:2 luma (step 2, offset 0: YUY2,
 * 1: UYVY) against the reference, other steps against a plain copy. */
static gboolean
kernel_case (gint w, gint h, gint step, gint offset, gint src_pitch,
    gint dst_step, gint dst_pitch, guint64 seed)
{
  gsize src_size = (gsize) src_pitch * h, dst_size = (gsize) dst_pitch * h;
  guint8 *host_src = g_malloc (src_size), *host_dst = g_malloc (dst_size);
  guint8 *want = g_malloc ((gsize) w * h);
  guint8 *sbase, *dbase;
  CfxPlane dsrc, ddst;
  gboolean ok = TRUE;
  gint x, y;

  cfx_test_fill_random (host_src, src_size, seed);
  /* +16: the unaligned cases start one byte in */
  fail_unless_equals_int (cudaMalloc ((void **) &sbase, src_size + 16),
      cudaSuccess);
  fail_unless_equals_int (cudaMalloc ((void **) &dbase, dst_size + 16),
      cudaSuccess);
  dsrc = cfx_plane_8bit (sbase + (src_pitch % 16 ? 1 : 0) + offset,
      src_pitch, w, h, step, offset);
  ddst = cfx_plane_8bit (dbase + (dst_pitch % 16 ? 1 : 0), dst_pitch, w, h,
      dst_step, 0);
  fail_unless_equals_int (cudaMemcpy (dsrc.data - offset, host_src, src_size,
          cudaMemcpyHostToDevice), cudaSuccess);
  fail_unless_equals_int (cudaMemset (ddst.data, POISON, dst_size),
      cudaSuccess);
  fail_unless_equals_int (cfx_luma_copy (ddst, dsrc, 0), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (host_dst, ddst.data, dst_size,
          cudaMemcpyDeviceToHost), cudaSuccess);

  if (step == 2 && offset <= 1) {
    CfxRefPlane rsrc = { host_src, src_pitch, w, h }, rdst = { want, w, w, h };
    cfx_ref_luma_from_packed422 (&rdst, &rsrc, offset == 0);
  } else {
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        want[(gsize) y * w + x] = host_src[(gsize) y * src_pitch + offset +
            (gsize) x * step];
  }
  for (y = 0; y < h && ok; y++)
    for (x = 0; x < w && ok; x++)
      if (host_dst[(gsize) y * dst_pitch + (gsize) x * dst_step] !=
          want[(gsize) y * w + x]) {
        g_print ("luma kernel %dx%d step %d offset %d pitches %d/%d dst step "
            "%d differs at %d,%d\n", w, h, step, offset, src_pitch,
            dst_pitch, dst_step, x, y);
        ok = FALSE;
      }
  /* a planar copy writes each row's samples only (the packed vector path
   * may write whole vectors into the padding) */
  if (step == 1 && dst_step == 1)
    for (y = 0; y < h && ok; y++)
      for (x = w; x < dst_pitch && ok; x++)
        if (host_dst[(gsize) y * dst_pitch + x] != POISON) {
          g_print ("luma kernel %dx%d planar pitches %d/%d: row %d byte %d "
              "written\n", w, h, src_pitch, dst_pitch, y, x);
          ok = FALSE;
        }
  cudaFree (sbase);
  cudaFree (dbase);
  g_free (host_src);
  g_free (host_dst);
  g_free (want);
  return ok;
}

GST_START_TEST (test_luma_kernel_against_reference)
{
  guint s;
  gint off;
  gboolean ok = TRUE;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint w = sizes[s].w, h = sizes[s].h;
    gint src_aligned = GST_ROUND_UP_N (GST_ROUND_UP_2 (w) * 2, 256);
    gint dst_aligned = GST_ROUND_UP_N (w, 256);
    gboolean small = (gsize) w * h < 10000000;

    /* packed 4:2:2 luma: YUY2 (offset 0), UYVY (1) */
    for (off = 0; off <= 1; off++) {
      /* the pitched layout of the design: vector path */
      ok &= kernel_case (w, h, 2, off, src_aligned, 1, dst_aligned,
          s * 2 + off);
      /* tight, odd pitches: the byte-wise path */
      if (small)
        ok &= kernel_case (w, h, 2, off, GST_ROUND_UP_2 (w) * 2 + 3, 1,
            w + 1, 100 + s);
    }
    /* a planar plane: a 2-D copy */
    ok &= kernel_case (w, h, 1, 0, dst_aligned, 1, dst_aligned, 200 + s);
    if (small) {
      ok &= kernel_case (w, h, 1, 0, w + 3, 1, w + 1, 300 + s);
      /* packed chroma (step 4), and a step-2 output: the strided kernel */
      ok &= kernel_case (w, h, 4, 2, 4 * w + 5, 1, dst_aligned, 400 + s);
      ok &= kernel_case (w, h, 2, 1, src_aligned, 2, 2 * w + 7, 500 + s);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

/* The 16-bit kernel alone: P010-like words (10 bits up 6),
 * I420_10LE-like ones (10 bits at 0) with random unused bits and 16-bit
 * ones (GRAY16_LE: copied), from planes
 * at a 256-byte boundary and 2 bytes in, into poisoned GRAY16 planes whose
 * bytes after each row's samples must stay poisoned */
static gboolean
luma16_case (gint w, gint h, gint depth, gint shift, gboolean aligned,
    guint64 seed)
{
  gint pitch = GST_ROUND_UP_N (w * 2, 256) + 256, in = aligned ? 0 : 2;
  gsize size = (gsize) pitch * h;
  guint8 *host_src = g_malloc (size), *host_dst = g_malloc (size);
  guint16 *want = g_new (guint16, (gsize) w * h);
  guint8 *sbase, *dbase;
  CfxPlane src = { NULL, pitch, w, h, 2, depth, shift, 2, 0 };
  CfxPlane dst = { NULL, pitch, w, h, 2, 16, 0, 2, 0 };
  gboolean ok = TRUE;
  gint x, y;

  cfx_test_fill_random (host_src, size, seed);
  fail_unless_equals_int (cudaMalloc ((void **) &sbase, size + 16),
      cudaSuccess);
  fail_unless_equals_int (cudaMalloc ((void **) &dbase, size + 16),
      cudaSuccess);
  src.data = sbase + in;
  dst.data = dbase + in;
  fail_unless_equals_int (cudaMemcpy (src.data, host_src, size,
          cudaMemcpyHostToDevice), cudaSuccess);
  fail_unless_equals_int (cudaMemset (dst.data, POISON, size), cudaSuccess);
  fail_unless_equals_int (cfx_luma_copy (dst, src, 0), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (host_dst, dst.data, size,
          cudaMemcpyDeviceToHost), cudaSuccess);
  cfx_ref_luma16 (want, w, host_src, pitch, 2, w, h, depth, shift);
  for (y = 0; y < h && ok; y++) {
    const guint8 *row = host_dst + (gsize) y * pitch;

    for (x = 0; x < w && ok; x++)
      if ((row[2 * x] | row[2 * x + 1] << 8) != want[(gsize) y * w + x]) {
        g_print ("luma16 %dx%d depth %d shift %d %s: %d,%d\n", w, h, depth,
            shift, aligned ? "aligned" : "unaligned", x, y);
        ok = FALSE;
      }
    /* past the row's samples: untouched */
    for (x = w * 2; x < pitch && ok; x++)
      if (row[x] != POISON) {
        g_print ("luma16 %dx%d: row %d byte %d written\n", w, h, y, x);
        ok = FALSE;
      }
  }
  cudaFree (sbase);
  cudaFree (dbase);
  g_free (host_src);
  g_free (host_dst);
  g_free (want);
  return ok;
}

GST_START_TEST (test_luma16_kernel_against_reference)
{
  static const gint dims[][2] = { {1, 1}, {7, 3}, {8, 2}, {33, 17},
  {1921, 1081}
  };
  /* 16 bits: a copy of the rows */
  static const gint kinds[][2] = { {10, 6}, {10, 0}, {12, 4}, {12, 0},
  {16, 0}
  };
  gboolean ok = TRUE;
  guint d, k, a;

  for (d = 0; d < G_N_ELEMENTS (dims); d++)
    for (k = 0; k < G_N_ELEMENTS (kinds); k++)
      for (a = 0; a < 2; a++)
        ok &= luma16_case (dims[d][0], dims[d][1], kinds[k][0], kinds[k][1],
            a == 0, d * 100 + k * 10 + a);
  fail_unless (ok, "16-bit luma kernel differs (see above)");
}

GST_END_TEST;

GST_START_TEST (test_luma_kernel_arguments)
{
  guint8 *d;
  CfxPlane a, b;

  fail_unless_equals_int (cudaMalloc ((void **) &d, 65536), cudaSuccess);
  /* initialised: the calls accepted read it (initcheck) */
  fail_unless_equals_int (cudaMemset (d, 0, 65536), cudaSuccess);
  a = cfx_plane_8bit (d, 256, 64, 32, 1, 0);
  b = cfx_plane_8bit (d + 16384, 256, 64, 32, 1, 0);
  /* only 8-bit samples, equal sizes */
  b.bytes = 2;
  fail_unless_equals_int (cfx_luma_copy (b, a, 0), cudaErrorInvalidValue);
  b.bytes = 1;
  a.bytes = 2;
  fail_unless_equals_int (cfx_luma_copy (b, a, 0), cudaErrorInvalidValue);
  a.bytes = 1;
  b.height = 31;
  fail_unless_equals_int (cfx_luma_copy (b, a, 0), cudaErrorInvalidValue);
  b.height = 32;
  fail_unless_equals_int (cfx_luma_copy (b, a, 0), cudaSuccess);
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  cudaFree (d);
}

GST_END_TEST;

/* Expected luma of a host frame, from the reference: rows of w samples
 * (bytes, or 16-bit samples from formats of more than 8 bits) */
static guint8 *
expected_luma (GstVideoFrame * in)
{
  gint w = GST_VIDEO_FRAME_WIDTH (in), h = GST_VIDEO_FRAME_HEIGHT (in), y;
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (in);
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  guint8 *want = g_malloc ((gsize) w * h * (depth > 8 ? 2 : 1));

  if (depth > 8) {
    cfx_ref_luma16 ((guint16 *) want, w, GST_VIDEO_FRAME_COMP_DATA (in, 0),
        GST_VIDEO_FRAME_COMP_STRIDE (in, 0), GST_VIDEO_FRAME_COMP_PSTRIDE (in,
            0), w, h, depth, GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0));
  } else if (format == GST_VIDEO_FORMAT_UYVY || format == GST_VIDEO_FORMAT_YUY2) {
    CfxRefPlane src = { GST_VIDEO_FRAME_PLANE_DATA (in, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), w, h
    };
    CfxRefPlane dst = { want, w, w, h };
    cfx_ref_luma_from_packed422 (&dst, &src,
        format == GST_VIDEO_FORMAT_YUY2);
  } else {
    /* planar: luma is plane 0, as it is */
    for (y = 0; y < h; y++)
      memcpy (want + (gsize) y * w,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (in, 0) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), w);
  }
  return want;
}

GST_START_TEST (test_luma_element_all_formats_and_sizes)
{
  guint f, s, n;
  gboolean ok = TRUE;

  for (f = 0; formats[f]; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudaluma ! "
          "cudafxdownload");
      gchar *caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
          "height=%d,framerate=30/1", formats[f], sizes[s].w, sizes[s].h);
      GstVideoInfo info, out_info;
      GstCaps *caps = gst_caps_from_string (caps_str), *outcaps;

      gst_video_info_from_caps (&info, caps);
      gst_harness_set_src_caps (h, caps);
      /* consecutive random frames: a byte the kernel misses shows the
       * previous frame's value */
      for (n = 0; n < 3; n++) {
        GstBuffer *inbuf = cfx_test_random_frame (&info, f * 1000 + s * 10 +
            n), *outbuf;
        GstVideoFrame in, out;
        guint8 *want;
        gsize row;
        gint y;

        GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 30;
        GST_BUFFER_FLAG_SET (inbuf, GST_VIDEO_BUFFER_FLAG_INTERLACED);
        fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (inbuf)),
            GST_FLOW_OK);
        outbuf = gst_harness_pull (h);
        outcaps = gst_pad_get_current_caps (h->sinkpad);
        gst_video_info_from_caps (&out_info, outcaps);
        fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&out_info),
            GST_VIDEO_INFO_COMP_DEPTH (&info, 0) > 8 ?
            GST_VIDEO_FORMAT_GRAY16_LE : GST_VIDEO_FORMAT_GRAY8);
        fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info), sizes[s].w);
        fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info),
            sizes[s].h);
        gst_caps_unref (outcaps);
        fail_unless_equals_uint64 (GST_BUFFER_PTS (outbuf),
            GST_BUFFER_PTS (inbuf));
        fail_unless (GST_BUFFER_FLAG_IS_SET (outbuf,
                GST_VIDEO_BUFFER_FLAG_INTERLACED));

        gst_video_frame_map (&in, &info, inbuf, GST_MAP_READ);
        gst_video_frame_map (&out, &out_info, outbuf, GST_MAP_READ);
        want = expected_luma (&in);
        row = (gsize) sizes[s].w * GST_VIDEO_FRAME_COMP_PSTRIDE (&out, 0);
        for (y = 0; y < sizes[s].h; y++) {
          if (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, 0) +
                  (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0),
                  want + (gsize) y * row, row)) {
            g_print ("cudaluma %s: row %d differs\n", caps_str, y);
            ok = FALSE;
            break;
          }
        }
        g_free (want);
        gst_video_frame_unmap (&out);
        gst_video_frame_unmap (&in);
        gst_buffer_unref (outbuf);
        gst_buffer_unref (inbuf);
      }
      g_free (caps_str);
      gst_harness_teardown (h);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

static Suite *
luma_suite (void)
{
  Suite *s = suite_create ("cudaluma (GPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_luma_kernel_against_reference);
  tcase_add_test (tc, test_luma_kernel_arguments);
  tcase_add_test (tc, test_luma16_kernel_against_reference);
  tcase_add_test (tc, test_luma_element_all_formats_and_sizes);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "luma", luma_suite);
}
