/* GPU suite: cudaupload ! cudadownload round trips, the event protocol
 * under stress, CPU maps of device memory, device-id, bad input. Skips
 * (77) without a GPU; CUDAFX_REQUIRE_GPU=1 makes that a failure. */
#include "cfx-test.h"
#include "cfx-reference.h"
#include "v210.h"

#include <gst/app/app.h>
#include <gst/cudafx.h>

/* The 16-bit formats' random samples fill the unused bits too (the low 6
 * of P010, the high 6 of I420_10LE): the copies carry them unchanged */
static const gchar *formats[] = { "UYVY", "YUY2", "I420", "YV12", "NV12",
  "Y42B", "Y444", "GRAY8", "P010_10LE", "P012_LE", "P016_LE", "I420_10LE",
  "I420_12LE", "I422_10LE", "I422_12LE", "Y444_10LE", "Y444_12LE",
  "Y444_16LE", "GRAY16_LE", NULL
};

static const struct
{
  gint w, h;
} sizes[] = { {1, 1}, {2, 2}, {33, 17}, {1919, 1079}, {1920, 1080},
{3840, 2160}, {7680, 4320}
};

static GstCaps *
video_caps (const gchar * format, gint w, gint h, const gchar * extra)
{
  gchar *s = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1%s%s", format, w, h, extra ? "," : "", extra ? extra : "");
  GstCaps *caps = gst_caps_from_string (s);
  g_free (s);
  return caps;
}

/* Pushes @inbuf (laid out as @in_info says, or its video meta), pulls the
 * output and checks it equals @inbuf byte for byte in every plane's
 * visible part. */
static gboolean
round_trip_layout (GstHarness * h, const GstVideoInfo * in_info,
    const GstVideoInfo * info, GstBuffer * inbuf, const gchar * what)
{
  GstBuffer *outbuf;
  GstVideoFrame in, out;
  gboolean ok;

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (inbuf)),
      GST_FLOW_OK);
  outbuf = gst_harness_pull (h);
  fail_unless (outbuf != NULL);
  fail_unless (gst_video_frame_map (&in, in_info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ));
  ok = cfx_test_frames_equal (&in, &out, what);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (outbuf), GST_BUFFER_PTS (inbuf));
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  gst_buffer_unref (outbuf);
  return ok;
}

static gboolean
round_trip_one (GstHarness * h, const GstVideoInfo * info, GstBuffer * inbuf,
    const gchar * what)
{
  return round_trip_layout (h, info, info, inbuf, what);
}

/* A buffer from the pinned pool cudaupload proposes upstream */
static GstBufferPool *
upstream_pool (GstHarness * h, GstCaps * caps)
{
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;

  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_get_n_allocation_pools (query) > 0);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  gst_query_unref (query);
  fail_unless (pool != NULL);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

static GstBuffer *
random_pool_frame (GstBufferPool * pool, const GstVideoInfo * info,
    guint64 seed)
{
  GstBuffer *buf = NULL;
  GstMapInfo map;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  fail_unless (gst_is_cuda_fx_host_memory (gst_buffer_peek_memory (buf, 0)));
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  cfx_test_fill_random (map.data, map.size, seed);
  gst_buffer_unmap (buf, &map);
  return buf;
}

GST_START_TEST (test_round_trip_all_formats_and_sizes)
{
  guint f, s, n;
  gboolean all_ok = TRUE;

  for (f = 0; formats[f]; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudafxdownload");
      GstCaps *caps = video_caps (formats[f], sizes[s].w, sizes[s].h, NULL);
      GstBufferPool *pool;
      GstVideoInfo info;
      gchar *what;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_harness_set_src_caps (h, gst_caps_ref (caps));
      pool = upstream_pool (h, caps);
      what = g_strdup_printf ("round trip %s %dx%d", formats[f], sizes[s].w,
          sizes[s].h);

      /* Every frame is fresh random data, so a byte the copies miss keeps
       * another frame's value (the destination is poisoned by the frame
       * before it); pageable and pinned sources alternate. */
      for (n = 0; n < 4; n++) {
        guint64 seed = (f * 100 + s) * 10 + n;
        GstBuffer *inbuf = (n & 1) ? random_pool_frame (pool, &info, seed) :
            cfx_test_random_frame (&info, seed);

        GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 25;
        all_ok &= round_trip_one (h, &info, inbuf, what);
        gst_buffer_unref (inbuf);
      }
      g_free (what);
      gst_buffer_pool_set_active (pool, FALSE);
      gst_object_unref (pool);
      gst_caps_unref (caps);
      gst_harness_teardown (h);
    }
  }
  fail_unless (all_ok, "some round trips differ (see above)");
}

GST_END_TEST;

/* Pageable frames whose rows are longer than the caps' own layout (a
 * producer's video meta), through the pinned staging with one thread and
 * with an odd number of them over an odd number of rows: the picture comes
 * back byte for byte */
GST_START_TEST (test_pageable_padded_strides_through_staging)
{
  const gchar *formats_tried[] = { "I420", "UYVY", "P010_10LE" };
  const guint threads[] = { 1, 3 };
  gboolean all_ok = TRUE;
  guint f, t, n;

  for (f = 0; f < G_N_ELEMENTS (formats_tried); f++) {
    for (t = 0; t < G_N_ELEMENTS (threads); t++) {
      gchar *launch = g_strdup_printf ("cudafxupload copy-threads=%u ! "
          "cudafxdownload", threads[t]);
      GstHarness *h = gst_harness_new_parse (launch);
      GstCaps *caps = video_caps (formats_tried[f], 1921, 1083, NULL);
      GstVideoInfo info, padded;
      gchar *what = g_strdup_printf ("%s with padded strides, %u threads",
          formats_tried[f], threads[t]);
      gsize offset[GST_VIDEO_MAX_PLANES] = { 0 }, size = 0;
      gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
      guint p;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_harness_set_src_caps (h, gst_caps_ref (caps));
      padded = info;
      for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
        stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p) + 64 + 8 * p;
        offset[p] = size;
        size += (gsize) stride[p] *
            gst_cuda_fx_video_info_plane_height (&info, p);
        padded.stride[p] = stride[p];
        padded.offset[p] = offset[p];
      }
      padded.size = size;
      for (n = 0; n < 3; n++) {
        GstBuffer *inbuf = gst_buffer_new_allocate (NULL, size, NULL);
        GstMapInfo map;

        gst_buffer_map (inbuf, &map, GST_MAP_WRITE);
        cfx_test_fill_random (map.data, map.size, 7000 + f * 10 + t + n);
        gst_buffer_unmap (inbuf, &map);
        gst_buffer_add_video_meta_full (inbuf, GST_VIDEO_FRAME_FLAG_NONE,
            GST_VIDEO_INFO_FORMAT (&info), 1921, 1083,
            GST_VIDEO_INFO_N_PLANES (&info), offset, stride);
        GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 25;
        all_ok &= round_trip_layout (h, &padded, &info, inbuf, what);
        gst_buffer_unref (inbuf);
      }
      g_free (what);
      g_free (launch);
      gst_caps_unref (caps);
      gst_harness_teardown (h);
    }
  }
  fail_unless (all_ok, "some round trips differ (see above)");
}

GST_END_TEST;

/* An upstream pool of system memory that refused ours: its buffers come
 * back, so with pin-recurring (the default) the upload page-locks each
 * memory the second time and copies from it directly. Every frame still
 * arrives whole while the pool refills the same memory (a queue keeps
 * copies in flight), and the memory ends up pinned only with the
 * property on. */
GST_START_TEST (test_pageable_pool_pinned_when_recurring)
{
  const gchar *formats_tried[] = { "I420", "UYVY" };
  gboolean all_ok = TRUE;
  guint f, pin;

  for (f = 0; f < G_N_ELEMENTS (formats_tried); f++) {
    for (pin = 0; pin < 2; pin++) {
      gchar *launch = g_strdup_printf ("cudafxupload pin-recurring=%s ! "
          "queue ! cudafxdownload", pin ? "true" : "false");
      GstHarness *h = gst_harness_new_parse (launch);
      GstCaps *caps = video_caps (formats_tried[f], 1921, 1083, NULL);
      GstBufferPool *pool = gst_video_buffer_pool_new ();
      GstStructure *config = gst_buffer_pool_get_config (pool);
      GstVideoInfo info;
      GstBuffer *last = NULL;
      guint n;

      fail_unless (gst_video_info_from_caps (&info, caps));
      gst_buffer_pool_config_set_params (config, caps, info.size, 3, 3);
      fail_unless (gst_buffer_pool_set_config (pool, config));
      fail_unless (gst_buffer_pool_set_active (pool, TRUE));
      gst_harness_set_src_caps (h, gst_caps_ref (caps));
      for (n = 0; n < 12; n++) {
        GstBuffer *inbuf = NULL, *outbuf;
        GstVideoFrame in, out;
        GstMapInfo map;
        gchar *what = g_strdup_printf ("%s pool frame %u, pin-recurring %u",
            formats_tried[f], n, pin);

        fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &inbuf,
                NULL), GST_FLOW_OK);
        gst_buffer_map (inbuf, &map, GST_MAP_WRITE);
        cfx_test_fill_random (map.data, map.size, 9100 + 100 * f + n);
        gst_buffer_unmap (inbuf, &map);
        GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 25;
        /* keep a copy to compare with: the pool refills this memory */
        last = gst_buffer_copy_deep (inbuf);
        fail_unless_equals_int (gst_harness_push (h, inbuf), GST_FLOW_OK);
        outbuf = gst_harness_pull (h);
        fail_unless (outbuf != NULL);
        fail_unless (gst_video_frame_map (&in, &info, last, GST_MAP_READ));
        fail_unless (gst_video_frame_map (&out, &info, outbuf, GST_MAP_READ));
        all_ok &= cfx_test_frames_equal (&in, &out, what);
        gst_video_frame_unmap (&out);
        gst_video_frame_unmap (&in);
        gst_buffer_unref (outbuf);
        gst_buffer_unref (last);
        g_free (what);
      }
      /* every memory of the pool has come back by now */
      {
        GstBuffer *buf = NULL;

        fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf,
                NULL), GST_FLOW_OK);
        fail_unless_equals_int (gst_cuda_fx_memory_is_pinned
            (gst_buffer_peek_memory (buf, 0)), pin);
        gst_buffer_unref (buf);
      }
      gst_harness_teardown (h);
      fail_unless (gst_buffer_pool_set_active (pool, FALSE));
      gst_object_unref (pool);
      gst_caps_unref (caps);
      g_free (launch);
    }
  }
  fail_unless (all_ok, "some round trips differ (see above)");
}

GST_END_TEST;

/* v210 (system) through upload and download: the filters' side is
 * I422_10LE in device memory; v210 as the format defines it (made by the
 * reference's pack: unused bits, slots and padding 0) comes back byte for
 * byte, and v210 with garbage there comes back as the reference's pack of
 * its unpack */
static GstBuffer *
v210_buffer (const GstVideoInfo * info, guint64 seed, gboolean garbage)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint cw = (w + 1) / 2, stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  guint16 *y = g_new (guint16, (gsize) w * h);
  guint16 *u = g_new (guint16, (gsize) cw * h), *v = g_new (guint16,
      (gsize) cw * h);
  GstMapInfo map;

  fail_unless_equals_int (stride, ref_v210_stride (w));
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  if (garbage) {
    cfx_test_fill_random (map.data, map.size, seed);
  } else {
    cfx_test_fill_random ((guint8 *) y, (gsize) w * h * 2, seed);
    cfx_test_fill_random ((guint8 *) u, (gsize) cw * h * 2, seed + 1);
    cfx_test_fill_random ((guint8 *) v, (gsize) cw * h * 2, seed + 2);
    memset (map.data, 0x5A, map.size);
    ref_v210_pack (y, w, u, cw, v, cw, w, h, map.data, stride);
  }
  gst_buffer_unmap (buf, &map);
  g_free (y);
  g_free (u);
  g_free (v);
  return buf;
}

/* the reference's pack of the reference's unpack of @buf */
static GstBuffer *
v210_canonical (const GstVideoInfo * info, GstBuffer * buf)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint cw = (w + 1) / 2, stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  GstBuffer *out = gst_buffer_new_allocate (NULL, info->size, NULL);
  guint16 *y = g_new (guint16, (gsize) w * h);
  guint16 *u = g_new (guint16, (gsize) cw * h), *v = g_new (guint16,
      (gsize) cw * h);
  GstMapInfo in, map;

  gst_buffer_map (buf, &in, GST_MAP_READ);
  gst_buffer_map (out, &map, GST_MAP_WRITE);
  ref_v210_unpack (in.data, stride, w, h, y, w, u, cw, v, cw);
  ref_v210_pack (y, w, u, cw, v, cw, w, h, map.data, stride);
  gst_buffer_unmap (out, &map);
  gst_buffer_unmap (buf, &in);
  g_free (y);
  g_free (u);
  g_free (v);
  return out;
}

GST_START_TEST (test_v210_round_trip)
{
  static const struct
  {
    gint w, h;
  } v210_sizes[] = { {1, 1}, {7, 3}, {48, 2}, {49, 5}, {1920, 1080},
  {1921, 1081}, {3840, 2160}, {7680, 4320}
  };
  gboolean ok = TRUE;
  guint s, n;

  for (s = 0; s < G_N_ELEMENTS (v210_sizes); s++) {
    GstHarness *h = gst_harness_new_parse ("cudafxupload name=up ! "
        "cudafxdownload");
    GstCaps *caps = video_caps ("v210", v210_sizes[s].w, v210_sizes[s].h,
        NULL), *mid;
    GstElement *upload;
    GstPad *pad;
    GstVideoInfo info, mid_info;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    gst_harness_set_sink_caps (h, caps);
    for (n = 0; n < 4; n++) {
      /* frames 0 and 2 as the format defines v210, 1 and 3 all random */
      GstBuffer *inbuf = v210_buffer (&info, s * 10 + n, n & 1), *outbuf;
      GstBuffer *want = (n & 1) ? v210_canonical (&info, inbuf) :
          gst_buffer_ref (inbuf);
      GstMapInfo a, b;

      GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 25;
      fail_unless_equals_int (gst_harness_push (h, inbuf), GST_FLOW_OK);
      outbuf = gst_harness_pull (h);
      fail_unless (outbuf != NULL);
      fail_unless (gst_buffer_map (outbuf, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (want, &b, GST_MAP_READ));
      fail_unless (a.size >= b.size);
      if (memcmp (a.data, b.data, b.size) != 0) {
        gsize i;

        for (i = 0; a.data[i] == b.data[i]; i++);
        g_print ("v210 %dx%d frame %u: byte %" G_GSIZE_FORMAT " (row %"
            G_GSIZE_FORMAT ") is 0x%02x, want 0x%02x\n", v210_sizes[s].w,
            v210_sizes[s].h, n, i, i / GST_VIDEO_INFO_PLANE_STRIDE (&info, 0),
            a.data[i], b.data[i]);
        ok = FALSE;
      }
      gst_buffer_unmap (want, &b);
      gst_buffer_unmap (outbuf, &a);
      gst_buffer_unref (want);
      gst_buffer_unref (outbuf);
    }
    /* the filters' side: planar 4:2:2 10-bit in device memory */
    upload = gst_bin_get_by_name (GST_BIN (h->element), "up");
    fail_unless (upload != NULL);
    pad = gst_element_get_static_pad (upload, "src");
    mid = gst_pad_get_current_caps (pad);
    fail_unless (gst_video_info_from_caps (&mid_info, mid));
    fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&mid_info),
        GST_VIDEO_FORMAT_I422_10LE);
    fail_unless (gst_cuda_fx_caps_are_device (mid));
    gst_caps_unref (mid);
    gst_object_unref (pad);
    gst_object_unref (upload);
    gst_harness_teardown (h);
  }
  fail_unless (ok, "v210 round trips differ (see above)");
}

GST_END_TEST;

GST_START_TEST (test_interlaced_caps_and_flags_preserved)
{
  const gchar *modes[] = { "interlace-mode=interleaved,"
        "field-order=top-field-first", "interlace-mode=mixed", NULL
  };
  guint m;

  for (m = 0; modes[m]; m++) {
    GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudafxdownload");
    GstCaps *caps = video_caps ("UYVY", 720, 576, modes[m]), *outcaps;
    GstVideoInfo info;
    GstBuffer *inbuf, *outbuf;
    guint flags[] = {
      GST_VIDEO_BUFFER_FLAG_INTERLACED | GST_VIDEO_BUFFER_FLAG_TFF,
      GST_VIDEO_BUFFER_FLAG_INTERLACED,
      GST_VIDEO_BUFFER_FLAG_INTERLACED | GST_VIDEO_BUFFER_FLAG_RFF |
          GST_VIDEO_BUFFER_FLAG_TFF,
      0,
    };
    guint i;

    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    for (i = 0; i < G_N_ELEMENTS (flags); i++) {
      inbuf = cfx_test_random_frame (&info, 1000 + i);
      GST_BUFFER_FLAG_SET (inbuf, flags[i]);
      GST_BUFFER_PTS (inbuf) = i * 40 * GST_MSECOND;
      GST_BUFFER_DTS (inbuf) = i * 40 * GST_MSECOND;
      GST_BUFFER_DURATION (inbuf) = 40 * GST_MSECOND;
      GST_BUFFER_OFFSET (inbuf) = i;
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (inbuf)),
          GST_FLOW_OK);
      outbuf = gst_harness_pull (h);
      fail_unless_equals_int (GST_BUFFER_FLAGS (outbuf) & flags[i], flags[i]);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (outbuf),
          GST_BUFFER_PTS (inbuf));
      fail_unless_equals_uint64 (GST_BUFFER_DTS (outbuf),
          GST_BUFFER_DTS (inbuf));
      fail_unless_equals_uint64 (GST_BUFFER_DURATION (outbuf),
          GST_BUFFER_DURATION (inbuf));
      fail_unless_equals_uint64 (GST_BUFFER_OFFSET (outbuf), i);
      gst_buffer_unref (outbuf);
      gst_buffer_unref (inbuf);
    }
    outcaps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_caps_is_equal (outcaps, caps),
        "caps changed: %" GST_PTR_FORMAT, outcaps);
    gst_caps_unref (outcaps);
    gst_caps_unref (caps);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Device buffer out of cudafxupload alone, for maps */
static GstBuffer *
upload_one (GstHarness * h, GstBuffer * inbuf)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (inbuf)),
      GST_FLOW_OK);
  return gst_harness_pull (h);
}

GST_START_TEST (test_cpu_map_of_device_memory)
{
  GstHarness *up = gst_harness_new ("cudafxupload");
  GstHarness *down = gst_harness_new ("cudafxdownload");
  GstCaps *caps = video_caps ("I420", 333, 199, NULL);
  GstCaps *dcaps = gst_caps_copy (caps);
  GstVideoInfo info;
  GstBuffer *inbuf, *devbuf, *outbuf;
  GstVideoFrame host, dev, out;
  guint p;
  gint x, y;

  gst_caps_set_features (dcaps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_FX, NULL));
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (up, gst_caps_ref (caps));
  gst_harness_set_caps (down, gst_caps_ref (dcaps), gst_caps_ref (caps));

  inbuf = cfx_test_random_frame (&info, 77);
  devbuf = upload_one (up, inbuf);
  fail_unless (gst_is_cuda_fx_buffer (devbuf));

  /* read: the CPU sees the uploaded bytes through the video meta */
  fail_unless (gst_video_frame_map (&host, &info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dev, &info, devbuf, GST_MAP_READ));
  fail_unless (cfx_test_frames_equal (&host, &dev, "CPU map read"));
  gst_video_frame_unmap (&dev);

  /* write: invert every byte on the CPU; the GPU sees it after unmap */
  devbuf = gst_buffer_make_writable (devbuf);
  fail_unless (gst_video_frame_map (&dev, &info, devbuf, GST_MAP_READWRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&dev); p++) {
    for (y = 0; y < gst_cuda_fx_video_info_plane_height (&info, p); y++) {
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dev, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&dev, p);
      for (x = 0; x < (gint) cfx_test_plane_row_bytes (&info, p); x++)
        row[x] = 255 - row[x];
    }
  }
  gst_video_frame_unmap (&dev);
  fail_unless (gst_is_cuda_fx_buffer (devbuf));

  outbuf = upload_one (down, devbuf);
  fail_unless (gst_video_frame_map (&out, &info, outbuf, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&out); p++) {
    for (y = 0; y < gst_cuda_fx_video_info_plane_height (&info, p); y++) {
      const guint8 *a = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&host, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&host, p);
      const guint8 *b = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&out, p);
      for (x = 0; x < (gint) cfx_test_plane_row_bytes (&info, p); x++)
        fail_unless_equals_int (b[x], 255 - a[x]);
    }
  }
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&host);
  gst_buffer_unref (outbuf);
  gst_buffer_unref (devbuf);
  gst_buffer_unref (inbuf);
  gst_caps_unref (dcaps);
  gst_caps_unref (caps);
  gst_harness_teardown (down);
  gst_harness_teardown (up);
}

GST_END_TEST;

/* ---- the event protocol under stress --------------------------------- */

#define STRESS_W 3840
#define STRESS_H 2160
#define STRESS_FRAMES 60

typedef struct
{
  GstVideoInfo info;
  gint received;
  gint bad;
  gboolean luma;
} Branch;

static GstFlowReturn
check_sample (GstAppSink * sink, gpointer user_data)
{
  Branch *b = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf = gst_sample_get_buffer (sample);
  guint64 index = GST_BUFFER_OFFSET (buf);
  GstVideoInfo src_info;
  GstBuffer *expected;
  GstVideoFrame got, want;

  gst_video_info_set_format (&src_info, GST_VIDEO_FORMAT_UYVY, STRESS_W,
      STRESS_H);
  expected = cfx_test_random_frame (&src_info, 5000 + index);
  gst_video_frame_map (&got, &b->info, buf, GST_MAP_READ);
  gst_video_frame_map (&want, &src_info, expected, GST_MAP_READ);
  if (b->luma) {
    gint y;
    gboolean ok = TRUE;
    guint8 *row = g_malloc (STRESS_W);
    CfxRefPlane src = { GST_VIDEO_FRAME_PLANE_DATA (&want, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&want, 0), STRESS_W, STRESS_H
    };
    CfxRefPlane dst = { row, STRESS_W, STRESS_W, 1 };

    /* row by row against the reference */
    for (y = 0; y < STRESS_H && ok; y++) {
      CfxRefPlane one = src;
      one.data += (gsize) y * src.stride;
      one.height = 1;
      cfx_ref_luma_from_packed422 (&dst, &one, 0);
      ok = memcmp (row, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&got, 0) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&got, 0), STRESS_W) == 0;
    }
    g_free (row);
    if (!ok)
      b->bad++;
  } else if (!cfx_test_frames_equal (&want, &got, "stress")) {
    b->bad++;
  }
  gst_video_frame_unmap (&want);
  gst_video_frame_unmap (&got);
  gst_buffer_unref (expected);
  b->received++;
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
run_stress (void)
{
  GstElement *pipeline, *src, *fast, *slow, *luma;
  GstAppSinkCallbacks cb = { NULL, NULL, check_sample };
  Branch bfast = { 0 }, bslow = { 0 }, bluma = { 0 };
  GstBus *bus;
  GstMessage *msg;
  GstCaps *caps;
  GstVideoInfo info;
  guint64 i;
  GError *error = NULL;

  /* Three readers of every uploaded frame at different speeds: a plain
   * download, one behind a slow identity, and cudaluma, whose kernel still
   * reads the frame after its buffer went back to the upload pool: pool
   * reuse is safe only if the read/written events order it. */
  pipeline = gst_parse_launch ("appsrc name=src format=time ! cudafxupload ! "
      "tee name=t "
      "t. ! queue max-size-buffers=30 max-size-bytes=0 max-size-time=0 ! cudafxdownload ! appsink name=fast "
      "t. ! queue max-size-buffers=30 max-size-bytes=0 max-size-time=0 ! identity sleep-time=3000 ! "
      "cudafxdownload ! appsink name=slow "
      "t. ! queue max-size-buffers=30 max-size-bytes=0 max-size-time=0 ! cudaluma ! queue max-size-buffers=30 max-size-bytes=0 max-size-time=0 ! "
      "cudafxdownload ! appsink name=luma", &error);
  fail_unless (pipeline != NULL, "%s", error ? error->message : "?");
  cfx_test_track_pipeline (pipeline);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  fast = gst_bin_get_by_name (GST_BIN (pipeline), "fast");
  slow = gst_bin_get_by_name (GST_BIN (pipeline), "slow");
  luma = gst_bin_get_by_name (GST_BIN (pipeline), "luma");

  caps = video_caps ("UYVY", STRESS_W, STRESS_H, NULL);
  gst_video_info_from_caps (&info, caps);
  bfast.info = info;
  bslow.info = info;
  gst_video_info_set_format (&bluma.info, GST_VIDEO_FORMAT_GRAY8, STRESS_W,
      STRESS_H);
  bluma.luma = TRUE;
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_app_sink_set_callbacks (GST_APP_SINK (fast), &cb, &bfast, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (slow), &cb, &bslow, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (luma), &cb, &bluma, NULL);
  g_object_set (fast, "sync", FALSE, NULL);
  g_object_set (slow, "sync", FALSE, NULL);
  g_object_set (luma, "sync", FALSE, NULL);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < STRESS_FRAMES; i++) {
    GstBuffer *buf = cfx_test_random_frame (&info, 5000 + i);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 50;
    GST_BUFFER_OFFSET (buf) = i;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timeout");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  fail_unless_equals_int (bfast.received, STRESS_FRAMES);
  fail_unless_equals_int (bslow.received, STRESS_FRAMES);
  fail_unless_equals_int (bluma.received, STRESS_FRAMES);
  fail_unless_equals_int (bfast.bad, 0);
  fail_unless_equals_int (bslow.bad, 0);
  fail_unless_equals_int (bluma.bad, 0);

  gst_object_unref (src);
  gst_object_unref (fast);
  gst_object_unref (slow);
  gst_object_unref (luma);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_stress_pool_reuse_tee)
{
  run_stress ();
}

GST_END_TEST;

/* ---- frames in flight: upload never waits for the GPU ------------------ */

static gint in_flight, max_in_flight, left_pending, left_total;

static GstPadProbeReturn
upload_src_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint now = g_atomic_int_add (&in_flight, 1) + 1;

  /* a copy still running when the frame leaves cudaupload: it did not wait */
  if (gst_cuda_fx_buffer_write_pending (buf))
    g_atomic_int_inc (&left_pending);
  g_atomic_int_inc (&left_total);
  if (now > g_atomic_int_get (&max_in_flight))
    g_atomic_int_set (&max_in_flight, now);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
download_sink_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  g_atomic_int_add (&in_flight, -1);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_frames_in_flight_through_queue)
{
  GstElement *pipeline, *up, *down, *src;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  GstCaps *caps;
  GstVideoInfo info;
  GstBuffer *frame;
  GstAllocator *allocator;
  gint i;

  /* a fast producer (the same frame pushed again and again) and a slow
   * consumer: upload must run ahead, its copies still in flight */
  pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudafxupload name=up ! queue max-size-buffers=8 max-size-bytes=0 max-size-time=0 ! "
      "cudafxdownload name=down ! identity sleep-time=2000 ! "
      "fakesink sync=false", NULL);
  cfx_test_track_pipeline (pipeline);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  up = gst_bin_get_by_name (GST_BIN (pipeline), "up");
  down = gst_bin_get_by_name (GST_BIN (pipeline), "down");
  caps = video_caps ("I420", 3840, 2160, NULL);
  gst_video_info_from_caps (&info, caps);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  in_flight = max_in_flight = left_pending = left_total = 0;
  pad = gst_element_get_static_pad (up, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, upload_src_probe,
      NULL, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (down, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, download_sink_probe,
      NULL, NULL);
  gst_object_unref (pad);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* pinned, as a producer writing into cudaupload's pool would give */
  allocator = gst_cuda_fx_host_allocator_get ();
  frame = gst_buffer_new_allocate (allocator, info.size, NULL);
  gst_object_unref (allocator);
  gst_buffer_memset (frame, 0, 0x5a, info.size);
  for (i = 0; i < 40; i++) {
    GstBuffer *buf = gst_buffer_copy_region (frame, GST_BUFFER_COPY_MEMORY,
        0, -1);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 50;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
  }
  gst_buffer_unref (frame);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  g_print ("frames between cudaupload and cudadownload at most: %d; frames "
      "leaving cudaupload with their copy still running: %d of %d\n",
      max_in_flight, left_pending, left_total);
  fail_unless (max_in_flight >= 4, "only %d frames in flight", max_in_flight);
  fail_unless (left_pending * 2 >= left_total,
      "cudaupload waited for its copies: %d of %d pending", left_pending,
      left_total);
  gst_object_unref (src);
  gst_object_unref (up);
  gst_object_unref (down);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ---- device-id ---------------------------------------------------------- */

static GstMessage *
run_to_end (const gchar * launch)
{
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  fail_unless (msg != NULL, "timeout: %s", launch);
  return msg;
}

GST_START_TEST (test_device_id)
{
  GstMessage *msg;
  GError *error = NULL;
  gint count = 0;

  /* -1 takes the neighbour's device, 0 names it: they agree */
  msg = run_to_end ("videotestsrc num-buffers=5 ! cudafxupload device-id=0 ! "
      "cudafxdownload device-id=-1 ! fakesink");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  msg = run_to_end ("videotestsrc num-buffers=5 ! cudafxupload device-id=-1 "
      "! cudafxdownload device-id=0 ! fakesink");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);

  /* a device that is not there fails clearly */
  cudaGetDeviceCount (&count);
  if (count == 1) {
    msg = run_to_end ("videotestsrc num-buffers=5 ! cudafxupload device-id=1 "
        "! cudafxdownload ! fakesink");
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
    gst_message_parse_error (msg, &error, NULL);
    g_print ("device-id=1 with one GPU: %s\n", error->message);
    fail_unless (strstr (error->message, "CUDA device 1 requested") != NULL,
        "%s", error->message);
    g_clear_error (&error);
    gst_message_unref (msg);
  } else {
    g_print ("%d GPUs: the missing-device case is not testable here\n",
        count);
  }
}

GST_END_TEST;

/* ---- bad input -------------------------------------------------------- */

GST_START_TEST (test_buffer_smaller_than_caps)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudafxdownload");
  GstBuffer *small;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=I420,width=640,"
      "height=480,framerate=25/1");
  small = gst_buffer_new_allocate (NULL, 1000, NULL);
  gst_buffer_memset (small, 0, 0x55, 1000);
  fail_unless_equals_int (gst_harness_push (h, small), GST_FLOW_ERROR);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_renegotiate_size_midstream)
{
  GstHarness *h = gst_harness_new_parse ("cudafxupload ! cudafxdownload");
  const struct
  {
    const gchar *format;
    gint w, h;
  } steps[] = { {"UYVY", 64, 48}, {"UYVY", 1280, 720}, {"I420", 1281, 721},
  {"UYVY", 64, 48}
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstCaps *caps = video_caps (steps[i].format, steps[i].w, steps[i].h,
        NULL);
    GstVideoInfo info;
    GstBuffer *inbuf;
    GstCaps *outcaps;

    gst_video_info_from_caps (&info, caps);
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    inbuf = cfx_test_random_frame (&info, 300 + i);
    fail_unless (round_trip_one (h, &info, inbuf, "renegotiated"));
    outcaps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_caps_is_equal (outcaps, caps));
    gst_caps_unref (outcaps);
    gst_buffer_unref (inbuf);
    gst_caps_unref (caps);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_passthrough_without_memory_change)
{
  GstHarness *up = gst_harness_new ("cudafxupload");
  GstHarness *up2 = gst_harness_new ("cudafxupload");
  GstHarness *down = gst_harness_new ("cudafxdownload");
  GstCaps *caps = video_caps ("NV12", 64, 48, NULL);
  GstCaps *dcaps = gst_caps_copy (caps);
  GstVideoInfo info;
  GstBuffer *inbuf, *devbuf, *out;

  gst_caps_set_features (dcaps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_FX, NULL));
  gst_video_info_from_caps (&info, caps);
  gst_harness_set_src_caps (up, gst_caps_ref (caps));
  inbuf = cfx_test_random_frame (&info, 4);
  devbuf = upload_one (up, inbuf);

  /* device frames into cudaupload: the same buffer comes out */
  gst_harness_set_caps (up2, gst_caps_ref (dcaps), gst_caps_ref (dcaps));
  out = upload_one (up2, devbuf);
  fail_unless (out == devbuf);
  gst_buffer_unref (out);

  /* system memory into cudadownload: likewise */
  gst_harness_set_caps (down, gst_caps_ref (caps), gst_caps_ref (caps));
  out = upload_one (down, inbuf);
  fail_unless (out == inbuf);
  gst_buffer_unref (out);

  gst_buffer_unref (devbuf);
  gst_buffer_unref (inbuf);
  gst_caps_unref (caps);
  gst_caps_unref (dcaps);
  gst_harness_teardown (up);
  gst_harness_teardown (up2);
  gst_harness_teardown (down);
}

GST_END_TEST;

static Suite *
upload_download_suite (void)
{
  Suite *s = suite_create ("cudafx upload/download (GPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_round_trip_all_formats_and_sizes);
  tcase_add_test (tc, test_pageable_padded_strides_through_staging);
  tcase_add_test (tc, test_pageable_pool_pinned_when_recurring);
  tcase_add_test (tc, test_v210_round_trip);
  tcase_add_test (tc, test_interlaced_caps_and_flags_preserved);
  tcase_add_test (tc, test_cpu_map_of_device_memory);
  tcase_add_test (tc, test_passthrough_without_memory_change);
  /* the stress case passes ten runs in a row */
  tcase_add_loop_test (tc, test_stress_pool_reuse_tee, 0, 10);
  tcase_add_test (tc, test_frames_in_flight_through_queue);
  tcase_add_test (tc, test_device_id);
  tcase_add_test (tc, test_buffer_smaller_than_caps);
  tcase_add_test (tc, test_renegotiate_size_midstream);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "upload-download", upload_download_suite);
}
