/* GPU suite for cudadeinterlace method=mc: every output sample bit-exact
 * against the CPU reference cfx_ref_deinterlace_mc
 * (tests/reference/deinterlace-mc.c).
 *
 *  1. The kernels (cfx_deinterlace_mc) on device planes of I420 at 8 and
 *     10 bits: poisoned outputs (two poisons, one result: every sample is
 *     written), odd pitches, odd and even sizes, a clip of calls that
 *     keeps its field images by key from one call to the next.
 *  2. The element (cudafxupload ! cudadeinterlace method=mc !
 *     cudafxdownload) in every format cudadeinterlace takes (planar,
 *     semi-planar, packed 4:2:2, gray; 8, 10, 12 and 16 bits), fields all,
 *     top and bottom, both field orders, the stream's first and last
 *     frames (no previous / next side), on clips:
 *       pan_int   whole-sample pan (3 px across, 2 rows down a field)
 *       pan_sub   sub-sample pan (0.75 px across, 0.4 rows down a field)
 *       still     the same picture throughout (woven: the reference's own
 *                 claim is checked too)
 *       cut       another picture, moving otherwise, from frame 3 on (the
 *                 reference marks a side a cut: checked)
 *       random    random samples (no motion to find)
 *     the pictures being a procedural "natural" canvas (smooth shading,
 *     fine texture, a disc with an edge), evaluated at the moved
 *     coordinates of each field's instant and woven tinterlace-style. On
 *     the pans the reference's output must differ from bwdif's (else the
 *     clip would not test the motion-compensated path).
 *  3. Flush: a new stream after a flush is the reference's on its own
 *     frames (no field image from before it is used); the latency query
 *     reports bwdif's one frame of look-ahead. */
#include "cfx-test.h"
#include "cfx-reference.h"
#include "deinterlace-mc.h"
#include "cudafx-kernels.h"

#include <gst/cudafx.h>
#include <math.h>
#include <string.h>

typedef enum
{
  CLIP_PAN_INT,
  CLIP_PAN_SUB,
  CLIP_STILL,
  CLIP_CUT,
  CLIP_RANDOM,
} Clip;

static const gchar *clip_names[] = { "pan_int", "pan_sub", "still", "cut",
  "random"
};

#define CUT_FRAME 3

/* ---- pictures ---------------------------------------------------------- */

/* A picture on an unbounded canvas, 0..255: smooth shading, texture down
 * to a few samples, a bright disc with a sharp edge */
static double
canvas (double x, double y, int seed)
{
  double s = seed * 1.3, dx, dy;
  double v = 118 + 45 * sin (0.071 * x + 0.043 * y + s) * cos (0.037 * x -
      0.061 * y) + 22 * sin (0.53 * x + 0.29 * y + 2 * s) +
      14 * sin (0.97 * y - 0.41 * x + s) + 9 * cos (1.7 * x + 2.3 * y + 3 * s);

  dx = x - 40 - 11 * seed;
  dy = y - 30;
  if (dx * dx + dy * dy < 14 * 14)
    v = 225 - 20 * sin (0.8 * x);
  return v;
}

/* The value of component @c at (x, y) (its own samples; @sub_x, @sub_y:
 * luma samples per sample) of the picture at field instant @tau */
static int
clip_value (Clip clip, int c, int x, int y, int sub_x, int sub_y, int tau,
    int frame, int max)
{
  double vx = 0, vy = 0, v;
  int seed = c;

  switch (clip) {
    case CLIP_PAN_INT:
      vx = 3;
      vy = 2;
      break;
    case CLIP_PAN_SUB:
      vx = 0.75;
      vy = 0.4;
      break;
    case CLIP_CUT:
      vx = 1.5;
      vy = 1;
      break;
    default:
      break;
  }
  if (clip == CLIP_CUT && frame >= CUT_FRAME)
    /* another picture: the canvas turned and scaled, other phases */
    v = canvas (1.9 * (y * sub_y + vy * tau) + 13, 0.55 * (x * sub_x + vx *
            tau) - 7, seed + 5);
  else
    v = canvas (x * sub_x + vx * tau, y * sub_y + vy * tau, seed);
  v = floor (v * max / 255.0 + 0.5);
  return (int) CLAMP (v, 0, max);
}

/* Component @c of a component layout: byte offset of sample x of row y */
static guint8 *
comp_sample (GstVideoFrame * f, guint c, gint x, gint y)
{
  const GstVideoFormatInfo *finfo = f->info.finfo;
  guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);

  return (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, plane) +
      (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (f, plane) +
      cfx_test_comp_byte_offset (finfo, c) +
      (gsize) x * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
}

/* Frame @i of @clip: random bytes (16-bit words' unused bits stay
 * random), then every component's samples: the top field from the picture
 * at instant 2 i, the bottom one from 2 i + 1 (top field first; the other
 * way round for bottom field first) */
static GstBuffer *
clip_frame (const GstVideoInfo * info, Clip clip, guint i, gboolean tff,
    guint64 seed)
{
  GstBuffer *buf = cfx_test_random_frame (info, seed * 7919 + i);
  const GstVideoFormatInfo *finfo = info->finfo;
  GstVideoFrame f;
  guint c;

  if (clip == CLIP_RANDOM)
    return buf;
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    gint w = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    gint h = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    gint sub_x = (GST_VIDEO_INFO_WIDTH (info) + w - 1) / w;
    gint sub_y = (GST_VIDEO_INFO_HEIGHT (info) + h - 1) / h;
    gint x, y;

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gint tau = 2 * (gint) i + ((y & 1) != (tff ? 0 : 1));
        gint v = clip_value (clip, c, x, y, sub_x, sub_y, tau, i,
            (1 << depth) - 1);
        guint8 *p = comp_sample (&f, c, x, y);

        if (depth == 8) {
          p[0] = (guint8) v;
        } else {
          guint mask = ((1u << depth) - 1) << shift;
          guint word = ((p[0] | p[1] << 8) & ~mask) | ((guint) v << shift);

          p[0] = word & 0xff;
          p[1] = word >> 8;
        }
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* ---- the reference on mapped frames ------------------------------------ */

/* A frame's components as the reference's planes: significant bits, one
 * tight plane each */
typedef struct
{
  CfxRefMcFrame f;
} RefFrame;

static void
ref_frame_init (RefFrame * r, const GstVideoInfo * info)
{
  guint c;
  gint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);

  memset (r, 0, sizeof (*r));
  r->f.n_planes = GST_VIDEO_INFO_N_COMPONENTS (info);
  r->f.depth = depth;
  for (c = 0; c < (guint) r->f.n_planes; c++) {
    r->f.width[c] = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    r->f.height[c] = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    r->f.stride[c] = r->f.width[c];
    r->f.data[c] = g_malloc0 ((gsize) r->f.width[c] * r->f.height[c] *
        (depth > 8 ? 2 : 1));
  }
}

static void
ref_frame_clear (RefFrame * r)
{
  gint c;

  for (c = 0; c < r->f.n_planes; c++)
    g_free (r->f.data[c]);
}

static int
ref_get (const CfxRefMcFrame * f, int c, int x, int y)
{
  gsize o = (gsize) y * f->stride[c] + x;

  return f->depth == 8 ? ((guint8 *) f->data[c])[o] :
      ((guint16 *) f->data[c])[o];
}

/* The significant bits of every component of @buf */
static void
ref_frame_from (RefFrame * r, const GstVideoInfo * info, GstBuffer * buf)
{
  GstVideoFrame f;
  gint c, x, y;

  ref_frame_init (r, info);
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ));
  for (c = 0; c < r->f.n_planes; c++) {
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, c);
    guint mask = (1u << r->f.depth) - 1;

    for (y = 0; y < r->f.height[c]; y++)
      for (x = 0; x < r->f.width[c]; x++) {
        const guint8 *p = comp_sample (&f, c, x, y);
        gsize o = (gsize) y * r->f.stride[c] + x;

        if (r->f.depth == 8)
          ((guint8 *) r->f.data[c])[o] = p[0];
        else
          ((guint16 *) r->f.data[c])[o] = ((p[0] | p[1] << 8) >> shift) &
              mask;
      }
  }
  gst_video_frame_unmap (&f);
}

/* What one output must be, and what the reference decided */
typedef struct
{
  RefFrame want;
  CfxRefMcInfo info;
  gint64 differs_from_bwdif;    /* samples */
} Expect;

static void
expect_output (Expect * e, const GstVideoInfo * info, RefFrame * frames,
    guint n, guint i, gint parity, gint tff, gboolean intra_only)
{
  RefFrame bw;
  gint c, x, y;

  ref_frame_init (&e->want, info);
  ref_frame_init (&bw, info);
  cfx_ref_deinterlace_mc (&e->want.f, i > 0 ? &frames[i - 1].f : NULL,
      &frames[i].f, i + 1 < n ? &frames[i + 1].f : NULL, parity, tff,
      intra_only, &e->info);
  cfx_ref_deinterlace_frame (&bw.f, &frames[i > 0 ? i - 1 : 0].f,
      &frames[i].f, &frames[i + 1 < n ? i + 1 : n - 1].f, parity, tff,
      CFX_REF_DEINT_BWDIF, intra_only);
  e->differs_from_bwdif = 0;
  for (c = 0; c < bw.f.n_planes; c++)
    for (y = 0; y < bw.f.height[c]; y++)
      for (x = 0; x < bw.f.width[c]; x++)
        e->differs_from_bwdif += ref_get (&bw.f, c, x, y) !=
            ref_get (&e->want.f, c, x, y);
  ref_frame_clear (&bw);
}

/* @out's components against @want: every sample, 16-bit words with their
 * unused bits 0 */
static gboolean
check_output (GstBuffer * out, const GstVideoInfo * info, RefFrame * want,
    const gchar * what)
{
  GstVideoFrame f;
  gboolean ok = TRUE;
  gint c, x, y;

  fail_unless (gst_video_frame_map (&f, info, out, GST_MAP_READ));
  for (c = 0; c < want->f.n_planes && ok; c++) {
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, c);

    for (y = 0; y < want->f.height[c] && ok; y++)
      for (x = 0; x < want->f.width[c] && ok; x++) {
        const guint8 *p = comp_sample (&f, c, x, y);
        guint got = want->f.depth == 8 ? p[0] : (guint) (p[0] | p[1] << 8);
        guint exp = (guint) ref_get (&want->f, c, x, y) <<
            (want->f.depth == 8 ? 0 : shift);

        if (got != exp) {
          g_print ("%s: component %d at %d,%d (row parity %d) is %u, the "
              "reference's %u\n", what, c, x, y, y & 1, got, exp);
          ok = FALSE;
        }
      }
  }
  gst_video_frame_unmap (&f);
  return ok;
}

/* ---- 1. the kernels on device planes ----------------------------------- */

/* One I420 frame in device memory: 3 planes at an odd pitch (byte
 * pitches of odd sample counts), 8 or 16-bit */
typedef struct
{
  guint8 *dev;
  gsize bytes;
  CfxPlane comp[3];
} DevFrame;

static void
dev_frame_init (DevFrame * d, gint w, gint h, gint depth)
{
  gint bps = depth > 8 ? 2 : 1, c;
  gsize off = 0;

  memset (d, 0, sizeof (*d));
  for (c = 0; c < 3; c++) {
    CfxPlane *p = &d->comp[c];

    p->width = c ? (w + 1) / 2 : w;
    p->height = c ? (h + 1) / 2 : h;
    p->pitch = (p->width + 5) * bps;
    p->bytes = bps;
    p->depth = depth;
    p->shift = 0;
    p->step = bps;
    p->offset = 0;
    off += (gsize) p->pitch * p->height + 64;
  }
  d->bytes = off;
  fail_unless_equals_int (cudaMalloc ((void **) &d->dev, d->bytes),
      cudaSuccess);
  off = 0;
  for (c = 0; c < 3; c++) {
    /* odd byte starts for 8-bit planes (no 4-byte alignment) */
    d->comp[c].data = d->dev + off + (bps == 1 ? 1 : 2);
    off += (gsize) d->comp[c].pitch * d->comp[c].height + 64;
  }
}

static void
dev_frame_upload (DevFrame * d, const CfxRefMcFrame * f)
{
  gint c, bps = f->depth > 8 ? 2 : 1;

  for (c = 0; c < 3; c++)
    fail_unless_equals_int (cudaMemcpy2D (d->comp[c].data, d->comp[c].pitch,
            f->data[c], (gsize) f->stride[c] * bps, (gsize) f->width[c] * bps,
            f->height[c], cudaMemcpyHostToDevice), cudaSuccess);
}

/* @want against the device frame */
static gboolean
dev_frame_check (DevFrame * d, const CfxRefMcFrame * want, const gchar * what)
{
  gint c, x, y, bps = want->depth > 8 ? 2 : 1;
  gboolean ok = TRUE;

  for (c = 0; c < 3 && ok; c++) {
    CfxPlane *p = &d->comp[c];
    guint8 *host = g_malloc ((gsize) p->pitch * p->height);

    fail_unless_equals_int (cudaMemcpy2D (host, p->pitch, p->data, p->pitch,
            (gsize) p->width * bps, p->height, cudaMemcpyDeviceToHost),
        cudaSuccess);
    for (y = 0; y < p->height && ok; y++)
      for (x = 0; x < p->width && ok; x++) {
        const guint8 *s = host + (gsize) y * p->pitch + (gsize) x * bps;
        gint got = bps == 1 ? s[0] : s[0] | s[1] << 8;

        if (got != ref_get (want, c, x, y)) {
          g_print ("%s: plane %d at %d,%d is %d, the reference's %d\n", what,
              c, x, y, got, ref_get (want, c, x, y));
          ok = FALSE;
        }
      }
    g_free (host);
  }
  return ok;
}

/* A clip of @n frames through cfx_deinterlace_mc, fields all, each output
 * into a poisoned frame (two poisons) */
static gboolean
kernel_clip (gint w, gint h, gint depth, Clip clip, gboolean tff, guint n)
{
  GstVideoInfo info;
  RefFrame *frames = g_new0 (RefFrame, n);
  DevFrame *dev = g_new0 (DevFrame, n), out;
  CfxDeintMc *mc = NULL;
  gboolean ok = TRUE;
  guint i, k, pz;
  gint c, x, y;

  gst_video_info_set_format (&info, depth > 8 ? GST_VIDEO_FORMAT_I420_10LE :
      GST_VIDEO_FORMAT_I420, w, h);
  for (i = 0; i < n; i++) {
    ref_frame_init (&frames[i], &info);
    for (c = 0; c < 3; c++)
      for (y = 0; y < frames[i].f.height[c]; y++)
        for (x = 0; x < frames[i].f.width[c]; x++) {
          gint v = clip_value (clip, c, x, y, c ? 2 : 1, c ? 2 : 1,
              2 * (gint) i + ((y & 1) != (tff ? 0 : 1)), i,
              (1 << depth) - 1);
          gsize o = (gsize) y * frames[i].f.stride[c] + x;

          if (clip == CLIP_RANDOM)
            v = g_random_int_range (0, 1 << depth);
          if (depth == 8)
            ((guint8 *) frames[i].f.data[c])[o] = v;
          else
            ((guint16 *) frames[i].f.data[c])[o] = v;
        }
    dev_frame_init (&dev[i], w, h, depth);
    dev_frame_upload (&dev[i], &frames[i].f);
  }
  dev_frame_init (&out, w, h, depth);
  fail_unless_equals_int (cfx_deint_mc_new (&mc, w, h), cudaSuccess);

  for (i = 0; i < n && ok; i++)
    for (k = 0; k < 2 && ok; k++) {
      CfxDeintComponent comps[3];
      CfxDeintField field;
      CfxDeintMcWindow win;
      Expect e;
      gchar *what;

      field.method = CFX_DEINT_MC;
      field.tff = tff;
      field.parity = tff ^ (k == 0);
      field.spatial_check = 1;
      field.intra_only = (i == 0 && k == 0) || (i == n - 1 && k == 1);
      win.has_prev = i > 0;
      win.has_next = i + 1 < n;
      win.keys[0] = i > 0 ? i - 1 : i;
      win.keys[1] = i;
      win.keys[2] = i + 1 < n ? i + 1 : i;
      win.restart = i == 0 && k == 0;
      for (c = 0; c < 3; c++) {
        comps[c].prev = dev[i > 0 ? i - 1 : i].comp[c];
        comps[c].cur = dev[i].comp[c];
        comps[c].next = dev[i + 1 < n ? i + 1 : i].comp[c];
        comps[c].dst = out.comp[c];
      }
      expect_output (&e, &info, frames, n, i, field.parity, tff,
          field.intra_only);
      what = g_strdup_printf ("kernel %dx%d %d-bit %s %s frame %u field %u",
          w, h, depth, clip_names[clip], tff ? "tff" : "bff", i, k);
      for (pz = 0; pz < 2 && ok; pz++) {
        fail_unless_equals_int (cudaMemset (out.dev, pz ? 0x5a : 0xa5,
                out.bytes), cudaSuccess);
        fail_unless_equals_int (cfx_deinterlace_mc (mc, comps, 3, &field,
                &win, 0), cudaSuccess);
        fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
        ok &= dev_frame_check (&out, &e.want.f, what);
      }
      g_free (what);
      ref_frame_clear (&e.want);
    }

  cfx_deint_mc_free (mc);
  for (i = 0; i < n; i++) {
    ref_frame_clear (&frames[i]);
    cudaFree (dev[i].dev);
  }
  cudaFree (out.dev);
  g_free (frames);
  g_free (dev);
  return ok;
}

GST_START_TEST (test_kernel_clips)
{
  gboolean ok = TRUE;
  Clip clip;

  for (clip = CLIP_PAN_INT; clip <= CLIP_RANDOM; clip++) {
    ok &= kernel_clip (64, 48, 8, clip, TRUE, 5);
    ok &= kernel_clip (97, 71, 8, clip, FALSE, 5);
    ok &= kernel_clip (97, 71, 10, clip, TRUE, 5);
  }
  /* the smallest frames: 6x8 (chroma 3x4), 6x14 two-byte */
  ok &= kernel_clip (6, 8, 8, CLIP_PAN_INT, TRUE, 4);
  ok &= kernel_clip (6, 14, 10, CLIP_PAN_SUB, FALSE, 4);
  fail_unless (ok);
}

GST_END_TEST;

GST_START_TEST (test_kernel_refuses)
{
  CfxDeintMc *mc = NULL;
  DevFrame d;
  CfxDeintComponent comps[3];
  CfxDeintField field = { CFX_DEINT_MC, 0, 1, 1, 0 };
  CfxDeintMcWindow win = { 1, 1, {0, 1, 2}, 1 };
  gint c;

  fail_unless_equals_int (cfx_deint_mc_new (&mc, 0, 8),
      cudaErrorInvalidValue);
  fail_unless (mc == NULL);
  fail_unless_equals_int (cfx_deint_mc_new (&mc, 64, 48), cudaSuccess);
  fail_unless (cfx_deint_mc_bytes (mc) > 0);
  dev_frame_init (&d, 32, 48, 8);
  for (c = 0; c < 3; c++)
    comps[c].prev = comps[c].cur = comps[c].next = comps[c].dst = d.comp[c];
  /* luma not the size the state was made for */
  fail_unless_equals_int (cfx_deinterlace_mc (mc, comps, 3, &field, &win, 0),
      cudaErrorInvalidValue);
  /* method mc through the other entry point */
  fail_unless_equals_int (cfx_deinterlace_frame (comps, 3, &field, 0),
      cudaErrorInvalidValue);
  cfx_deint_mc_free (mc);
  cudaFree (d.dev);
}

GST_END_TEST;

/* ---- 2. the element ---------------------------------------------------- */

static GstHarness *
new_harness (const gchar * props, const gchar * caps_str)
{
  gchar *launch = g_strdup_printf ("cudafxupload ! cudadeinterlace "
      "method=mc %s ! cudafxdownload", props ? props : "");
  GstHarness *h = gst_harness_new_parse (launch);

  g_free (launch);
  gst_harness_set_src_caps_str (h, caps_str);
  return h;
}

/* What the element must have given for frame i of @frames (n of them in
 * the stream), output k; checks the reference covers what the clip is
 * for */
static gboolean
check_stream_output (GstBuffer * out, const GstVideoInfo * info,
    RefFrame * frames, guint n, guint i, guint k, gint fields, gboolean tff,
    Clip clip, const gchar * what, gint64 * mc_samples, gint * cuts)
{
  Expect e;
  gint parity = fields == 1 ? 0 : fields == 2 ? 1 : tff ^ (k == 0);
  gboolean intra_only = (i == 0 && k == 0) || (fields == 0 && i == n - 1
      && k == 1);
  gchar *w = g_strdup_printf ("%s frame %u output %u", what, i, k);
  gboolean ok;

  expect_output (&e, info, frames, n, i, parity, tff, intra_only);
  ok = check_output (out, info, &e.want, w);
  *mc_samples += e.differs_from_bwdif;
  *cuts += e.info.cut[0] + e.info.cut[1];
  if (clip == CLIP_STILL && n > 1) {
    /* woven: the current frame itself */
    gint c, x, y;

    for (c = 0; c < e.want.f.n_planes && ok; c++)
      for (y = 0; y < e.want.f.height[c] && ok; y++)
        for (x = 0; x < e.want.f.width[c] && ok; x++)
          if (ref_get (&e.want.f, c, x, y) != ref_get (&frames[i].f, c, x,
                  y)) {
            g_print ("%s: the reference does not weave the still clip at "
                "%d,%d of component %d\n", w, x, y, c);
            ok = FALSE;
          }
  }
  ref_frame_clear (&e.want);
  g_free (w);
  return ok;
}

/* Pushes @n frames of @clip, EOS, and checks every output; @flush_first:
 * first 3 frames of another clip, pulled and checked, then a flush */
static gboolean
element_stream (const gchar * format, gint w, gint h, Clip clip, gint fields,
    gboolean tff, guint n, gboolean flush_first, guint64 seed)
{
  const gchar *field_names[] = { "all", "top", "bottom" };
  guint n_out = fields == 0 ? 2 : 1, i, k;
  gchar *caps_str, *props, *what;
  GstHarness *hn;
  GstVideoInfo info;
  GstCaps *caps;
  GstClockTime dur = GST_SECOND / 25;
  RefFrame *frames = g_new0 (RefFrame, n);
  gboolean ok = TRUE;
  gint64 mc_samples = 0;
  gint cuts = 0;

  caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1,interlace-mode=interleaved,field-order=%s", format, w,
      h, tff ? "top-field-first" : "bottom-field-first");
  props = g_strdup_printf ("fields=%s", field_names[fields]);
  what = g_strdup_printf ("%s %dx%d %s %s %s%s", format, w, h, props,
      clip_names[clip], tff ? "tff" : "bff", flush_first ? " after flush" :
      "");
  caps = gst_caps_from_string (caps_str);
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  hn = new_harness (props, caps_str);

  if (flush_first) {
    /* a stream of another clip, its outputs but the last frame's checked
     * (that one waits for its next frame, and the flush drops it) */
    const guint m = 3;
    RefFrame first[3];
    GstSegment seg;
    GstBuffer *out;

    for (i = 0; i < m; i++) {
      GstBuffer *b = clip_frame (&info, CLIP_PAN_SUB, i, tff, seed + 99);

      ref_frame_from (&first[i], &info, b);
      GST_BUFFER_PTS (b) = i * dur;
      GST_BUFFER_DURATION (b) = dur;
      fail_unless_equals_int (gst_harness_push (hn, b), GST_FLOW_OK);
    }
    for (i = 0; i + 1 < m; i++)
      for (k = 0; k < n_out; k++) {
        GstBuffer *out = gst_harness_pull (hn);
        gint64 unused = 0;
        gint unused_cuts = 0;

        /* frames[i + 1] exists: checked as in a longer stream */
        ok &= check_stream_output (out, &info, first, m + 1, i, k, fields,
            tff, CLIP_PAN_SUB, what, &unused, &unused_cuts);
        gst_buffer_unref (out);
      }
    fail_unless (gst_harness_push_event (hn, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (hn, gst_event_new_flush_stop (TRUE)));
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (hn, gst_event_new_segment (&seg)));
    while ((out = gst_harness_try_pull (hn)))
      gst_buffer_unref (out);
    for (i = 0; i < m; i++)
      ref_frame_clear (&first[i]);
  }

  for (i = 0; i < n; i++) {
    GstBuffer *b = clip_frame (&info, clip, i, tff, seed);

    ref_frame_from (&frames[i], &info, b);
    GST_BUFFER_PTS (b) = i * dur;
    GST_BUFFER_DURATION (b) = dur;
    fail_unless_equals_int (gst_harness_push (hn, b), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (hn, gst_event_new_eos ()));

  for (i = 0; i < n && ok; i++)
    for (k = 0; k < n_out && ok; k++) {
      GstBuffer *out = gst_harness_try_pull (hn);

      if (!out) {
        g_print ("%s: output %u of frame %u missing\n", what, k, i);
        ok = FALSE;
        break;
      }
      ok &= check_stream_output (out, &info, frames, n, i, k, fields, tff,
          clip, what, &mc_samples, &cuts);
      gst_buffer_unref (out);
    }
  if (ok && gst_harness_buffers_in_queue (hn) != 0) {
    g_print ("%s: %u outputs too many\n", what,
        gst_harness_buffers_in_queue (hn));
    ok = FALSE;
  }
  /* on frames of many blocks, the clip tests what it is for (the
   * reference's own decisions) */
  if (ok && (clip == CLIP_PAN_INT || clip == CLIP_PAN_SUB) && w >= 300
      && mc_samples == 0) {
    g_print ("%s: the reference gives bwdif's output throughout: the clip "
        "does not reach the motion-compensated path\n", what);
    ok = FALSE;
  }
  if (ok && clip == CLIP_CUT && w >= 300 && n > CUT_FRAME && cuts == 0) {
    g_print ("%s: the reference finds no cut\n", what);
    ok = FALSE;
  }

  for (i = 0; i < n; i++)
    ref_frame_clear (&frames[i]);
  g_free (frames);
  gst_harness_teardown (hn);
  g_free (caps_str);
  g_free (props);
  g_free (what);
  return ok;
}

static const gchar *formats8[] = { "I420", "YV12", "NV12", "UYVY", "YUY2",
  "Y42B", "Y444", "GRAY8", NULL
};

static const gchar *formats16[] = { "I420_10LE", "P010_10LE", "P012_LE",
  "I422_10LE", "Y444_16LE", "GRAY16_LE", NULL
};

/* Every format, odd and even sizes, the clips, fields and field orders
 * in turn */
GST_START_TEST (test_element_every_format)
{
  const struct
  {
    gint w, h;
  } sizes[] = { {66, 50}, {97, 71} };
  gboolean ok = TRUE;
  guint f, s, variant = 0;
  gint depth16;

  for (depth16 = 0; depth16 < 2; depth16++) {
    const gchar **formats = depth16 ? formats16 : formats8;

    for (f = 0; formats[f]; f++)
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        Clip clip = (Clip) (variant % 5);
        gint fields = (variant / 5) % 3;
        gboolean tff = (variant / 2) % 2 == 0;

        variant++;
        ok &= element_stream (formats[f], sizes[s].w, sizes[s].h, clip,
            fields, tff, 6, FALSE, variant);
      }
  }
  /* the smallest frames bwdif takes: 6x8 (4:2:0 chroma 3x4), 6x14
   * two-byte */
  ok &= element_stream ("I420", 6, 8, CLIP_PAN_INT, 0, TRUE, 4, FALSE, 50);
  ok &= element_stream ("P010_10LE", 6, 14, CLIP_PAN_SUB, 0, FALSE, 4,
      FALSE, 51);
  fail_unless (ok);
}

GST_END_TEST;

/* Every clip, fields all / top / bottom, both field orders, on frames of
 * many blocks */
GST_START_TEST (test_element_clips)
{
  gboolean ok = TRUE;
  Clip clip;
  gint fields;

  for (clip = CLIP_PAN_INT; clip <= CLIP_RANDOM; clip++)
    for (fields = 0; fields < 3; fields++) {
      ok &= element_stream ("I420", 320, 240, clip, fields, TRUE, 6, FALSE,
          10 * clip + fields);
      ok &= element_stream ("I420", 320, 240, clip, fields, FALSE, 6, FALSE,
          100 + 10 * clip + fields);
    }
  ok &= element_stream ("I420_10LE", 321, 243, CLIP_PAN_SUB, 0, TRUE, 6,
      FALSE, 7);
  ok &= element_stream ("UYVY", 321, 240, CLIP_PAN_INT, 0, FALSE, 6, FALSE,
      8);
  ok &= element_stream ("NV12", 320, 242, CLIP_CUT, 0, TRUE, 6, FALSE, 9);
  fail_unless (ok);
}

GST_END_TEST;

GST_START_TEST (test_element_full_hd)
{
  gboolean ok = TRUE;

  ok &= element_stream ("I420", 1920, 1080, CLIP_PAN_SUB, 0, TRUE, 3, FALSE,
      1);
  ok &= element_stream ("P010_10LE", 1920, 1080, CLIP_PAN_INT, 0, FALSE, 3,
      FALSE, 2);
  fail_unless (ok);
}

GST_END_TEST;

/* ---- 3. stream semantics ----------------------------------------------- */

GST_START_TEST (test_flush)
{
  gboolean ok = TRUE;

  ok &= element_stream ("I420", 128, 96, CLIP_PAN_INT, 0, TRUE, 5, TRUE, 3);
  ok &= element_stream ("I420", 128, 96, CLIP_STILL, 1, FALSE, 4, TRUE, 4);
  fail_unless (ok);
}

GST_END_TEST;

GST_START_TEST (test_latency_query)
{
  GstVideoInfo info;
  GstHarness *h;
  GstBuffer *b;

  gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_I420,
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 64, 48);
  h = new_harness (NULL, "video/x-raw,format=I420,width=64,height=48,"
      "framerate=25/1,interlace-mode=interleaved,"
      "field-order=top-field-first");
  gst_harness_set_upstream_latency (h, 10 * GST_MSECOND);
  b = clip_frame (&info, CLIP_STILL, 0, TRUE, 1);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = 40 * GST_MSECOND;
  gst_harness_push (h, b);
  /* one input frame (25/1) of look-ahead, as bwdif */
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 50 * GST_MSECOND);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* two cases, so that a sanitizer can take the kernels alone
 * (CK_RUN_CASE=kernel): the element runs the same kernels */
static Suite *
deinterlace_mc_suite (void)
{
  Suite *s = suite_create ("cudadeinterlace method=mc (GPU)");
  TCase *kernel = cfx_test_tcase ("kernel"), *element =
      cfx_test_tcase ("element");

  tcase_set_timeout (kernel, 900);
  tcase_set_timeout (element, 900);
  suite_add_tcase (s, kernel);
  suite_add_tcase (s, element);
  tcase_add_test (kernel, test_kernel_refuses);
  tcase_add_test (kernel, test_kernel_clips);
  tcase_add_test (element, test_element_every_format);
  tcase_add_test (element, test_element_clips);
  tcase_add_test (element, test_element_full_hd);
  tcase_add_test (element, test_flush);
  tcase_add_test (element, test_latency_query);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "deinterlace-mc",
      deinterlace_mc_suite);
}
