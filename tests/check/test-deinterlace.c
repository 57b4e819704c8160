/* GPU suite for cudadeinterlace.
 *
 *  1. The kernel (cfx_deinterlace_frame) against the CPU reference
 *     (tests/reference/deinterlace.c) on device planes: every method,
 *     both parities, TFF and BFF, spatial check on and off, bwdif's intra
 *     fields, every plane layout (planar, NV12 pairs, UYVY, YUY2, each
 *     component given to the kernel as a CfxPlane of its own), the
 *     minimum and odd and even sizes up to 1920x1080, random and natural
 *     content, the aligned (32-bit word) and unaligned (byte) paths, several
 *     planes in one launch, poisoned outputs.
 *  2. The element in cudafxupload ! cudadeinterlace ! cudafxdownload, for
 *     every format: every output frame of a stream against the reference
 *     driven by the stream rules of kernels/deinterlace.md
 *     (P = F[max(i-1,0)], N = F[min(i+1,last)], parity = tff ^ (k == 0),
 *     bwdif intra on the first field of the stream and, at field rate, the
 *     last field), fields all/top/bottom, field order from caps, flags and
 *     the property; the padding byte of odd-width UYVY/YUY2 rows is the
 *     current input frame's (the frame layer restores it: the kernels may
 *     write it, and the kernel-level checks leave it alone).
 *  3. Stream semantics with GstHarness: timestamps and durations, exactly
 *     two outputs per interlaced input, EOS drain, flush and DISCONT reset,
 *     mixed content, the latency query, metas on the first output only,
 *     refusal of alternate and too-small caps. */
#include "cfx-test.h"
#include "cfx-reference.h"
#include "cudafx-kernels.h"
#include "cudafx-testing.h"

#include <gst/cudafx.h>
#include <string.h>

#define POISON 0xA5

static const gchar *formats[] = { "UYVY", "YUY2", "I420", "YV12", "NV12",
  "Y42B", "Y444", "GRAY8", NULL
};

static const gchar *method_names[] = { "bwdif", "yadif", "ela", "linear" };

/* ---- channels: each component of a plane ------------------------------- */

/* How a plane's components lie in its rows: the arrangements the kernel
 * takes (cfx_deinterlace_frame ()) */
typedef enum
{
  LAYOUT_PLANAR,                /* one component, step 1 */
  LAYOUT_PAIRS,                 /* NV12's UV plane */
  LAYOUT_UYVY,                  /* Y at offset 1, U 0, V 2 */
  LAYOUT_YUY2,                  /* Y at offset 0, U 1, V 3 */
} Layout;

typedef struct
{
  gint offset, step, width;     /* bytes, bytes, samples */
} Channel;

static Channel
channel (gint offset, gint step, gint width)
{
  Channel c = { offset, step, width };
  return c;
}

/* The channels of a plane of @layout whose row holds @width samples per
 * component (packed: pixels) */
static guint
layout_channels (Layout layout, gint width, Channel ch[3])
{
  switch (layout) {
    case LAYOUT_PLANAR:
      ch[0] = channel (0, 1, width);
      return 1;
    case LAYOUT_PAIRS:
      ch[0] = channel (0, 2, width);
      ch[1] = channel (1, 2, width);
      return 2;
    case LAYOUT_UYVY:
      ch[0] = channel (1, 2, width);
      ch[1] = channel (0, 4, (width + 1) / 2);
      ch[2] = channel (2, 4, (width + 1) / 2);
      return 3;
    default:
      ch[0] = channel (0, 2, width);
      ch[1] = channel (1, 4, (width + 1) / 2);
      ch[2] = channel (3, 4, (width + 1) / 2);
      return 3;
  }
}

static gint
layout_row_bytes (Layout layout, gint width)
{
  switch (layout) {
    case LAYOUT_PLANAR:
      return width;
    case LAYOUT_PAIRS:
      return 2 * width;
    default:
      return 4 * ((width + 1) / 2);
  }
}

/* One plane of three host frames and an output, as the reference sees a
 * channel of it */
typedef struct
{
  const guint8 *data[4];        /* prev, cur, next, out */
  gint stride[4];
  gint width, height;
  Layout layout;
} HostPlane;

/* Checks every channel of @hp's output against the reference; prints the
 * first difference. */
static gboolean
check_plane (const HostPlane * hp, const CfxDeintField * f, const gchar * what)
{
  Channel ch[3];
  guint n = layout_channels (hp->layout, hp->width, ch), c;
  gint h = hp->height;
  gboolean ok = TRUE;

  for (c = 0; c < n && ok; c++) {
    gint w = ch[c].width, x, y, j;
    guint8 *buf[4];
    CfxRefPlane rp[4];

    for (j = 0; j < 4; j++) {
      buf[j] = g_malloc ((gsize) w * h);
      rp[j].data = buf[j];
      rp[j].stride = rp[j].width = w;
      rp[j].height = h;
      if (j < 3)
        for (y = 0; y < h; y++)
          for (x = 0; x < w; x++)
            buf[j][y * w + x] = hp->data[j][(gsize) y * hp->stride[j] +
                ch[c].offset + x * ch[c].step];
    }
    cfx_ref_deinterlace_plane (&rp[3], &rp[0], &rp[1], &rp[2], f->parity,
        f->tff, (CfxRefDeintMethod) f->method, f->spatial_check, f->intra_only);
    for (y = 0; y < h && ok; y++)
      for (x = 0; x < w && ok; x++) {
        gint got = hp->data[3][(gsize) y * hp->stride[3] + ch[c].offset +
            x * ch[c].step];
        if (got != buf[3][y * w + x]) {
          g_print ("%s: %s parity %d tff %d sc %d intra %d: channel %u "
              "(%dx%d) x=%d y=%d: got %d, reference %d\n", what,
              method_names[f->method], f->parity, f->tff, f->spatial_check,
              f->intra_only, c, w, h, x, y, got, buf[3][y * w + x]);
          ok = FALSE;
        }
      }
    for (j = 0; j < 4; j++)
      g_free (buf[j]);
  }
  return ok;
}

/* Natural-looking content: smooth shading, a texture and a disc, all
 * moving with t */
static void
fill_natural (guint8 * data, gint stride, gint row_bytes, gint rows, gint t,
    guint64 seed)
{
  gint x, y;
  guint32 r = (guint32) seed * 2654435761u + 1;
  gdouble cx = 0.3 * row_bytes + 3.0 * t, cy = 0.4 * rows + 2.0 * t;
  gdouble rad = MAX (3.0, rows / 5.0);

  for (y = 0; y < rows; y++)
    for (x = 0; x < row_bytes; x++) {
      gdouble v = 110 + 60 * sin ((x + 2.0 * t) / 9.0) * cos ((y - t) / 7.0)
          + 25 * sin ((x * 0.7 + y * 1.3) / 3.0);
      gdouble dx = x - cx, dy = (y - cy) * 2.0;

      if (dx * dx + dy * dy < rad * rad)
        v = 230 - (x & 7) * 4;
      r = r * 1664525u + 1013904223u;
      v += (gint) (r >> 29) - 3;
      data[(gsize) y * stride + x] = (guint8) CLAMP (v, 0, 255);
    }
}

/* ---- 1. kernel against the reference ------------------------------------ */

typedef struct
{
  Layout layout;
  gint width, height;
} PlaneDesc;

/* Runs one launch over @n planes (content of kind @natural) with pitch
 * rule @aligned (256-byte pitches) or not (odd pitch, base + 1); each
 * component of each plane goes to the kernel as a component of its own. */
static gboolean
kernel_case (const PlaneDesc * desc, guint n, const CfxDeintField * f,
    gboolean aligned, gboolean natural, guint64 seed)
{
  CfxDeintComponent comps[CFX_DEINT_MAX_COMPONENTS];
  guint8 *host[3][4], *dev[3][4];
  gint pitch[3];
  gboolean ok = TRUE;
  guint p, j, c, n_comps = 0;
  gchar what[128];

  fail_unless (n <= 3);
  for (p = 0; p < n; p++) {
    gint rb = layout_row_bytes (desc[p].layout, desc[p].width);
    Channel ch[3];
    guint nc = layout_channels (desc[p].layout, desc[p].width, ch);
    gsize size;

    pitch[p] = aligned ? GST_ROUND_UP_N (rb, 256) : rb + 3;
    size = (gsize) pitch[p] * desc[p].height;
    for (j = 0; j < 4; j++) {
      host[p][j] = g_malloc (size);
      if (j == 3)
        memset (host[p][j], POISON, size);
      else if (natural)
        fill_natural (host[p][j], pitch[p], pitch[p], desc[p].height, j,
            seed + p);
      else
        cfx_test_fill_random (host[p][j], size, seed * 8 + p * 4 + j);
      fail_unless_equals_int (cudaMalloc ((void **) &dev[p][j], size + 16),
          cudaSuccess);
      fail_unless_equals_int (cudaMemset (dev[p][j], POISON, size + 16),
          cudaSuccess);
      fail_unless_equals_int (cudaMemcpy (dev[p][j] + (aligned ? 0 : 1),
              host[p][j], size, cudaMemcpyHostToDevice), cudaSuccess);
    }
    for (c = 0; c < nc; c++) {
      CfxDeintComponent *k = &comps[n_comps++];
      CfxPlane *fr[4] = { &k->prev, &k->cur, &k->next, &k->dst };

      fail_unless (n_comps <= CFX_DEINT_MAX_COMPONENTS);
      for (j = 0; j < 4; j++)
        *fr[j] = cfx_plane_8bit (dev[p][j] + (aligned ? 0 : 1) +
            ch[c].offset, pitch[p], ch[c].width, desc[p].height, ch[c].step,
            ch[c].offset);
    }
  }

  fail_unless_equals_int (cfx_deinterlace_frame (comps, n_comps, f, 0),
      cudaSuccess);
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);

  for (p = 0; p < n; p++) {
    gsize size = (gsize) pitch[p] * desc[p].height;
    HostPlane hp;
    gint y, rb = layout_row_bytes (desc[p].layout, desc[p].width);

    fail_unless_equals_int (cudaMemcpy (host[p][3], dev[p][3] +
            (aligned ? 0 : 1), size, cudaMemcpyDeviceToHost), cudaSuccess);
    for (j = 0; j < 4; j++) {
      hp.data[j] = host[p][j];
      hp.stride[j] = pitch[p];
    }
    hp.width = desc[p].width;
    hp.height = desc[p].height;
    hp.layout = desc[p].layout;
    g_snprintf (what, sizeof (what), "kernel plane %u/%u layout %d %dx%d %s "
        "%s", p, n, desc[p].layout, desc[p].width, desc[p].height,
        aligned ? "aligned" : "unaligned", natural ? "natural" : "random");
    ok &= check_plane (&hp, f, what);
    /* the byte path never writes past a row's samples */
    if (!aligned)
      for (y = 0; y < desc[p].height && ok; y++)
        if (host[p][3][(gsize) y * pitch[p] + rb] != POISON) {
          g_print ("%s: wrote the row padding of row %d\n", what, y);
          ok = FALSE;
        }
    for (j = 0; j < 4; j++) {
      cudaFree (dev[p][j]);
      g_free (host[p][j]);
    }
  }
  return ok;
}

static const struct
{
  gint w, h;
} kernel_sizes[] = { {3, 3}, {3, 4}, {4, 4}, {5, 5}, {6, 9}, {7, 8},
{16, 10}, {17, 11}, {33, 20}, {40, 31}, {100, 37}, {131, 70}, {720, 576}
};

static gboolean
size_ok (CfxDeintMethod m, Layout layout, gint w, gint h)
{
  gint min_w, min_h, cw = layout >= LAYOUT_UYVY ? (w + 1) / 2 : w;

  cfx_deinterlace_min_size (m, 1, &min_w, &min_h);
  return w >= min_w && cw >= min_w && h >= min_h;
}

GST_START_TEST (test_kernel_methods_layouts_sizes)
{
  gboolean ok = TRUE;
  guint s, m, layout, variant = 0;

  for (m = 0; m < 4; m++)
    for (layout = 0; layout < 4; layout++)
      for (s = 0; s < G_N_ELEMENTS (kernel_sizes); s++) {
        PlaneDesc d = { layout, kernel_sizes[s].w, kernel_sizes[s].h };
        gint parity, tff, sc, intra;

        if (!size_ok (m, layout, d.width, d.height))
          continue;
        for (parity = 0; parity < 2; parity++)
          for (tff = 0; tff < 2; tff++)
            for (sc = 0; sc < 2; sc++)
              for (intra = 0; intra < 2; intra++) {
                CfxDeintField f = { m, parity, tff, sc, intra };

                if ((m != CFX_DEINT_YADIF && !sc)
                    || (m != CFX_DEINT_BWDIF && intra))
                  continue;
                variant++;
                ok &= kernel_case (&d, 1, &f, TRUE, FALSE, variant);
                ok &= kernel_case (&d, 1, &f, TRUE, TRUE, variant);
                /* the byte path on a share of the cases */
                if (variant % 3 == 0 || d.width < 8)
                  ok &= kernel_case (&d, 1, &f, FALSE, variant & 1, variant);
              }
      }
  fail_unless (ok);
}

GST_END_TEST;

/* Full HD, several planes in one launch: I420-like, NV12-like, UYVY */
GST_START_TEST (test_kernel_full_hd_multi_plane)
{
  const PlaneDesc i420[3] = { {LAYOUT_PLANAR, 1920, 1080},
  {LAYOUT_PLANAR, 960, 540}, {LAYOUT_PLANAR, 960, 540}
  };
  const PlaneDesc nv12[2] = { {LAYOUT_PLANAR, 1919, 1079},
  {LAYOUT_PAIRS, 960, 540}
  };
  const PlaneDesc uyvy[1] = { {LAYOUT_UYVY, 1920, 1080} };
  gboolean ok = TRUE;
  guint m;
  gint parity;

  for (m = 0; m < 4; m++)
    for (parity = 0; parity < 2; parity++) {
      CfxDeintField f = { m, parity, 1, 1, 0 };

      ok &= kernel_case (i420, 3, &f, TRUE, parity, 10 + m);
      ok &= kernel_case (nv12, 2, &f, TRUE, !parity, 20 + m);
      f.tff = 0;
      ok &= kernel_case (uyvy, 1, &f, TRUE, TRUE, 30 + m);
      if (m == CFX_DEINT_BWDIF) {
        f.intra_only = 1;
        ok &= kernel_case (i420, 3, &f, TRUE, TRUE, 40);
      }
    }
  fail_unless (ok);
}

GST_END_TEST;

GST_START_TEST (test_kernel_refuses_small_planes)
{
  guint8 *d;
  CfxDeintComponent c[3];
  CfxDeintField f = { CFX_DEINT_BWDIF, 0, 1, 1, 0 };
  guint i;

  fail_unless_equals_int (cudaMalloc ((void **) &d, 4096), cudaSuccess);
  /* initialised: the calls accepted read it (initcheck) */
  fail_unless_equals_int (cudaMemset (d, 0, 4096), cudaSuccess);
  c[0].cur = cfx_plane_8bit (d, 256, 3, 3, 1, 0);
  c[0].prev = c[0].next = c[0].dst = c[0].cur;
  /* bwdif needs 4 rows, yadif 3 */
  fail_unless_equals_int (cfx_deinterlace_frame (c, 1, &f, 0),
      cudaErrorInvalidValue);
  f.method = CFX_DEINT_YADIF;
  fail_unless_equals_int (cfx_deinterlace_frame (c, 1, &f, 0), cudaSuccess);
  /* only 8-bit samples */
  c[0].cur.bytes = c[0].prev.bytes = c[0].next.bytes = c[0].dst.bytes = 2;
  fail_unless_equals_int (cfx_deinterlace_frame (c, 1, &f, 0),
      cudaErrorInvalidValue);
  /* UYVY 4 pixels wide: chroma components of 2 */
  c[0].cur = cfx_plane_8bit (d + 1, 256, 4, 3, 2, 1);
  c[1].cur = cfx_plane_8bit (d, 256, 2, 3, 4, 0);
  c[2].cur = cfx_plane_8bit (d + 2, 256, 2, 3, 4, 2);
  for (i = 0; i < 3; i++)
    c[i].prev = c[i].next = c[i].dst = c[i].cur;
  fail_unless_equals_int (cfx_deinterlace_frame (c, 3, &f, 0),
      cudaErrorInvalidValue);
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  cudaFree (d);
}

GST_END_TEST;

/* ---- 2. the element against the reference ------------------------------- */

static Layout
plane_layout (GstVideoFormat format, guint plane)
{
  if (format == GST_VIDEO_FORMAT_UYVY)
    return LAYOUT_UYVY;
  if (format == GST_VIDEO_FORMAT_YUY2)
    return LAYOUT_YUY2;
  if (format == GST_VIDEO_FORMAT_NV12 && plane == 1)
    return LAYOUT_PAIRS;
  return LAYOUT_PLANAR;
}

/* Every plane of @out against the reference on P, C, N */
static gboolean
check_frame (GstVideoFrame * out, GstVideoFrame * p, GstVideoFrame * c,
    GstVideoFrame * n, const CfxDeintField * f, const gchar * what)
{
  guint plane;
  gboolean ok = TRUE;

  for (plane = 0; plane < GST_VIDEO_FRAME_N_PLANES (c) && ok; plane++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    HostPlane hp;
    GstVideoFrame *fr[4] = { p, c, n, out };
    guint j;
    gchar *w;

    gst_video_format_info_component (c->info.finfo, plane, comp);
    for (j = 0; j < 4; j++) {
      hp.data[j] = GST_VIDEO_FRAME_PLANE_DATA (fr[j], plane);
      hp.stride[j] = GST_VIDEO_FRAME_PLANE_STRIDE (fr[j], plane);
    }
    hp.width = GST_VIDEO_FRAME_COMP_WIDTH (c, comp[0]);
    hp.height = GST_VIDEO_FRAME_COMP_HEIGHT (c, comp[0]);
    hp.layout = plane_layout (GST_VIDEO_FRAME_FORMAT (c), plane);
    w = g_strdup_printf ("%s plane %u", what, plane);
    ok = check_plane (&hp, f, w);
    g_free (w);
  }

  /* UYVY/YUY2 of odd width: the padding byte of each row (the last pair's
   * second Y, no sample) is the current input frame's */
  if (ok && (GST_VIDEO_FRAME_FORMAT (c) == GST_VIDEO_FORMAT_UYVY
          || GST_VIDEO_FRAME_FORMAT (c) == GST_VIDEO_FORMAT_YUY2)
      && GST_VIDEO_FRAME_WIDTH (c) % 2) {
    gsize off = (gsize) (GST_VIDEO_FRAME_WIDTH (c) / 2) * 4 +
        (GST_VIDEO_FRAME_FORMAT (c) == GST_VIDEO_FORMAT_UYVY ? 3 : 2);
    gint y;

    for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (c); y++) {
      guint8 a = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (c, 0))[(gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (c, 0) + off];
      guint8 b = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, 0))[(gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (out, 0) + off];

      if (a != b) {
        g_print ("%s: padding byte of row %d is %d, the current input "
            "frame's %d\n", what, y, b, a);
        ok = FALSE;
        break;
      }
    }
  }
  return ok;
}

/* 16-bit formats: every component against the reference's 16-bit path,
 * on the significant bits of the input words (their unused bits are
 * random); the output's unused bits must be 0 */
static guint16 *
significant (GstVideoFrame * f, guint c, gint w, gint h)
{
  const GstVideoFormatInfo *finfo = f->info.finfo;
  guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
  gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
  guint mask = (1u << GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c)) - 1;
  gint step = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c), x, y;
  guint16 *v = g_new (guint16, (gsize) w * h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const guint8 *p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, plane) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (f, plane) +
          cfx_test_comp_byte_offset (finfo, c) + (gsize) x * step;

      v[(gsize) y * w + x] = ((p[0] | p[1] << 8) >> shift) & mask;
    }
  return v;
}

static gboolean
check_frame16 (GstVideoFrame * out, GstVideoFrame * p, GstVideoFrame * c,
    GstVideoFrame * n, const CfxDeintField * f, const gchar * what)
{
  static const CfxRefDeintMethod methods[] = {
    [CFX_DEINT_BWDIF] = CFX_REF_DEINT_BWDIF,
    [CFX_DEINT_YADIF] = CFX_REF_DEINT_YADIF,
    [CFX_DEINT_ELA] = CFX_REF_DEINT_ELA,
    [CFX_DEINT_LINEAR] = CFX_REF_DEINT_LINEAR,
  };
  const GstVideoFormatInfo *finfo = c->info.finfo;
  gboolean ok = TRUE;
  guint comp;

  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (c) && ok; comp++) {
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (c, comp);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (c, comp);
    gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp);
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp);
    guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp);
    gint step = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp), x, y;
    guint16 *in[3] = { significant (p, comp, w, h), significant (c, comp, w,
          h), significant (n, comp, w, h)
    };
    guint16 *want = g_new (guint16, (gsize) w * h);
    CfxRefPlane16 rp[3], rd = { want, w, w, h };
    guint i;

    for (i = 0; i < 3; i++) {
      CfxRefPlane16 one = { in[i], w, w, h };
      rp[i] = one;
    }
    cfx_ref_deinterlace_plane16 (&rd, &rp[0], &rp[1], &rp[2], depth,
        f->parity, f->tff, methods[f->method], f->spatial_check,
        f->intra_only);
    for (y = 0; y < h && ok; y++)
      for (x = 0; x < w && ok; x++) {
        const guint8 *q = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, plane) +
            (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (out, plane) +
            cfx_test_comp_byte_offset (finfo, comp) + (gsize) x * step;
        guint word = q[0] | q[1] << 8;

        if (word != (guint) want[(gsize) y * w + x] << shift) {
          g_print ("%s: component %u at %d,%d is 0x%04x, want 0x%04x\n",
              what, comp, x, y, word, want[(gsize) y * w + x] << shift);
          ok = FALSE;
        }
      }
    for (i = 0; i < 3; i++)
      g_free (in[i]);
    g_free (want);
  }
  return ok;
}

typedef enum
{
  ORDER_CAPS_TFF,
  ORDER_CAPS_BFF,
  ORDER_FLAGS,                  /* no field-order; per-frame TFF flags vary */
  ORDER_PROPERTY_BFF,           /* caps say TFF, the property says BFF */
} OrderSource;

static const gchar *order_names[] = { "caps-tff", "caps-bff", "flags",
  "property-bff"
};

static GstBuffer *
make_frame (const GstVideoInfo * info, guint i, gboolean natural, guint64 seed)
{
  GstBuffer *buf;
  GstVideoFrame f;
  guint p;

  buf = cfx_test_random_frame (info, seed * 131 + i);
  if (natural) {
    gst_video_frame_map (&f, info, buf, GST_MAP_WRITE);
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++)
      fill_natural (GST_VIDEO_FRAME_PLANE_DATA (&f, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, p),
          gst_cuda_fx_video_info_plane_height (info, p), i, seed + p);
    gst_video_frame_unmap (&f);
  }
  return buf;
}

static GstHarness *
new_harness (const gchar * props, const gchar * caps_str)
{
  gchar *launch = g_strdup_printf ("cudafxupload ! cudadeinterlace %s ! "
      "cudafxdownload", props ? props : "");
  GstHarness *h = gst_harness_new_parse (launch);

  g_free (launch);
  gst_harness_set_src_caps_str (h, caps_str);
  return h;
}

/* Pushes @n frames, EOS, and checks every output (content, timestamps,
 * count). */
static gboolean
element_stream (const gchar * format, gint w, gint h, CfxDeintMethod method,
    gint fields, OrderSource order, gboolean sc, gboolean natural,
    guint n, guint64 seed)
{
  const gchar *field_names[] = { "all", "top", "bottom" };
  gchar *caps_str, *props, *what;
  GstHarness *hn;
  GstVideoInfo info;
  GstCaps *caps;
  GstBuffer **in = g_new0 (GstBuffer *, n);
  guint i, k, n_out = fields == 0 ? 2 : 1, got = 0;
  gboolean ok = TRUE;
  GstClockTime dur = GST_SECOND / 25;

  caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1,interlace-mode=interleaved%s", format, w, h,
      order == ORDER_CAPS_BFF ? ",field-order=bottom-field-first" :
      order == ORDER_FLAGS ? "" : ",field-order=top-field-first");
  props = g_strdup_printf ("method=%s fields=%s spatial-check=%d%s",
      method_names[method], field_names[fields], sc,
      order == ORDER_PROPERTY_BFF ? " tff=bff" : "");
  what = g_strdup_printf ("%s %dx%d %s %s %s", format, w, h, props,
      order_names[order], natural ? "natural" : "random");
  caps = gst_caps_from_string (caps_str);
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  hn = new_harness (props, caps_str);
  for (i = 0; i < n; i++) {
    in[i] = make_frame (&info, i, natural, seed);
    GST_BUFFER_PTS (in[i]) = i * dur;
    GST_BUFFER_DURATION (in[i]) = dur;
    if (order == ORDER_FLAGS) {
      /* per-frame field order: flagged BFF, TFF, and unflagged (TFF) */
      if (i % 3 != 2)
        GST_BUFFER_FLAG_SET (in[i], GST_VIDEO_BUFFER_FLAG_INTERLACED);
      if (i % 3 == 1)
        GST_BUFFER_FLAG_SET (in[i], GST_VIDEO_BUFFER_FLAG_TFF);
    }
    fail_unless_equals_int (gst_harness_push (hn, gst_buffer_ref (in[i])),
        GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (hn, gst_event_new_eos ()));

  for (i = 0; i < n && ok; i++) {
    gint tff;

    switch (order) {
      case ORDER_CAPS_TFF:
        tff = 1;
        break;
      case ORDER_CAPS_BFF:
      case ORDER_PROPERTY_BFF:
        tff = 0;
        break;
      default:
        tff = i % 3 != 0;
        break;
    }
    for (k = 0; k < n_out && ok; k++) {
      GstBuffer *out = gst_harness_try_pull (hn);
      GstVideoFrame fp, fc, fn, fo;
      CfxDeintField f;
      gchar *w2;

      if (!out) {
        g_print ("%s: output %u of frame %u missing\n", what, k, i);
        ok = FALSE;
        break;
      }
      got++;
      f.method = method;
      f.tff = tff;
      f.spatial_check = sc;
      f.parity = fields == 1 ? 0 : fields == 2 ? 1 : tff ^ (k == 0);
      f.intra_only = method == CFX_DEINT_BWDIF && ((i == 0 && k == 0)
          || (fields == 0 && i == n - 1 && k == 1));
      if (GST_BUFFER_PTS (out) != i * dur + k * dur / n_out
          || GST_BUFFER_DURATION (out) != dur / n_out) {
        g_print ("%s: output %u of frame %u: pts %" GST_TIME_FORMAT
            " duration %" GST_TIME_FORMAT "\n", what, k, i,
            GST_TIME_ARGS (GST_BUFFER_PTS (out)),
            GST_TIME_ARGS (GST_BUFFER_DURATION (out)));
        ok = FALSE;
      }
      if (GST_BUFFER_FLAG_IS_SET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED)) {
        g_print ("%s: output still flagged interlaced\n", what);
        ok = FALSE;
      }
      gst_video_frame_map (&fp, &info, in[i > 0 ? i - 1 : 0], GST_MAP_READ);
      gst_video_frame_map (&fc, &info, in[i], GST_MAP_READ);
      gst_video_frame_map (&fn, &info, in[i + 1 < n ? i + 1 : n - 1],
          GST_MAP_READ);
      fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
      w2 = g_strdup_printf ("%s frame %u field %u", what, i, k);
      ok &= GST_VIDEO_INFO_COMP_DEPTH (&info, 0) > 8 ?
          check_frame16 (&fo, &fp, &fc, &fn, &f, w2) :
          check_frame (&fo, &fp, &fc, &fn, &f, w2);
      g_free (w2);
      gst_video_frame_unmap (&fo);
      gst_video_frame_unmap (&fn);
      gst_video_frame_unmap (&fc);
      gst_video_frame_unmap (&fp);
      gst_buffer_unref (out);
    }
  }
  if (ok && gst_harness_buffers_in_queue (hn) != 0) {
    g_print ("%s: %u outputs too many\n", what,
        gst_harness_buffers_in_queue (hn));
    ok = FALSE;
  }

  for (i = 0; i < n; i++)
    gst_buffer_unref (in[i]);
  g_free (in);
  gst_harness_teardown (hn);
  g_free (caps_str);
  g_free (props);
  g_free (what);
  return ok;
}

GST_START_TEST (test_element_every_format)
{
  /* 6x8: the smallest frame bwdif takes in every format (4:2:0 chroma
   * 3x4); odd sizes; SD */
  const struct
  {
    gint w, h;
  } sizes[] = { {6, 8}, {33, 17}, {720, 576} };
  gboolean ok = TRUE;
  guint f, s, m, variant = 0;

  for (f = 0; formats[f]; f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (m = 0; m < 4; m++) {
        gint fields = variant % 3;
        OrderSource order = (OrderSource) ((variant / 3) % 4);
        /* m is variant % 4: take the next bits, so that every method
         * meets both spatial-check settings and both kinds of content */
        gboolean spatial_check = (variant / 4) & 1;
        gboolean natural = (variant / 8) & 1;

        variant++;
        ok &= element_stream (formats[f], sizes[s].w, sizes[s].h, m, fields,
            order, spatial_check, natural, 5, variant);
      }
  fail_unless (ok);
}

GST_END_TEST;

/* 10 to 16-bit formats, random words (unused bits included): 6x14 is the
 * smallest 4:2:0 frame two-byte bwdif takes (chroma 3x7) */
GST_START_TEST (test_element_16bit_formats)
{
  static const gchar *formats16[] = { "I420_10LE", "P010_10LE", "P012_LE",
    "P016_LE", "I422_10LE", "Y444_12LE", "Y444_16LE", "GRAY16_LE", NULL
  };
  const struct
  {
    gint w, h;
  } sizes[] = { {6, 14}, {33, 17}, {720, 576} };
  gboolean ok = TRUE;
  guint f, s, m, variant = 0;

  for (f = 0; formats16[f]; f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (m = 0; m < 4; m++) {
        variant++;
        ok &= element_stream (formats16[f], sizes[s].w, sizes[s].h, m,
            variant % 3, (OrderSource) ((variant / 3) % 4), (variant / 4) & 1,
            FALSE, 5, 1000 + variant);
      }
  ok &= element_stream ("P010_10LE", 1920, 1080, CFX_DEINT_BWDIF, 0,
      ORDER_CAPS_TFF, TRUE, FALSE, 3, 7);
  /* yadif's two-column steps (I420_10LE) and twins (P010's UV) over
   * frames of many strips */
  ok &= element_stream ("P010_10LE", 1920, 1080, CFX_DEINT_YADIF, 1,
      ORDER_CAPS_TFF, TRUE, FALSE, 3, 8);
  ok &= element_stream ("I420_10LE", 1921, 1081, CFX_DEINT_YADIF, 0,
      ORDER_CAPS_BFF, FALSE, FALSE, 3, 9);
  fail_unless (ok);
}

GST_END_TEST;

GST_START_TEST (test_element_full_hd)
{
  gboolean ok = TRUE;

  ok &= element_stream ("UYVY", 1920, 1080, CFX_DEINT_BWDIF, 0,
      ORDER_CAPS_TFF, TRUE, TRUE, 4, 1);
  ok &= element_stream ("I420", 1920, 1080, CFX_DEINT_YADIF, 0,
      ORDER_CAPS_BFF, TRUE, TRUE, 4, 2);
  ok &= element_stream ("NV12", 1920, 1080, CFX_DEINT_BWDIF, 2,
      ORDER_FLAGS, TRUE, FALSE, 3, 3);
  ok &= element_stream ("YUY2", 720, 576, CFX_DEINT_YADIF, 1,
      ORDER_PROPERTY_BFF, FALSE, TRUE, 4, 4);
  fail_unless (ok);
}

GST_END_TEST;

/* ---- 3. stream semantics -------------------------------------------------- */

#define SEM_CAPS "video/x-raw,format=I420,width=64,height=48,framerate=25/1," \
  "interlace-mode=interleaved,field-order=top-field-first"

static GstVideoInfo sem_info;

static GstBuffer *
sem_frame (guint i, GstClockTime pts, GstClockTime dur)
{
  GstBuffer *b = make_frame (&sem_info, i, i & 1, 777);

  GST_BUFFER_PTS (b) = pts;
  GST_BUFFER_DURATION (b) = dur;
  return b;
}

static void
sem_setup (void)
{
  GstCaps *caps = gst_caps_from_string (SEM_CAPS);
  gst_video_info_from_caps (&sem_info, caps);
  gst_caps_unref (caps);
}

/* Checks @out against the reference with explicit P, C, N (bwdif TFF) */
static gboolean
sem_check (GstBuffer * out, GstBuffer * p, GstBuffer * c, GstBuffer * n,
    gint k, gboolean intra, const gchar * what)
{
  GstVideoFrame fp, fc, fn, fo;
  CfxDeintField f = { CFX_DEINT_BWDIF, 1 ^ (k == 0), 1, 1, intra };
  gboolean ok;

  gst_video_frame_map (&fp, &sem_info, p, GST_MAP_READ);
  gst_video_frame_map (&fc, &sem_info, c, GST_MAP_READ);
  gst_video_frame_map (&fn, &sem_info, n, GST_MAP_READ);
  gst_video_frame_map (&fo, &sem_info, out, GST_MAP_READ);
  ok = check_frame (&fo, &fp, &fc, &fn, &f, what);
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fn);
  gst_video_frame_unmap (&fc);
  gst_video_frame_unmap (&fp);
  return ok;
}

/* Another value of the enum property @name than @current */
static gint
other_enum_value (GstElement * e, const gchar * name, gint current)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GEnumClass *klass = G_PARAM_SPEC_ENUM (ps)->enum_class;
  guint i;

  for (i = 0; i < klass->n_values; i++)
    if (klass->values[i].value != current)
      return klass->values[i].value;
  return current;
}

/* fields and mode change the caps: while the element runs a new value is
 * ignored with a warning and the value read back is the one in effect; the
 * value it has passes quietly */
GST_START_TEST (test_fields_mode_while_running)
{
  const gchar *names[] = { "fields", "mode" };
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstElement *d;
  guint i;

  sem_setup ();
  h = new_harness (NULL, SEM_CAPS);
  gst_element_set_bus (h->element, bus);
  d = gst_harness_find_element (h, "cudadeinterlace");
  fail_unless (d != NULL);
  fail_unless_equals_int (gst_harness_push (h, sem_frame (0, 0,
              40 * GST_MSECOND)), GST_FLOW_OK);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gint before = -1, after = -1;
    GstMessage *msg;

    g_object_get (d, names[i], &before, NULL);
    g_object_set (d, names[i], before, NULL);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    fail_unless (msg == NULL, "%s set to its value: a warning", names[i]);
    g_object_set (d, names[i], other_enum_value (d, names[i], before), NULL);
    g_object_get (d, names[i], &after, NULL);
    fail_unless_equals_int (after, before);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL, "%s changed while running: no warning",
        names[i]);
    gst_message_unref (msg);
  }
  /* stopped (READY), the change takes */
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gint before = -1, after = -1, other;

    g_object_get (d, names[i], &before, NULL);
    other = other_enum_value (d, names[i], before);
    g_object_set (d, names[i], other, NULL);
    g_object_get (d, names[i], &after, NULL);
    fail_unless_equals_int (after, other);
  }
  gst_object_unref (d);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GST_END_TEST;

GST_START_TEST (test_timestamps_and_counts)
{
  GstHarness *h;
  guint i, n = 6;
  GstClockTime last = GST_CLOCK_TIME_NONE;
  GstCaps *caps;
  gint fps_n, fps_d;

  sem_setup ();
  /* durations from the buffers */
  h = new_harness (NULL, SEM_CAPS);
  for (i = 0; i < n; i++) {
    fail_unless_equals_int (gst_harness_push (h, sem_frame (i,
                GST_SECOND + i * 40 * GST_MSECOND, 40 * GST_MSECOND)),
        GST_FLOW_OK);
    /* one frame of look-ahead: nothing for the first, then two each */
    fail_unless_equals_int (gst_harness_buffers_received (h),
        i == 0 ? 0 : 2 * i);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 2 * n);
  for (i = 0; i < 2 * n; i++) {
    GstBuffer *b = gst_harness_pull (h);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (b),
        GST_SECOND + i * 20 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), 20 * GST_MSECOND);
    fail_unless (!GST_CLOCK_TIME_IS_VALID (last) || GST_BUFFER_PTS (b) > last);
    last = GST_BUFFER_PTS (b);
    gst_buffer_unref (b);
  }
  /* the output caps: progressive, doubled rate, no field order */
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "interlace-mode"), "progressive");
  fail_unless (!gst_structure_has_field (gst_caps_get_structure (caps, 0),
          "field-order"));
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 50);
  fail_unless_equals_int (fps_d, 1);
  gst_caps_unref (caps);
  gst_harness_teardown (h);

  /* no durations: the next PTS minus this one, the last from the caps
   * framerate; irregular spacing */
  h = new_harness (NULL, SEM_CAPS);
  {
    const GstClockTime pts[] = { 0, 40, 100, 140 };
    const GstClockTime want[] = { 0, 20, 40, 70, 100, 120, 140, 160 };

    for (i = 0; i < G_N_ELEMENTS (pts); i++)
      fail_unless_equals_int (gst_harness_push (h, sem_frame (i,
                  pts[i] * GST_MSECOND, GST_CLOCK_TIME_NONE)), GST_FLOW_OK);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    fail_unless_equals_int (gst_harness_buffers_received (h), 8);
    for (i = 0; i < 8; i++) {
      GstBuffer *b = gst_harness_pull (h);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (b), want[i] * GST_MSECOND);
      fail_unless_equals_uint64 (GST_BUFFER_DURATION (b),
          (i + 1 < 8 ? want[i + 1] - want[i] : 20) * GST_MSECOND);
      gst_buffer_unref (b);
    }
  }
  gst_harness_teardown (h);

  /* frame rate: one output per input, same timestamps */
  h = new_harness ("fields=top", SEM_CAPS);
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (h, sem_frame (i,
                i * 40 * GST_MSECOND, 40 * GST_MSECOND)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  for (i = 0; i < 3; i++) {
    GstBuffer *b = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), i * 40 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), 40 * GST_MSECOND);
    gst_buffer_unref (b);
  }
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 25);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* EOS drains the last frame with itself as next; a single frame gives two
 * outputs */
GST_START_TEST (test_eos_drain)
{
  GstHarness *h;
  GstBuffer *f[2], *out;

  sem_setup ();
  h = new_harness (NULL, SEM_CAPS);
  f[0] = sem_frame (0, 0, 40 * GST_MSECOND);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (f[0])),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  /* the only frame: both fields intra (first and last of the stream) */
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[0], f[0], 0, TRUE, "single 0"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[0], f[0], 1, TRUE, "single 1"));
  gst_buffer_unref (out);
  gst_buffer_unref (f[0]);
  gst_harness_teardown (h);

  /* two frames: the last one's second field is intra, its first is not */
  h = new_harness (NULL, SEM_CAPS);
  f[0] = sem_frame (0, 0, 40 * GST_MSECOND);
  f[1] = sem_frame (1, 40 * GST_MSECOND, 40 * GST_MSECOND);
  gst_harness_push (h, gst_buffer_ref (f[0]));
  gst_harness_push (h, gst_buffer_ref (f[1]));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[0], f[1], 0, TRUE, "pair 0/0"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[0], f[1], 1, FALSE, "pair 0/1"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[1], f[1], 0, FALSE, "pair 1/0"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[1], f[1], 1, TRUE, "pair 1/1"));
  gst_buffer_unref (out);
  gst_buffer_unref (f[0]);
  gst_buffer_unref (f[1]);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_flush_resets_history)
{
  GstHarness *h;
  GstBuffer *a[3], *b[2], *out;
  GstSegment seg;
  guint i;

  sem_setup ();
  h = new_harness (NULL, SEM_CAPS);
  for (i = 0; i < 3; i++) {
    a[i] = sem_frame (i, i * 40 * GST_MSECOND, 40 * GST_MSECOND);
    gst_harness_push (h, gst_buffer_ref (a[i]));
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  /* the pending third frame is dropped by the flush */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  while ((out = gst_harness_try_pull (h)))
    gst_buffer_unref (out);

  for (i = 0; i < 2; i++) {
    b[i] = sem_frame (10 + i, (10 + i) * 40 * GST_MSECOND, 40 * GST_MSECOND);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (b[i])),
        GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  /* a fresh stream: b0's previous frame is itself, first field intra */
  out = gst_harness_pull (h);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 400 * GST_MSECOND);
  fail_unless (sem_check (out, b[0], b[0], b[1], 0, TRUE, "flush b0/0"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, b[0], b[0], b[1], 1, FALSE, "flush b0/1"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, b[0], b[1], b[1], 0, FALSE, "flush b1/0"));
  gst_buffer_unref (out);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, b[0], b[1], b[1], 1, TRUE, "flush b1/1"));
  gst_buffer_unref (out);
  fail_unless (gst_harness_try_pull (h) == NULL);

  for (i = 0; i < 3; i++)
    gst_buffer_unref (a[i]);
  for (i = 0; i < 2; i++)
    gst_buffer_unref (b[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A DISCONT buffer: the pending frame is drained as the end of its stream,
 * the DISCONT frame starts a new one */
GST_START_TEST (test_discont_resets_history)
{
  GstHarness *h;
  GstBuffer *a[2], *b[2], *out[8];
  guint i;

  sem_setup ();
  h = new_harness (NULL, SEM_CAPS);
  a[0] = sem_frame (0, 0, 40 * GST_MSECOND);
  a[1] = sem_frame (1, 40 * GST_MSECOND, 40 * GST_MSECOND);
  b[0] = sem_frame (2, GST_SECOND, 40 * GST_MSECOND);
  b[1] = sem_frame (3, GST_SECOND + 40 * GST_MSECOND, 40 * GST_MSECOND);
  GST_BUFFER_FLAG_SET (b[0], GST_BUFFER_FLAG_DISCONT);
  gst_harness_push (h, gst_buffer_ref (a[0]));
  gst_harness_push (h, gst_buffer_ref (a[1]));
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  gst_harness_push (h, gst_buffer_ref (b[0]));
  /* a1 drained by the discontinuity */
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  gst_harness_push (h, gst_buffer_ref (b[1]));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 8);
  for (i = 0; i < 8; i++)
    out[i] = gst_harness_pull (h);

  fail_unless (sem_check (out[0], a[0], a[0], a[1], 0, TRUE, "a0/0"));
  fail_unless (sem_check (out[1], a[0], a[0], a[1], 1, FALSE, "a0/1"));
  fail_unless (sem_check (out[2], a[0], a[1], a[1], 0, FALSE, "a1/0"));
  fail_unless (sem_check (out[3], a[0], a[1], a[1], 1, TRUE, "a1/1"));
  fail_unless (sem_check (out[4], b[0], b[0], b[1], 0, TRUE, "b0/0"));
  fail_unless (sem_check (out[5], b[0], b[0], b[1], 1, FALSE, "b0/1"));
  fail_unless (sem_check (out[6], b[0], b[1], b[1], 0, FALSE, "b1/0"));
  fail_unless (sem_check (out[7], b[0], b[1], b[1], 1, TRUE, "b1/1"));
  /* the discontinuity is marked on the new stream's first output, not on
   * the drained frame's (out[0], the very first, may carry one or not) */
  for (i = 1; i < 8; i++)
    fail_unless ((GST_BUFFER_IS_DISCONT (out[i]) ? 1 : 0) == (i == 4),
        "output %u: discont flag wrong", i);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out[3]), 60 * GST_MSECOND);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out[4]), GST_SECOND);

  for (i = 0; i < 8; i++)
    gst_buffer_unref (out[i]);
  for (i = 0; i < 2; i++) {
    gst_buffer_unref (a[i]);
    gst_buffer_unref (b[i]);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Mixed: unflagged frames pass through once and stay in the history */
GST_START_TEST (test_mixed_content)
{
  GstHarness *h;
  GstBuffer *f[4], *out[7];
  GstVideoFrame a, b;
  guint i;

  sem_setup ();
  h = new_harness (NULL, "video/x-raw,format=I420,width=64,height=48,"
      "framerate=25/1,interlace-mode=mixed");
  for (i = 0; i < 4; i++) {
    f[i] = sem_frame (i, i * 40 * GST_MSECOND, 40 * GST_MSECOND);
    if (i != 1)
      GST_BUFFER_FLAG_SET (f[i], GST_VIDEO_BUFFER_FLAG_INTERLACED |
          GST_VIDEO_BUFFER_FLAG_TFF);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (f[i])),
        GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 7);
  for (i = 0; i < 7; i++)
    out[i] = gst_harness_pull (h);

  fail_unless (sem_check (out[0], f[0], f[0], f[1], 0, TRUE, "mixed 0/0"));
  fail_unless (sem_check (out[1], f[0], f[0], f[1], 1, FALSE, "mixed 0/1"));
  /* the progressive frame, as it came */
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out[2]), 40 * GST_MSECOND);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out[2]), 40 * GST_MSECOND);
  gst_video_frame_map (&a, &sem_info, f[1], GST_MAP_READ);
  gst_video_frame_map (&b, &sem_info, out[2], GST_MAP_READ);
  fail_unless (cfx_test_frames_equal (&a, &b, "mixed progressive"));
  gst_video_frame_unmap (&b);
  gst_video_frame_unmap (&a);
  /* and it is the previous frame of the next interlaced one */
  fail_unless (sem_check (out[3], f[1], f[2], f[3], 0, FALSE, "mixed 2/0"));
  fail_unless (sem_check (out[4], f[1], f[2], f[3], 1, FALSE, "mixed 2/1"));
  fail_unless (sem_check (out[5], f[2], f[3], f[3], 0, FALSE, "mixed 3/0"));
  fail_unless (sem_check (out[6], f[2], f[3], f[3], 1, TRUE, "mixed 3/1"));
  for (i = 0; i + 1 < 7; i++)
    fail_unless (GST_BUFFER_PTS (out[i]) < GST_BUFFER_PTS (out[i + 1]));

  for (i = 0; i < 7; i++)
    gst_buffer_unref (out[i]);
  for (i = 0; i < 4; i++)
    gst_buffer_unref (f[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Progressive caps pass through untouched in auto mode; mode=interlaced
 * deinterlaces them (as TFF) */
GST_START_TEST (test_progressive_modes)
{
  GstHarness *h;
  GstBuffer *f[2], *out;
  GstVideoFrame a, b;
  const gchar *prog = "video/x-raw,format=I420,width=64,height=48,"
      "framerate=25/1";

  sem_setup ();
  h = new_harness (NULL, prog);
  f[0] = sem_frame (0, 0, 40 * GST_MSECOND);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (f[0])),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  out = gst_harness_pull (h);
  gst_video_frame_map (&a, &sem_info, f[0], GST_MAP_READ);
  gst_video_frame_map (&b, &sem_info, out, GST_MAP_READ);
  fail_unless (cfx_test_frames_equal (&a, &b, "progressive passthrough"));
  gst_video_frame_unmap (&b);
  gst_video_frame_unmap (&a);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  h = new_harness ("mode=interlaced", prog);
  f[1] = sem_frame (1, 40 * GST_MSECOND, 40 * GST_MSECOND);
  gst_harness_push (h, gst_buffer_ref (f[0]));
  gst_harness_push (h, gst_buffer_ref (f[1]));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  out = gst_harness_pull (h);
  fail_unless (sem_check (out, f[0], f[0], f[1], 0, TRUE, "forced 0/0"));
  gst_buffer_unref (out);
  while ((out = gst_harness_try_pull (h)))
    gst_buffer_unref (out);
  gst_harness_teardown (h);

  h = new_harness ("mode=disabled", SEM_CAPS);
  gst_harness_push (h, gst_buffer_ref (f[0]));
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  gst_harness_teardown (h);

  gst_buffer_unref (f[0]);
  gst_buffer_unref (f[1]);
}

GST_END_TEST;

GST_START_TEST (test_latency_query)
{
  GstHarness *h;

  sem_setup ();
  h = new_harness (NULL, SEM_CAPS);
  gst_harness_set_upstream_latency (h, 10 * GST_MSECOND);
  gst_harness_push (h, sem_frame (0, 0, 40 * GST_MSECOND));
  /* one input frame (25/1) of look-ahead */
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 50 * GST_MSECOND);
  gst_harness_teardown (h);

  /* passthrough adds nothing */
  h = new_harness (NULL, "video/x-raw,format=I420,width=64,height=48,"
      "framerate=25/1");
  gst_harness_set_upstream_latency (h, 10 * GST_MSECOND);
  gst_harness_push (h, sem_frame (0, 0, 40 * GST_MSECOND));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 10 * GST_MSECOND);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_metas_on_first_output_only)
{
  GstHarness *h;
  GstBuffer *f[2], *out;
  const guint8 cc[] = { 0xfc, 0x94, 0x20 };
  guint i;

  sem_setup ();
  h = new_harness (NULL, SEM_CAPS);
  for (i = 0; i < 2; i++) {
    f[i] = sem_frame (i, i * 40 * GST_MSECOND, 40 * GST_MSECOND);
    gst_buffer_add_video_time_code_meta_full (f[i], 25, 1, NULL,
        GST_VIDEO_TIME_CODE_FLAGS_NONE, 10, 0, 0, i, 0);
    gst_buffer_add_video_caption_meta (f[i], GST_VIDEO_CAPTION_TYPE_CEA708_CDP,
        cc, sizeof (cc));
    gst_harness_push (h, f[i]);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  for (i = 0; i < 4; i++) {
    GstVideoTimeCodeMeta *tc;

    out = gst_harness_pull (h);
    tc = gst_buffer_get_video_time_code_meta (out);
    if (i % 2 == 0) {
      fail_unless (tc != NULL, "output %u lost its time code", i);
      fail_unless_equals_int (tc->tc.frames, i / 2);
      fail_unless (gst_buffer_get_video_caption_meta (out) != NULL);
    } else {
      fail_unless (tc == NULL, "output %u repeats the time code", i);
      fail_unless (gst_buffer_get_video_caption_meta (out) == NULL);
    }
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Refusals at caps time: the caps event fails, pushing gives
 * not-negotiated, and, with @needle, the bus a clear error (NULL: refused
 * by the pad before the element sees the caps, as alternate is) */
static void
expect_refusal (const gchar * props, const gchar * caps_str,
    const gchar * needle)
{
  gchar *launch = g_strdup_printf ("cudadeinterlace %s", props);
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = gst_bus_new ();
  GstElement *e = gst_harness_find_element (h, "cudadeinterlace");
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstVideoInfo info;
  GstBuffer *buf;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  gst_element_set_bus (e, bus);
  /* (not gst_harness_set_src_caps: it asserts that the caps are taken).
   * A refused sticky event still returns TRUE from gst_pad_push_event
   * (GStreamer leaves the error to the data flow), so the refusal shows in
   * the accept-caps answer and the not-negotiated push below. */
  gst_pad_push_event (h->srcpad, gst_event_new_stream_start ("refusal"));
  gst_pad_push_event (h->srcpad, gst_event_new_caps (caps));
  {
    GstSegment segment;

    gst_segment_init (&segment, GST_FORMAT_TIME);
    gst_pad_push_event (h->srcpad, gst_event_new_segment (&segment));
  }
  if (!needle) {
    GstPad *sink = gst_element_get_static_pad (e, "sink");

    fail_if (gst_pad_query_accept_caps (sink, caps), "%s accepted", caps_str);
    gst_object_unref (sink);
  }
  /* a device buffer of the caps' size (it must not be looked at) */
  gst_video_info_init (&info);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  buf = cfx_test_random_frame (&info, 1);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_NOT_NEGOTIATED);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (needle) {
    fail_unless (msg != NULL, "no error message for %s", caps_str);
    gst_message_parse_error (msg, &err, &dbg);
    fail_unless (strstr (err->message, needle) != NULL, "message '%s' lacks "
        "'%s'", err->message, needle);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  } else if (msg) {
    gst_message_unref (msg);
  }
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_START_TEST (test_refusals)
{
  /* one field per buffer: refused at negotiation (the templates carry
   * memory:CUDAFxMemory only); test-deinterlace-cpu checks the message
   * set_caps gives should such caps be set anyway */
  expect_refusal ("", "video/x-raw(memory:CUDAFxMemory,format:Interlaced),"
      "format=I420,width=64,height=48,framerate=25/1,"
      "interlace-mode=alternate", NULL);
  expect_refusal ("mode=interlaced", "video/x-raw(memory:CUDAFxMemory),"
      "format=I420,width=64,height=48,framerate=25/1,"
      "interlace-mode=alternate", NULL);
  /* I420 4x8: chroma planes 2 wide, below bwdif's 3 */
  expect_refusal ("", "video/x-raw(memory:CUDAFxMemory),format=I420,"
      "width=4,height=8,framerate=25/1,interlace-mode=interleaved",
      "too small");
  /* yadif: I420 6x4 has 3x2 chroma planes */
  expect_refusal ("method=yadif", "video/x-raw(memory:CUDAFxMemory),"
      "format=I420,width=6,height=4,framerate=25/1,"
      "interlace-mode=interleaved", "too small");
}

GST_END_TEST;

static Suite *
deinterlace_suite (void)
{
  Suite *s = suite_create ("cudadeinterlace (GPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 900);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_kernel_methods_layouts_sizes);
  tcase_add_test (tc, test_kernel_full_hd_multi_plane);
  tcase_add_test (tc, test_kernel_refuses_small_planes);
  tcase_add_test (tc, test_element_every_format);
  tcase_add_test (tc, test_element_full_hd);
  tcase_add_test (tc, test_element_16bit_formats);
  tcase_add_test (tc, test_timestamps_and_counts);
  tcase_add_test (tc, test_eos_drain);
  tcase_add_test (tc, test_flush_resets_history);
  tcase_add_test (tc, test_discont_resets_history);
  tcase_add_test (tc, test_mixed_content);
  tcase_add_test (tc, test_progressive_modes);
  tcase_add_test (tc, test_latency_query);
  tcase_add_test (tc, test_metas_on_first_output_only);
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_fields_mode_while_running);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "deinterlace", deinterlace_suite);
}
