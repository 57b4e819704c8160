/* GPU suite for cudadegrain.
 *
 * - The kernels against the CPU reference (tests/reference/degrain.c):
 *   exact reconstruction with identity shrink (8-bit output equal to the
 *   input, float result within 1e-4 of it), soft and Wiener within 1 per
 *   8-bit sample and within 1e-3 in float, odd and even sizes from 1x1 to
 *   1920x1080, 1 to 8 levels, planar and step-interleaved channels sharing
 *   one buffer, poisoned outputs (bytes of no channel must stay poisoned);
 * - the automatic noise estimate against cfx_ref_degrain_estimate_sigma;
 * - quality on the python3-skimage images (camera, astronaut and coffee
 *   luma) with sigma 5 / 10 / 20 noise as degrain-quality.c adds it: the
 *   issue's PSNR bars and auto sigma within 10 %, and the GPU output against
 *   the reference on that natural content (a failure when the images
 *   cannot be made);
 * - the element through cudafxupload ! cudadegrain ! cudafxdownload: every
 *   format and component against the reference, fixed and automatic sigma,
 *   properties changed between frames;
 * - pipelines cudaupload ! cudadegrain ! cudadownload in I420 and UYVY,
 *   and the "cudadegrain" bus message every second with the estimate. */
#include "cfx-test.h"
#include "cfx-reference.h"
#include "cudafx-kernels.h"
#include "cudafx-testing.h"

#include <gst/app/app.h>
#include <gst/cudafx.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define POISON 0xA5

static const gchar *formats[] = { "UYVY", "YUY2", "I420", "YV12", "NV12",
  "Y42B", "Y444", "GRAY8", NULL
};

/* ---- content ---------------------------------------------------------- */

typedef enum
{
  CONTENT_RANDOM,               /* uniform bytes */
  CONTENT_NATURAL,              /* smooth shapes, an edge, saturated
                                 * patches (0 and 255), Gaussian noise */
} Content;

/* Smooth shapes, an edge and saturated patches, in 8-bit units */
static double
natural_value (gint x, gint y, gint w, gint h, guint64 seed)
{
  gint cell = (x / 24 + 3 * (y / 24)) % 11;

  if (cell == 4)
    return 300.0;               /* saturated: clipped noise */
  if (cell == 8)
    return -40.0;
  return 128.0 + 80.0 * sin (x * 0.045 + seed) * cos (y * 0.06)
      + (3 * x > 2 * w ? 40.0 : 0.0) - (4 * y > 3 * h ? 50.0 : 0.0);
}

/* w x h contiguous samples */
static void
make_content (guint8 * p, gint w, gint h, Content content, double sigma,
    guint64 seed)
{
  guint64 state = seed * 7919 + 1;
  gint x, y;

  if (content == CONTENT_RANDOM) {
    cfx_test_fill_random (p, (gsize) w * h, seed);
    return;
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      p[(gsize) y * w + x] =
          cfx_test_clip_u8 (natural_value (x, y, w, h, seed) +
          sigma * cfx_test_gauss (&state));
}

/* The same natural content at @depth bits (8-bit units times 2^(depth -
 * 8), noise too), LSB-aligned */
static void
make_content16 (guint16 * p, gint w, gint h, gint depth, double sigma,
    guint64 seed)
{
  guint64 state = seed * 7919 + 1;
  double scale = ldexp (1.0, depth - 8), max = (1 << depth) - 1;
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      double v = floor ((natural_value (x, y, w, h, seed) + sigma *
              cfx_test_gauss (&state)) * scale + 0.5);
      p[(gsize) y * w + x] = (guint16) CLAMP (v, 0.0, max);
    }
}

/* ---- kernel cases ------------------------------------------------------ */

typedef struct
{
  gint w, h, step, offset;
} ChanDesc;

/* Channels interleaved in one pitched buffer, as in a frame */
typedef struct
{
  gint n;
  ChanDesc ch[CFX_DEGRAIN_MAX_CHANNELS];
  gint pitch, rows;
  gsize size;
  guint8 *src, *dst, *dsrc, *ddst;
  gint8 *owner;                 /* channel of each byte, -1: none */
  guint8 *plane[CFX_DEGRAIN_MAX_CHANNELS];
} TestFrame;

static void
test_frame_init (TestFrame * f, gint n, const ChanDesc * ch, gboolean aligned,
    Content content, double noise, guint64 seed)
{
  gint c, x, y, need = 1;

  memset (f, 0, sizeof (*f));
  f->n = n;
  for (c = 0; c < n; c++) {
    f->ch[c] = ch[c];
    need = MAX (need, ch[c].offset + (ch[c].w - 1) * ch[c].step + 1);
    f->rows = MAX (f->rows, ch[c].h);
  }
  /* the device layout (256-byte pitch) or a tight, odd one */
  f->pitch = aligned ? GST_ROUND_UP_N (need, 256) : need + 3;
  f->size = (gsize) f->pitch * f->rows + 16;
  f->src = g_malloc (f->size);
  f->dst = g_malloc (f->size);
  f->owner = g_malloc (f->size);
  memset (f->owner, -1, f->size);
  /* bytes of no channel hold junk the kernel must not read */
  cfx_test_fill_random (f->src, f->size, seed + 99);
  for (c = 0; c < n; c++) {
    f->plane[c] = g_malloc ((gsize) MAX (ch[c].w, 1) * MAX (ch[c].h, 1));
    make_content (f->plane[c], ch[c].w, ch[c].h, content, noise, seed + c);
    for (y = 0; y < ch[c].h; y++)
      for (x = 0; x < ch[c].w; x++) {
        gsize i = (gsize) y * f->pitch + ch[c].offset + (gsize) x * ch[c].step;
        f->src[i] = f->plane[c][(gsize) y * ch[c].w + x];
        f->owner[i] = c;
      }
  }
  fail_unless_equals_int (cudaMalloc ((void **) &f->dsrc, f->size),
      cudaSuccess);
  fail_unless_equals_int (cudaMalloc ((void **) &f->ddst, f->size),
      cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (f->dsrc, f->src, f->size,
          cudaMemcpyHostToDevice), cudaSuccess);
  fail_unless_equals_int (cudaMemset (f->ddst, POISON, f->size), cudaSuccess);
}

static void
test_frame_clear (TestFrame * f)
{
  gint c;

  cudaFree (f->dsrc);
  cudaFree (f->ddst);
  g_free (f->src);
  g_free (f->dst);
  g_free (f->owner);
  for (c = 0; c < f->n; c++)
    g_free (f->plane[c]);
}

static CfxPlane
test_channel (const TestFrame * f, guint8 * base, gint c)
{
  return cfx_plane_8bit (base + f->ch[c].offset, f->pitch, f->ch[c].w,
      f->ch[c].h, f->ch[c].step, f->ch[c].offset);
}

static CfxRefDegrainParams
ref_params (const CfxDegrainParams * p, gint c)
{
  CfxRefDegrainParams r;

  r.shrink = p->shrink == CFX_DEGRAIN_WIENER ? CFX_REF_SHRINK_WIENER :
      p->shrink == CFX_DEGRAIN_SOFT ? CFX_REF_SHRINK_SOFT :
      CFX_REF_SHRINK_IDENTITY;
  r.levels = p->levels;
  r.sigma = p->sigma[c];
  r.strength = p->strength[c];
  r.amount = p->amount;
  r.output_noise = p->output_noise;
  r.wiener_radius = CFX_DEGRAIN_WIENER_RADIUS;
  return r;
}

/* Runs cfx_degrain on the frame (estimate and float result kept) and
 * checks every channel against the reference: 8-bit output, float result,
 * noise estimate; and that no byte outside the channels was written. */
static gboolean
kernel_case (TestFrame * f, const CfxDegrainParams * params_in,
    const gchar * what)
{
  CfxDegrainParams p = *params_in;
  CfxDegrainScratch *scratch = NULL;
  CfxPlane src[CFX_DEGRAIN_MAX_CHANNELS], dst[CFX_DEGRAIN_MAX_CHANNELS];
  gint widths[CFX_DEGRAIN_MAX_CHANNELS], heights[CFX_DEGRAIN_MAX_CHANNELS];
  gint est[CFX_DEGRAIN_MAX_CHANNELS];
  gboolean ok = TRUE;
  gint c, x, y;
  gsize i;

  for (c = 0; c < f->n; c++) {
    widths[c] = f->ch[c].w;
    heights[c] = f->ch[c].h;
    src[c] = test_channel (f, f->dsrc, c);
    dst[c] = test_channel (f, f->ddst, c);
  }
  p.estimate = 1;
  fail_unless_equals_int (cfx_degrain_scratch_new (&scratch, f->n, widths,
          heights), cudaSuccess);
  cfx_degrain_keep_float (scratch, 1);
  fail_unless_equals_int (cfx_degrain (dst, src, f->n, &p, scratch, 0),
      cudaSuccess);
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (f->dst, f->ddst, f->size,
          cudaMemcpyDeviceToHost), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (est,
          cfx_degrain_estimate_device (scratch), f->n * sizeof (gint),
          cudaMemcpyDeviceToHost), cudaSuccess);

  /* bytes of no channel keep the poison */
  for (i = 0; i < f->size; i++) {
    if (f->owner[i] < 0 && f->dst[i] != POISON) {
      g_print ("%s: byte %" G_GSIZE_FORMAT " (row %d) outside the channels "
          "was written\n", what, i, (gint) (i / f->pitch));
      ok = FALSE;
      break;
    }
  }

  for (c = 0; c < f->n; c++) {
    gint w = f->ch[c].w, h = f->ch[c].h, maxd = 0, ndiff = 0;
    gsize n = (gsize) w * h;
    guint8 *want = g_malloc (MAX (n, 1));
    float *fin = g_malloc (MAX (n, 1) * sizeof (float));
    float *fref = g_malloc (MAX (n, 1) * sizeof (float));
    float *fgpu = g_malloc (MAX (n, 1) * sizeof (float));
    CfxRefPlane rsrc = { f->plane[c], w, w, h }, rdst = { want, w, w, h };
    CfxRefDegrainParams rp = ref_params (&p, c);
    const float *dres;
    gint fpitch;
    double ferr = 0.0, rerr = 0.0, ftol;
    float ref_sigma, gpu_sigma;

    if (n == 0) {
      g_free (want);
      g_free (fin);
      g_free (fref);
      g_free (fgpu);
      continue;
    }
    cfx_ref_degrain_plane (&rdst, &rsrc, &rp);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gint got = f->dst[(gsize) y * f->pitch + f->ch[c].offset +
            (gsize) x * f->ch[c].step];
        gint d = ABS (got - want[(gsize) y * w + x]);
        maxd = MAX (maxd, d);
        ndiff += d != 0;
      }

    /* the float result before blending and rounding */
    for (i = 0; i < n; i++)
      fin[i] = f->plane[c][i];
    cfx_ref_degrain_float (fref, fin, w, h, &rp);
    fail_unless_equals_int (cfx_degrain_float_result (scratch, c, &dres,
            &fpitch), cudaSuccess);
    fail_unless_equals_int (cudaMemcpy2D (fgpu, w * sizeof (float), dres,
            fpitch * sizeof (float), w * sizeof (float), h,
            cudaMemcpyDeviceToHost), cudaSuccess);
    for (i = 0; i < n; i++) {
      ferr = MAX (ferr, fabs ((double) fgpu[i] - fref[i]));
      rerr = MAX (rerr, fabs ((double) fgpu[i] - fin[i]));
    }
    ftol = p.shrink == CFX_DEGRAIN_IDENTITY ? 1e-4 : 1e-3;

    ref_sigma = cfx_ref_degrain_estimate_sigma (&rsrc);
    gpu_sigma = (float) cfx_degrain_sigma_from_median (est[c]);

    if (maxd > 1 || (p.shrink == CFX_DEGRAIN_IDENTITY && p.amount == 1.0f
            && !p.output_noise && maxd != 0)) {
      g_print ("%s: channel %d (%dx%d step %d): max error %d, %d samples "
          "differ\n", what, c, w, h, f->ch[c].step, maxd, ndiff);
      ok = FALSE;
    }
    if (ferr >= ftol || (p.shrink == CFX_DEGRAIN_IDENTITY && rerr >= 1e-4)) {
      g_print ("%s: channel %d: float result off the reference by %g, off "
          "the input by %g\n", what, c, ferr, rerr);
      ok = FALSE;
    }
    if (fabsf (gpu_sigma - ref_sigma) > 1e-6f * MAX (1.0f, ref_sigma)) {
      g_print ("%s: channel %d: estimated sigma %.6f, reference %.6f\n",
          what, c, gpu_sigma, ref_sigma);
      ok = FALSE;
    }
    GST_INFO ("%s: channel %d max %d, %d differ, float %g, sigma %.4f", what,
        c, maxd, ndiff, ferr, gpu_sigma);
    g_free (want);
    g_free (fin);
    g_free (fref);
    g_free (fgpu);
  }

  cfx_degrain_scratch_free (scratch);
  return ok;
}

static CfxDegrainParams
params_for (CfxDegrainShrink shrink, gint levels, float sigma, float strength,
    float amount, gboolean noise)
{
  CfxDegrainParams p;
  gint c;

  memset (&p, 0, sizeof (p));
  p.shrink = shrink;
  p.levels = levels;
  p.amount = amount;
  p.output_noise = noise;
  for (c = 0; c < CFX_DEGRAIN_MAX_CHANNELS; c++) {
    /* different per channel: each channel must get its own */
    p.sigma[c] = sigma * (1.0f + 0.25f * c);
    p.strength[c] = strength * (c == 0 ? 1.0f : 1.5f);
  }
  return p;
}

static const struct
{
  gint w, h;
} kernel_sizes[] = { {1, 1}, {2, 3}, {33, 17}, {257, 131}, {1920, 1080} };

GST_START_TEST (test_kernel_reconstruction)
{
  gboolean ok = TRUE;
  guint s;
  gint levels;

  for (s = 0; s < G_N_ELEMENTS (kernel_sizes); s++) {
    gint w = kernel_sizes[s].w, h = kernel_sizes[s].h;
    gboolean big = w * h > 100000;

    for (levels = 1; levels <= CFX_DEGRAIN_MAX_LEVELS; levels++) {
      ChanDesc ch = { w, h, 1, 0 };
      TestFrame f;
      CfxDegrainParams p = params_for (CFX_DEGRAIN_IDENTITY, levels, 10.0f,
          1.0f, 1.0f, FALSE);
      gchar *what;

      if (big && levels != 5 && levels != 8)
        continue;
      what = g_strdup_printf ("identity %dx%d levels %d", w, h, levels);
      test_frame_init (&f, 1, &ch, levels & 1, CONTENT_RANDOM, 0.0,
          s * 10 + levels);
      ok &= kernel_case (&f, &p, what);
      test_frame_clear (&f);
      g_free (what);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

GST_START_TEST (test_kernel_against_reference)
{
  gboolean ok = TRUE;
  guint s;

  for (s = 0; s < G_N_ELEMENTS (kernel_sizes); s++) {
    gint w = kernel_sizes[s].w, h = kernel_sizes[s].h;
    gboolean big = w * h > 100000;
    const struct
    {
      CfxDegrainShrink shrink;
      gint levels, step, offset;
      float sigma, strength, amount;
      gboolean noise, aligned, small_only;
      Content content;
    } cases[] = {
      {CFX_DEGRAIN_SOFT, 4, 1, 0, 10, 1, 1, FALSE, TRUE, FALSE,
          CONTENT_NATURAL},
      {CFX_DEGRAIN_WIENER, 5, 1, 0, 20, 1, 1, FALSE, FALSE, FALSE,
          CONTENT_NATURAL},
      {CFX_DEGRAIN_SOFT, 4, 2, 1, 20, 1, 1, FALSE, FALSE, FALSE,
          CONTENT_NATURAL},
      {CFX_DEGRAIN_WIENER, 8, 4, 2, 12, 1, 0.6f, TRUE, TRUE, TRUE,
          CONTENT_RANDOM},
      {CFX_DEGRAIN_SOFT, 6, 2, 0, 15, 2.5f, 0.3f, FALSE, TRUE, TRUE,
          CONTENT_NATURAL},
      {CFX_DEGRAIN_WIENER, 3, 1, 0, 8, 0.7f, 1, TRUE, FALSE, TRUE,
          CONTENT_NATURAL},
      {CFX_DEGRAIN_WIENER, 7, 1, 0, 0, 1, 1, FALSE, FALSE, TRUE,
          CONTENT_NATURAL},
    };
    guint k;

    for (k = 0; k < G_N_ELEMENTS (cases); k++) {
      ChanDesc ch = { w, h, cases[k].step, cases[k].offset };
      TestFrame f;
      CfxDegrainParams p = params_for (cases[k].shrink, cases[k].levels,
          cases[k].sigma, cases[k].strength, cases[k].amount, cases[k].noise);
      gchar *what;

      if (big && cases[k].small_only)
        continue;
      what = g_strdup_printf ("%s %dx%d levels %d step %d sigma %g "
          "strength %g amount %g%s", cases[k].shrink == CFX_DEGRAIN_SOFT ?
          "soft" : "wiener", w, h, cases[k].levels, cases[k].step,
          cases[k].sigma, cases[k].strength, cases[k].amount,
          cases[k].noise ? " noise" : "");
      test_frame_init (&f, 1, &ch, cases[k].aligned, cases[k].content,
          cases[k].sigma, 1000 + s * 10 + k);
      ok &= kernel_case (&f, &p, what);
      test_frame_clear (&f);
      g_free (what);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

/* Several channels in one launch and one buffer, as the element uses it */
GST_START_TEST (test_kernel_channels)
{
  const struct
  {
    const gchar *name;
    gint n;
    ChanDesc ch[3];
  } layouts[] = {
    /* UYVY 257 wide: U Y V Y */
    {"packed 4:2:2", 3, {{257, 67, 2, 1}, {129, 67, 4, 0}, {129, 67, 4, 2}}},
    /* NV12's UV plane: U V */
    {"semi-planar", 2, {{65, 33, 2, 0}, {65, 33, 2, 1}}},
    /* three planes of 4:2:0 sizes, side by side in one pitched buffer */
    {"planar 4:2:0", 3, {{129, 71, 1, 0}, {65, 36, 1, 160}, {65, 36, 1,
                240}}},
    {"tiny", 3, {{1, 1, 2, 1}, {1, 1, 4, 0}, {1, 1, 4, 2}}},
  };
  gboolean ok = TRUE;
  guint l, k;

  for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
    for (k = 0; k < 2; k++) {
      TestFrame f;
      CfxDegrainParams p = params_for (k ? CFX_DEGRAIN_SOFT :
          CFX_DEGRAIN_WIENER, k ? 4 : 5, 14.0f, 1.0f, 1.0f, FALSE);
      gchar *what = g_strdup_printf ("%s %s", layouts[l].name,
          k ? "soft" : "wiener");

      test_frame_init (&f, layouts[l].n, layouts[l].ch, k, CONTENT_NATURAL,
          14.0, 2000 + l * 10 + k);
      ok &= kernel_case (&f, &p, what);
      test_frame_clear (&f);
      g_free (what);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

/* Components of other sizes than the scratch's, or of samples other than
 * 8-bit, are refused */
GST_START_TEST (test_kernel_arguments)
{
  CfxDegrainScratch *scratch;
  CfxDegrainParams p = params_for (CFX_DEGRAIN_WIENER, 4, 10.0f, 1.0f, 1.0f,
      FALSE);
  gint w = 64, h = 32;
  guint8 *d;
  CfxPlane src, dst;

  fail_unless_equals_int (cudaMalloc ((void **) &d, 2 * w * h), cudaSuccess);
  /* initialised: the calls accepted read it (initcheck) */
  fail_unless_equals_int (cudaMemset (d, 0, 2 * w * h), cudaSuccess);
  src = cfx_plane_8bit (d, w, w, h, 1, 0);
  dst = cfx_plane_8bit (d + w * h, w, w, h, 1, 0);
  fail_unless_equals_int (cfx_degrain_scratch_new (&scratch, 1, &w, &h),
      cudaSuccess);
  src.bytes = 2;
  fail_unless_equals_int (cfx_degrain (&dst, &src, 1, &p, scratch, 0),
      cudaErrorInvalidValue);
  fail_unless_equals_int (cfx_degrain_estimate (&src, 1, scratch, 0),
      cudaErrorInvalidValue);
  src.bytes = 1;
  dst.bytes = 2;
  fail_unless_equals_int (cfx_degrain (&dst, &src, 1, &p, scratch, 0),
      cudaErrorInvalidValue);
  dst.bytes = 1;
  dst.width = w - 1;
  fail_unless_equals_int (cfx_degrain (&dst, &src, 1, &p, scratch, 0),
      cudaErrorInvalidValue);
  dst.width = w;
  fail_unless_equals_int (cfx_degrain (&dst, &src, 1, &p, scratch, 0),
      cudaSuccess);
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  cfx_degrain_scratch_free (scratch);
  cudaFree (d);
}

GST_END_TEST;

/* The estimate alone (the element's first frame) equals the reference */
GST_START_TEST (test_kernel_estimate)
{
  const struct
  {
    gint w, h;
    double noise;
    Content content;
  } cases[] = {
    {1, 1, 5, CONTENT_NATURAL}, {2, 3, 5, CONTENT_NATURAL},
    {31, 40, 10, CONTENT_NATURAL}, {33, 17, 10, CONTENT_RANDOM},
    {64, 64, 3, CONTENT_NATURAL}, {257, 131, 20, CONTENT_NATURAL},
    {1920, 1080, 7, CONTENT_NATURAL}, {1000, 70, 30, CONTENT_NATURAL},
    {3840, 2160, 12, CONTENT_NATURAL},
  };
  gboolean ok = TRUE;
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    ChanDesc ch = { cases[k].w, cases[k].h, 1, 0 };
    TestFrame f;
    CfxDegrainScratch *scratch;
    CfxPlane src;
    CfxRefPlane rp;
    gint m;
    float ref, gpu;

    test_frame_init (&f, 1, &ch, TRUE, cases[k].content, cases[k].noise,
        3000 + k);
    src = test_channel (&f, f.dsrc, 0);
    fail_unless_equals_int (cfx_degrain_scratch_new (&scratch, 1,
            &cases[k].w, &cases[k].h), cudaSuccess);
    fail_unless_equals_int (cfx_degrain_estimate (&src, 1, scratch, 0),
        cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (&m,
            cfx_degrain_estimate_device (scratch), sizeof (gint),
            cudaMemcpyDeviceToHost), cudaSuccess);
    rp.data = f.plane[0];
    rp.stride = rp.width = cases[k].w;
    rp.height = cases[k].h;
    ref = cfx_ref_degrain_estimate_sigma (&rp);
    gpu = (float) cfx_degrain_sigma_from_median (m);
    if (fabsf (gpu - ref) > 1e-6f * MAX (1.0f, ref)) {
      g_print ("estimate %dx%d: GPU %.6f (M %d), reference %.6f\n",
          cases[k].w, cases[k].h, gpu, m, ref);
      ok = FALSE;
    }
    if (cases[k].content == CONTENT_NATURAL && cases[k].w * cases[k].h >
        100000 && fabs (gpu / cases[k].noise - 1.0) > 0.15) {
      g_print ("estimate %dx%d: %.3f for noise %.1f\n", cases[k].w,
          cases[k].h, gpu, cases[k].noise);
      ok = FALSE;
    }
    cfx_degrain_scratch_free (scratch);
    test_frame_clear (&f);
  }
  fail_unless (ok);
}

GST_END_TEST;

/* ---- quality on the skimage images ------------------------------------ */

static guint8 *
read_pgm (const gchar * path, gint * w, gint * h)
{
  gchar *data = NULL, *p, *end;
  gsize len;
  glong v[3];
  gint i;
  guint8 *img = NULL;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  if (len < 2 || data[0] != 'P' || data[1] != '5')
    goto out;
  p = data + 2;
  end = data + len;
  for (i = 0; i < 3; i++) {
    while (p < end && (g_ascii_isspace (*p) || *p == '#')) {
      if (*p == '#')
        while (p < end && *p != '\n')
          p++;
      else
        p++;
    }
    v[i] = strtol (p, &p, 10);
  }
  p++;                          /* the single blank after maxval */
  *w = v[0];
  *h = v[1];
  if (*w <= 0 || *h <= 0 || v[2] != 255 || end - p < (glong) * w * *h)
    goto out;
  img = g_memdup2 (p, (gsize) * w * *h);
out:
  g_free (data);
  return img;
}

/* The images' folder: CUDAFX_TEST_IMAGES (made beforehand by
 * tests/reference/skimage-images.py, e.g. by tests/pack-built for a GPU
 * host without scikit-image), else a new one made here */
static gchar *
make_skimage_images (void)
{
  const gchar *root = g_getenv ("CUDAFX_SOURCE_ROOT");
  const gchar *given = g_getenv ("CUDAFX_TEST_IMAGES");
  const gchar *pythons[] = { "/usr/bin/python3", "python3", NULL };
  gchar *dir, *script;
  guint i;

  if (given && *given)
    return g_strdup (given);
  dir = g_dir_make_tmp ("cudafx-degrain-XXXXXX", NULL);
  if (!dir || !root) {
    g_free (dir);
    return NULL;
  }
  script = g_build_filename (root, "tests", "reference", "skimage-images.py",
      NULL);
  for (i = 0; pythons[i]; i++) {
    gchar *argv[] = { (gchar *) pythons[i], script, dir, NULL };
    gint status = -1;

    if (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
            NULL, NULL, NULL, &status, NULL) && status == 0)
      break;
  }
  g_free (script);
  if (!pythons[i]) {
    g_rmdir (dir);
    g_free (dir);
    return NULL;
  }
  return dir;
}

/* A folder made by make_skimage_images goes; one given by
 * CUDAFX_TEST_IMAGES stays */
static void
free_image_dir (gchar * dir, const gchar ** names, guint n)
{
  guint i;

  if (g_strcmp0 (dir, g_getenv ("CUDAFX_TEST_IMAGES")) != 0) {
    for (i = 0; i < n; i++) {
      gchar *file = g_strdup_printf ("%s/%s.pgm", dir, names[i]);
      g_unlink (file);
      g_free (file);
    }
    g_rmdir (dir);
  }
  g_free (dir);
}

static double
psnr (const guint8 * a, const guint8 * b, gsize n)
{
  double se = 0.0;
  gsize i;

  for (i = 0; i < n; i++) {
    double d = (double) a[i] - b[i];
    se += d * d;
  }
  return se == 0.0 ? 99.0 : 10.0 * log10 (255.0 * 255.0 / (se / n));
}

/* Degrains a w x h plane of 8-bit samples, or of @depth-bit samples in
 * 16-bit words (LSB-aligned), on the GPU; returns the estimated sigma */
static float
gpu_degrain_plane (gpointer out, gconstpointer in, gint w, gint h, gint depth,
    CfxDegrainShrink shrink, gint levels, float *sigma_io)
{
  CfxDegrainScratch *scratch;
  guint8 *din, *dout;
  gint bytes = depth > 8 ? 2 : 1;
  gsize size = (gsize) w * h * bytes;
  CfxPlane src = { NULL, w * bytes, w, h, bytes, depth, 0, bytes, 0 };
  CfxPlane dst = src;
  CfxDegrainParams p = params_for (shrink, levels, 0.0f, 1.0f, 1.0f, FALSE);
  gint m;
  float est;

  fail_unless_equals_int (cudaMalloc ((void **) &din, size), cudaSuccess);
  fail_unless_equals_int (cudaMalloc ((void **) &dout, size), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (din, in, size, cudaMemcpyHostToDevice),
      cudaSuccess);
  fail_unless_equals_int (cudaMemset (dout, POISON, size), cudaSuccess);
  src.data = din;
  dst.data = dout;
  fail_unless_equals_int (cfx_degrain_scratch_new (&scratch, 1, &w, &h),
      cudaSuccess);
  fail_unless_equals_int (cfx_degrain_estimate (&src, 1, scratch, 0),
      cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (&m,
          cfx_degrain_estimate_device (scratch), sizeof (gint),
          cudaMemcpyDeviceToHost), cudaSuccess);
  est = (float) cfx_degrain_sigma_from_median (m);
  p.sigma[0] = *sigma_io > 0.0f ? *sigma_io : est;
  p.strength[0] = 1.0f;
  fail_unless_equals_int (cfx_degrain (&dst, &src, 1, &p, scratch, 0),
      cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (out, dout, size,
          cudaMemcpyDeviceToHost), cudaSuccess);
  *sigma_io = p.sigma[0];
  cfx_degrain_scratch_free (scratch);
  cudaFree (din);
  cudaFree (dout);
  return est;
}

GST_START_TEST (test_quality_skimage)
{
  static const gchar *names[] = { "camera", "astronaut", "coffee" };
  static const gint sigmas[] = { 5, 10, 20 };
  /* issue bars, mean over the images: sigma 10 and 20 */
  static const double min_soft[] = { 0.0, 31.9, 27.6 };
  static const double min_wiener[] = { 0.0, 33.5, 29.4 };
  double sum_noisy[3] = { 0 }, sum_soft[3] = { 0 }, sum_wiener[3] = { 0 };
  gchar *dir = make_skimage_images ();
  gboolean ok = TRUE;
  guint i, s;

  /* a missing image is a failure, never a quiet pass */
  fail_unless (dir != NULL, "cannot make the skimage images: install "
      "python3-skimage and python3-numpy, or set CUDAFX_TEST_IMAGES to a "
      "folder made by tests/reference/skimage-images.py");

  g_print ("\n%-10s %5s %7s %6s %8s %8s %8s\n", "image", "sigma", "est",
      "est/s", "noisy", "soft", "wiener");
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (i = 0; i < G_N_ELEMENTS (names); i++) {
      gchar *file = g_strdup_printf ("%s/%s.pgm", dir, names[i]);
      gint w = 0, h = 0;
      guint8 *clean = read_pgm (file, &w, &h), *noisy, *out, *want;
      guint64 state = 1 + 100 * i + sigmas[s];
      gsize n, k;
      float est, used = 0.0f, ref_est;
      double p_noisy, p_soft, p_wiener;
      CfxRefPlane rn, ro;
      CfxRefDegrainParams rp;
      CfxDegrainParams qp;
      gint maxd = 0;

      fail_unless (clean != NULL, "cannot read %s", file);
      n = (gsize) w * h;
      noisy = g_malloc (n);
      out = g_malloc (n);
      want = g_malloc (n);
      for (k = 0; k < n; k++)
        noisy[k] = cfx_test_clip_u8 (clean[k] + sigmas[s] *
            cfx_test_gauss (&state));

      rn.data = noisy;
      rn.stride = rn.width = w;
      rn.height = h;
      ro = rn;
      ro.data = want;
      ref_est = cfx_ref_degrain_estimate_sigma (&rn);

      est = gpu_degrain_plane (out, noisy, w, h, 8, CFX_DEGRAIN_SOFT, 4,
          &used);
      p_soft = psnr (out, clean, n);
      /* the GPU against the reference on natural content */
      qp = params_for (CFX_DEGRAIN_SOFT, 4, used, 1.0f, 1.0f, FALSE);
      rp = ref_params (&qp, 0);
      cfx_ref_degrain_plane (&ro, &rn, &rp);
      for (k = 0; k < n; k++)
        maxd = MAX (maxd, ABS ((gint) out[k] - want[k]));

      used = 0.0f;
      gpu_degrain_plane (out, noisy, w, h, 8, CFX_DEGRAIN_WIENER, 5, &used);
      p_wiener = psnr (out, clean, n);
      qp = params_for (CFX_DEGRAIN_WIENER, 5, used, 1.0f, 1.0f, FALSE);
      rp = ref_params (&qp, 0);
      cfx_ref_degrain_plane (&ro, &rn, &rp);
      for (k = 0; k < n; k++)
        maxd = MAX (maxd, ABS ((gint) out[k] - want[k]));

      p_noisy = psnr (noisy, clean, n);
      sum_noisy[s] += p_noisy;
      sum_soft[s] += p_soft;
      sum_wiener[s] += p_wiener;
      g_print ("%-10s %5d %7.3f %6.3f %8.2f %8.2f %8.2f\n", names[i],
          sigmas[s], est, est / sigmas[s], p_noisy, p_soft, p_wiener);
      if (fabs (est / sigmas[s] - 1.0) > 0.10) {
        g_print ("quality: %s sigma %d estimated %.3f: off by more than "
            "10 %%\n", names[i], sigmas[s], est);
        ok = FALSE;
      }
      if (fabsf (est - ref_est) > 1e-6f * ref_est) {
        g_print ("quality: %s sigma %d: GPU estimate %.6f, reference %.6f\n",
            names[i], sigmas[s], est, ref_est);
        ok = FALSE;
      }
      if (maxd > 1) {
        g_print ("quality: %s sigma %d: GPU off the reference by %d\n",
            names[i], sigmas[s], maxd);
        ok = FALSE;
      }
      g_free (noisy);
      g_free (out);
      g_free (want);
      g_free (clean);
      g_free (file);
    }
  }
  g_print ("\nmean PSNR (dB)  %8s %8s %8s   bar: %6s %6s\n", "noisy", "soft",
      "wiener", "soft", "wiener");
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    double ns = sum_noisy[s] / 3, ss = sum_soft[s] / 3, ws = sum_wiener[s] / 3;
    gboolean pass = ss >= min_soft[s] && ws >= min_wiener[s];

    g_print ("sigma %2d        %8.2f %8.2f %8.2f        %6.1f %6.1f %s\n",
        sigmas[s], ns, ss, ws, min_soft[s], min_wiener[s],
        pass ? "ok" : "MISSED");
    ok &= pass;
  }
  free_image_dir (dir, names, G_N_ELEMENTS (names));
  fail_unless (ok);
}

GST_END_TEST;

/* ---- 16-bit words ------------------------------------------------------ */

/* One planar channel of depth-bit samples @shift bits up in 16-bit words,
 * rows padded: the input's unused bits and padding random, the output
 * poisoned. Checks the output against the reference (within 1 code; equal
 * for the identity), its unused bits 0, the padding untouched, and the
 * estimate against the reference's. */
static gboolean
kernel16_case (gint w, gint h, gint depth, gint shift,
    const CfxDegrainParams * params_in, guint64 seed)
{
  CfxDegrainParams p = *params_in;
  CfxDegrainScratch *scratch = NULL;
  gint pitch = (w * 2 + 6 + 15) / 16 * 16 + 2;  /* padding, not aligned */
  gsize size = (gsize) pitch * MAX (h, 1), i;
  guint16 *lsb = g_malloc ((gsize) MAX (w * h, 1) * 2);
  guint16 *want = g_malloc ((gsize) MAX (w * h, 1) * 2);
  guint8 *host = g_malloc (size), *back = g_malloc (size);
  guint8 *dsrc, *ddst;
  guint16 mask = (guint16) (((1u << depth) - 1) << shift);
  CfxPlane src = { NULL, pitch, w, h, 2, depth, shift, 2, 0 }, dst;
  CfxRefPlane16 rs = { lsb, w, w, h }, rd = { want, w, w, h };
  CfxRefDegrainParams rp = ref_params (&p, 0);
  gint x, y, m, maxd = 0, unused = 0, padding = 0;
  gboolean ok = TRUE;
  float ref_sigma, gpu_sigma;

  make_content16 (lsb, w, h, depth, 6.0, seed);
  cfx_test_fill_random (host, size, seed + 1);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint8 *b = host + (gsize) y * pitch + 2 * x;
      guint16 word = (GST_READ_UINT16_LE (b) & ~mask) |
          (guint16) (lsb[(gsize) y * w + x] << shift);
      GST_WRITE_UINT16_LE (b, word);
    }
  fail_unless_equals_int (cudaMalloc ((void **) &dsrc, size), cudaSuccess);
  fail_unless_equals_int (cudaMalloc ((void **) &ddst, size), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (dsrc, host, size,
          cudaMemcpyHostToDevice), cudaSuccess);
  fail_unless_equals_int (cudaMemset (ddst, POISON, size), cudaSuccess);
  src.data = dsrc;
  dst = src;
  dst.data = ddst;
  p.estimate = 1;
  fail_unless_equals_int (cfx_degrain_scratch_new (&scratch, 1, &w, &h),
      cudaSuccess);
  fail_unless_equals_int (cfx_degrain (&dst, &src, 1, &p, scratch, 0),
      cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (back, ddst, size,
          cudaMemcpyDeviceToHost), cudaSuccess);
  fail_unless_equals_int (cudaMemcpy (&m,
          cfx_degrain_estimate_device (scratch), sizeof (gint),
          cudaMemcpyDeviceToHost), cudaSuccess);

  cfx_ref_degrain_plane16 (&rd, &rs, depth, &rp);
  for (y = 0; y < h; y++) {
    for (x = 0; x < pitch; x++) {
      const guint8 *b = back + (gsize) y * pitch + x;

      if (x >= 2 * w) {
        padding += *b != POISON;
      } else if ((x & 1) == 0) {
        guint16 word = GST_READ_UINT16_LE (b);
        gint got = (word & mask) >> shift;

        unused += (word & ~mask) != 0;
        maxd = MAX (maxd, ABS (got - want[(gsize) y * w + x / 2]));
      }
    }
  }
  if (maxd > (p.shrink == CFX_DEGRAIN_IDENTITY ? 0 : 1) || unused || padding) {
    g_print ("16-bit %dx%d depth %d shift %d shrink %d noise %d: off the "
        "reference by %d, %d words with unused bits set, %d padding bytes "
        "written\n", w, h, depth, shift, p.shrink, p.output_noise, maxd,
        unused, padding);
    ok = FALSE;
  }
  /* the identity: the input itself */
  if (p.shrink == CFX_DEGRAIN_IDENTITY && p.amount == 1.0f && !p.output_noise)
    for (i = 0; i < (gsize) w * h && ok; i++)
      if (want[i] != lsb[i]) {
        g_print ("16-bit identity: the reference changed sample %"
            G_GSIZE_FORMAT "\n", i);
        ok = FALSE;
      }
  ref_sigma = cfx_ref_degrain_estimate_sigma16 (&rs, depth);
  gpu_sigma = (float) cfx_degrain_sigma_from_median (m);
  if (fabsf (gpu_sigma - ref_sigma) > 1e-6f * MAX (1.0f, ref_sigma)) {
    g_print ("16-bit %dx%d depth %d: estimated sigma %.6f, reference %.6f\n",
        w, h, depth, gpu_sigma, ref_sigma);
    ok = FALSE;
  }
  cfx_degrain_scratch_free (scratch);
  cudaFree (dsrc);
  cudaFree (ddst);
  g_free (lsb);
  g_free (want);
  g_free (host);
  g_free (back);
  return ok;
}

GST_START_TEST (test_kernel_16bit)
{
  const struct
  {
    gint depth, shift;
  } layouts[] = { {10, 6}, {10, 0}, {12, 4}, {12, 0}, {16, 0}, {9, 3} };
  const struct
  {
    gint w, h;
  } sizes[] = { {1, 1}, {2, 3}, {33, 17}, {257, 131}, {1920, 1080} };
  gboolean ok = TRUE;
  guint l, z, k;

  for (l = 0; l < G_N_ELEMENTS (layouts); l++)
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      CfxDegrainParams cases[] = {
        params_for (CFX_DEGRAIN_WIENER, 4, 5.0f, 1.0f, 1.0f, FALSE),
        params_for (CFX_DEGRAIN_SOFT, 3, 7.0f, 1.2f, 0.75f, FALSE),
        params_for (CFX_DEGRAIN_IDENTITY, 5, 0.0f, 1.0f, 1.0f, FALSE),
        params_for (CFX_DEGRAIN_WIENER, 2, 9.0f, 1.0f, 1.0f, TRUE),
      };

      /* 1080p: P010's layout */
      if (sizes[z].w == 1920 && l != 0)
        continue;
      for (k = 0; k < G_N_ELEMENTS (cases); k++)
        ok &= kernel16_case (sizes[z].w, sizes[z].h, layouts[l].depth,
            layouts[l].shift, &cases[k], 40 + l * 10 + z);
    }
  fail_unless (ok);
}

GST_END_TEST;

/* The same noise at 10 bits (sigma times 4) on the same images, Wiener, 5
 * levels, automatic sigma: PSNR in 10-bit units (peak 1023) against what
 * the 8-bit path reaches on the same noise (peak 255), the estimate in
 * 8-bit units, and the GPU against the reference at 10 bits. */
GST_START_TEST (test_quality_10bit)
{
  static const gchar *names[] = { "camera", "astronaut", "coffee" };
  static const gint sigmas[] = { 5, 10, 20 };
  double sum8[3] = { 0 }, sum10[3] = { 0 };
  gchar *dir = make_skimage_images ();
  gboolean ok = TRUE;
  guint i, s;

  fail_unless (dir != NULL, "cannot make the skimage images: install "
      "python3-skimage and python3-numpy, or set CUDAFX_TEST_IMAGES to a "
      "folder made by tests/reference/skimage-images.py");

  g_print ("\n%-10s %5s %8s %8s %8s %8s\n", "image", "sigma", "est8",
      "est10", "psnr8", "psnr10");
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (i = 0; i < G_N_ELEMENTS (names); i++) {
      gchar *file = g_strdup_printf ("%s/%s.pgm", dir, names[i]);
      gint w = 0, h = 0, maxd = 0;
      guint8 *clean = read_pgm (file, &w, &h), *noisy8, *out8;
      guint16 *clean10, *noisy10, *out10, *want10;
      guint64 state = 1 + 100 * i + sigmas[s];
      gsize n, k;
      float used = 0.0f, est8, est10, ref_est10;
      double se8 = 0.0, se10 = 0.0, p8, p10;
      CfxRefPlane16 rn, ro;
      CfxDegrainParams qp;
      CfxRefDegrainParams rp;

      fail_unless (clean != NULL, "cannot read %s", file);
      n = (gsize) w * h;
      noisy8 = g_malloc (n);
      out8 = g_malloc (n);
      clean10 = g_malloc (n * 2);
      noisy10 = g_malloc (n * 2);
      out10 = g_malloc (n * 2);
      want10 = g_malloc (n * 2);
      /* one noise draw for both depths */
      for (k = 0; k < n; k++) {
        double g = sigmas[s] * cfx_test_gauss (&state);
        double v10 = floor (4.0 * (clean[k] + g) + 0.5);

        noisy8[k] = cfx_test_clip_u8 (clean[k] + g);
        clean10[k] = (guint16) (4 * clean[k]);
        noisy10[k] = (guint16) CLAMP (v10, 0.0, 1023.0);
      }
      est8 = gpu_degrain_plane (out8, noisy8, w, h, 8, CFX_DEGRAIN_WIENER, 5,
          &used);
      used = 0.0f;
      est10 = gpu_degrain_plane (out10, noisy10, w, h, 10,
          CFX_DEGRAIN_WIENER, 5, &used);
      for (k = 0; k < n; k++) {
        double d8 = (double) out8[k] - clean[k];
        double d10 = (double) out10[k] - clean10[k];

        se8 += d8 * d8;
        se10 += d10 * d10;
      }
      p8 = 10.0 * log10 (255.0 * 255.0 / (se8 / n));
      p10 = 10.0 * log10 (1023.0 * 1023.0 / (se10 / n));
      sum8[s] += p8;
      sum10[s] += p10;

      rn.data = noisy10;
      rn.stride = rn.width = w;
      rn.height = h;
      ro = rn;
      ro.data = want10;
      ref_est10 = cfx_ref_degrain_estimate_sigma16 (&rn, 10);
      qp = params_for (CFX_DEGRAIN_WIENER, 5, used, 1.0f, 1.0f, FALSE);
      rp = ref_params (&qp, 0);
      cfx_ref_degrain_plane16 (&ro, &rn, 10, &rp);
      for (k = 0; k < n; k++)
        maxd = MAX (maxd, ABS ((gint) out10[k] - want10[k]));

      g_print ("%-10s %5d %8.3f %8.3f %8.2f %8.2f\n", names[i], sigmas[s],
          est8, est10, p8, p10);
      if (fabs (est10 / sigmas[s] - 1.0) > 0.10
          || fabsf (est10 - ref_est10) > 1e-6f * ref_est10 || maxd > 1) {
        g_print ("quality 10-bit: %s sigma %d: estimate %.4f (reference "
            "%.4f), GPU off the reference by %d\n", names[i], sigmas[s],
            est10, ref_est10, maxd);
        ok = FALSE;
      }
      g_free (noisy8);
      g_free (out8);
      g_free (clean10);
      g_free (noisy10);
      g_free (out10);
      g_free (want10);
      g_free (clean);
      g_free (file);
    }
  }
  g_print ("\nmean PSNR (dB), Wiener   %8s %8s\n", "8-bit", "10-bit");
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    gboolean pass = sum10[s] >= sum8[s];

    g_print ("sigma %2d (x4 at 10 bits) %8.3f %8.3f %s\n", sigmas[s],
        sum8[s] / 3, sum10[s] / 3, pass ? "ok" : "MISSED");
    ok &= pass;
  }
  free_image_dir (dir, names, G_N_ELEMENTS (names));
  fail_unless (ok);
}

GST_END_TEST;

/* ---- the element ------------------------------------------------------- */

/* A system-memory frame: random bytes, then natural content with noise in
 * every component */
static GstBuffer *
natural_frame (const GstVideoInfo * info, double noise, guint64 seed)
{
  GstBuffer *buf = cfx_test_random_frame (info, seed);
  GstVideoFrame f;
  guint c;
  gint x, y;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++) {
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&f, c);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&f, c);
    gint depth = GST_VIDEO_FRAME_COMP_DEPTH (&f, c);
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (f.info.finfo, c);
    guint8 *data = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f,
        GST_VIDEO_FORMAT_INFO_PLANE (f.info.finfo, c)) +
        cfx_test_comp_byte_offset (f.info.finfo, c);
    gint stride = GST_VIDEO_FRAME_COMP_STRIDE (&f, c);
    gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&f, c);
    guint16 mask = (guint16) (((1u << depth) - 1) << shift);

    if (depth == 8) {
      guint8 *plane = g_malloc ((gsize) w * h);

      make_content (plane, w, h, CONTENT_NATURAL, noise * (c ? 0.6 : 1.0),
          seed * 3 + c);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          data[(gsize) y * stride + (gsize) x * ps] =
              plane[(gsize) y * w + x];
      g_free (plane);
    } else {
      guint16 *plane = g_malloc ((gsize) w * h * 2);

      make_content16 (plane, w, h, depth, noise * (c ? 0.6 : 1.0),
          seed * 3 + c);
      /* the unused bits keep the random frame's garbage */
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          guint16 *word = (guint16 *) (data + (gsize) y * stride +
              (gsize) x * ps);
          *word = (*word & ~mask) | (guint16) (plane[(gsize) y * w + x] <<
              shift);
        }
      g_free (plane);
    }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* Component c of a mapped frame as contiguous samples (LSB-aligned, 16-bit
 * words where the depth is over 8); *unused_set counts words whose unused
 * bits are not 0 */
static gpointer
extract (GstVideoFrame * f, guint c, gint * w, gint * h, gint * unused_set)
{
  /* not GST_VIDEO_FRAME_COMP_DATA: GStreamer 1.22 puts P01x's V one byte,
   * not one sample, into its plane */
  guint8 *data = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f,
      GST_VIDEO_FORMAT_INFO_PLANE (f->info.finfo, c)) +
      cfx_test_comp_byte_offset (f->info.finfo, c), *out8 = NULL;
  guint16 *out16 = NULL;
  gint stride = GST_VIDEO_FRAME_COMP_STRIDE (f, c);
  gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (f, c), x, y;
  gint depth = GST_VIDEO_FRAME_COMP_DEPTH (f, c);
  gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (f->info.finfo, c);
  guint mask = (1u << depth) - 1;

  *w = GST_VIDEO_FRAME_COMP_WIDTH (f, c);
  *h = GST_VIDEO_FRAME_COMP_HEIGHT (f, c);
  *unused_set = 0;
  if (depth == 8)
    out8 = g_malloc ((gsize) MAX (*w, 1) * MAX (*h, 1));
  else
    out16 = g_malloc ((gsize) MAX (*w, 1) * MAX (*h, 1) * 2);
  for (y = 0; y < *h; y++)
    for (x = 0; x < *w; x++) {
      const guint8 *p = data + (gsize) y * stride + (gsize) x * ps;

      if (out8) {
        out8[(gsize) y * *w + x] = *p;
      } else {
        guint16 word = GST_READ_UINT16_LE (p);

        out16[(gsize) y * *w + x] = (word >> shift) & mask;
        *unused_set += (word & ~(mask << shift)) != 0;
      }
    }
  return out8 ? (gpointer) out8 : (gpointer) out16;
}

/* What the element's properties mean for channel c, as the reference */
typedef struct
{
  CfxRefShrink shrink;
  gint levels;                  /* 0: auto */
  double sigma;                 /* 0: auto (the frame's own estimate) */
  double strength, luma_strength, chroma_strength, amount;
  gboolean noise;
} ElementSettings;

static const ElementSettings default_settings = {
  CFX_REF_SHRINK_WIENER, 0, 0.0, 1.0, 1.0, 1.5, 1.0, FALSE
};

static void
apply_settings (GstElement * e, const ElementSettings * s)
{
  g_object_set (e, "levels", s->levels, "sigma", s->sigma, "strength",
      s->strength, "luma-strength", s->luma_strength, "chroma-strength",
      s->chroma_strength, "amount", s->amount, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "shrink",
      s->shrink == CFX_REF_SHRINK_SOFT ? "soft" : "wiener");
  gst_util_set_object_arg (G_OBJECT (e), "output",
      s->noise ? "noise" : "result");
}

/* Checks every component of @outbuf against the reference applied to
 * @inbuf with @s (auto sigma: the reference estimate of the component) */
static gboolean
check_output (const GstVideoInfo * info, GstBuffer * inbuf,
    GstBuffer * outbuf, const ElementSettings * s, const gchar * what)
{
  GstVideoFrame in, out;
  gboolean ok = TRUE;
  guint c;
  gint width = GST_VIDEO_INFO_WIDTH (info), height =
      GST_VIDEO_INFO_HEIGHT (info);

  fail_unless (gst_video_frame_map (&in, info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&in); c++) {
    gint w, h, x, y, maxd = 0, bad_x = 0, bad_y = 0, in_unused, unused;
    gint depth = GST_VIDEO_INFO_COMP_DEPTH (info, c);
    gpointer src = extract (&in, c, &w, &h, &in_unused);
    gpointer got = extract (&out, c, &w, &h, &unused);
    gpointer want = g_malloc ((gsize) MAX (w, 1) * MAX (h, 1) * 2);
    CfxRefPlane rs = { src, w, w, h }, rd = { want, w, w, h };
    CfxRefPlane16 rs16 = { src, w, w, h }, rd16 = { want, w, w, h };
    CfxRefDegrainParams rp;

    rp.shrink = s->shrink;
    rp.levels = s->levels > 0 ? s->levels :
        (width > 1920 || height > 1080 ? 5 : 4);
    rp.sigma = s->sigma > 0.0 ? (float) s->sigma : depth == 8 ?
        cfx_ref_degrain_estimate_sigma (&rs) :
        cfx_ref_degrain_estimate_sigma16 (&rs16, depth);
    rp.strength = (float) (s->strength * (c == 0 ? s->luma_strength :
            s->chroma_strength));
    rp.amount = (float) s->amount;
    rp.output_noise = s->noise;
    rp.wiener_radius = CFX_DEGRAIN_WIENER_RADIUS;
    if (depth == 8)
      cfx_ref_degrain_plane (&rd, &rs, &rp);
    else
      cfx_ref_degrain_plane16 (&rd16, &rs16, depth, &rp);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gsize i = (gsize) y * w + x;
        gint d = depth == 8 ? ABS ((gint) ((guint8 *) got)[i] -
            ((guint8 *) want)[i]) : ABS ((gint) ((guint16 *) got)[i] -
            ((guint16 *) want)[i]);
        if (d > maxd) {
          maxd = d;
          bad_x = x;
          bad_y = y;
        }
      }
    if (maxd > 1) {
      g_print ("%s: component %u (%dx%d, sigma %.3f): off by %d at %d,%d\n",
          what, c, w, h, rp.sigma, maxd, bad_x, bad_y);
      ok = FALSE;
    }
    /* the input's unused bits hold garbage; the output's are 0 */
    if (unused != 0 || (depth > 8 && GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, c) +
            depth < 16 && w * h > 16 && in_unused == 0)) {
      g_print ("%s: component %u: %d words with unused bits set (input: "
          "%d)\n", what, c, unused, in_unused);
      ok = FALSE;
    }
    g_free (src);
    g_free (got);
    g_free (want);
  }

  /* odd packed widths: the padding Y byte passes through */
  if ((GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UYVY
          || GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_YUY2)
      && (width & 1)) {
    gsize off = (gsize) (width - 1) / 2 * 4 +
        (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UYVY ? 3 : 2);
    gint y;

    for (y = 0; y < height; y++) {
      guint8 a = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in, 0))[(gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0) + off];
      guint8 b = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, 0))[(gsize) y
          * GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0) + off];
      if (a != b) {
        g_print ("%s: padding byte of row %d changed\n", what, y);
        ok = FALSE;
        break;
      }
    }
  }
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ok;
}

static GstHarness *
new_harness (const gchar * format, gint w, gint h, GstVideoInfo * info,
    GstElement ** degrain)
{
  GstHarness *hn = gst_harness_new_parse ("cudafxupload ! cudadegrain ! "
      "cudafxdownload");
  gchar *caps_str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
      "height=%d,framerate=10/1", format, w, h);
  GstCaps *caps = gst_caps_from_string (caps_str);

  fail_unless (gst_video_info_from_caps (info, caps));
  gst_harness_set_src_caps (hn, caps);
  *degrain = gst_harness_find_element (hn, "cudadegrain");
  fail_unless (*degrain != NULL);
  g_free (caps_str);
  return hn;
}

static GstBuffer *
push_pull (GstHarness * hn, GstBuffer * inbuf, guint n)
{
  GstBuffer *outbuf;

  GST_BUFFER_PTS (inbuf) = n * GST_SECOND / 10;
  GST_BUFFER_DURATION (inbuf) = GST_SECOND / 10;
  fail_unless_equals_int (gst_harness_push (hn, gst_buffer_ref (inbuf)),
      GST_FLOW_OK);
  outbuf = gst_harness_pull (hn);
  fail_unless (outbuf != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (outbuf), GST_BUFFER_PTS (inbuf));
  return outbuf;
}

GST_START_TEST (test_element_formats)
{
  const struct
  {
    gint w, h;
  } sizes[] = { {1, 1}, {2, 3}, {33, 17}, {257, 131}, {1920, 1080} };
  gboolean ok = TRUE;
  guint f, s, n;

  for (f = 0; formats[f]; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstVideoInfo info;
      GstElement *degrain;
      GstHarness *hn;
      ElementSettings set = default_settings;

      /* 1080p: the formats of the pipelines and the semi-planar */
      if (sizes[s].w == 1920 && strcmp (formats[f], "I420")
          && strcmp (formats[f], "UYVY") && strcmp (formats[f], "NV12"))
        continue;
      hn = new_harness (formats[f], sizes[s].w, sizes[s].h, &info, &degrain);
      set.shrink = (f + s) & 1 ? CFX_REF_SHRINK_SOFT : CFX_REF_SHRINK_WIENER;
      set.sigma = 9.0 + f;
      set.strength = 1.1;
      apply_settings (degrain, &set);
      /* consecutive different frames: a sample the kernels miss shows the
       * previous frame */
      for (n = 0; n < (sizes[s].w == 1920 ? 1u : 2u); n++) {
        GstBuffer *inbuf = natural_frame (&info, 10.0, f * 100 + s * 10 + n);
        GstBuffer *outbuf = push_pull (hn, inbuf, n);
        gchar *what = g_strdup_printf ("cudadegrain %s %dx%d frame %u %s",
            formats[f], sizes[s].w, sizes[s].h, n,
            set.shrink == CFX_REF_SHRINK_SOFT ? "soft" : "wiener");

        ok &= check_output (&info, inbuf, outbuf, &set, what);
        g_free (what);
        gst_buffer_unref (outbuf);
        gst_buffer_unref (inbuf);
      }
      gst_object_unref (degrain);
      gst_harness_teardown (hn);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

/* 10- to 16-bit formats through the element: every component against the
 * reference at its depth, automatic and fixed sigma; unused bits of the
 * input hold garbage, those of the output must be 0 */
GST_START_TEST (test_element_16bit_formats)
{
  static const gchar *formats16[] = { "P010_10LE", "P012_LE", "P016_LE",
    "I420_10LE", "I422_12LE", "Y444_10LE", "Y444_16LE", "GRAY16_LE"
  };
  const struct
  {
    gint w, h;
  } sizes[] = { {1, 1}, {33, 17}, {257, 131}, {1920, 1080} };
  gboolean ok = TRUE;
  guint f, s;

  for (f = 0; f < G_N_ELEMENTS (formats16); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstVideoInfo info;
      GstElement *degrain;
      GstHarness *hn;
      ElementSettings set = default_settings;
      GstBuffer *inbuf, *outbuf;
      gchar *what;

      /* 1080p: HEVC Main10's format */
      if (sizes[s].w == 1920 && strcmp (formats16[f], "P010_10LE"))
        continue;
      hn = new_harness (formats16[f], sizes[s].w, sizes[s].h, &info,
          &degrain);
      set.shrink = (f + s) & 1 ? CFX_REF_SHRINK_SOFT : CFX_REF_SHRINK_WIENER;
      /* odd formats: the automatic estimate (the first frame's own) */
      set.sigma = f & 1 ? 0.0 : 6.0 + f;
      set.noise = f == 2;
      apply_settings (degrain, &set);
      inbuf = natural_frame (&info, 8.0, 500 + f * 10 + s);
      outbuf = push_pull (hn, inbuf, 0);
      what = g_strdup_printf ("cudadegrain %s %dx%d %s sigma %g%s",
          formats16[f], sizes[s].w, sizes[s].h,
          set.shrink == CFX_REF_SHRINK_SOFT ? "soft" : "wiener", set.sigma,
          set.noise ? " noise" : "");
      ok &= check_output (&info, inbuf, outbuf, &set, what);
      g_free (what);
      gst_buffer_unref (outbuf);
      gst_buffer_unref (inbuf);
      gst_object_unref (degrain);
      gst_harness_teardown (hn);
    }
  }
  fail_unless (ok);
}

GST_END_TEST;

/* Automatic sigma: the first frame uses its own estimate (the reference's,
 * per component); the same frame again keeps it (the moving average of
 * equal estimates does not move) */
GST_START_TEST (test_element_auto_sigma)
{
  const gchar *fmts[] = { "I420", "UYVY", "NV12", "GRAY8" };
  gboolean ok = TRUE;
  guint f, n;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    GstVideoInfo info;
    GstElement *degrain;
    GstHarness *hn = new_harness (fmts[f], 320, 181, &info, &degrain);
    GstBuffer *inbuf = natural_frame (&info, 8.0, 500 + f);

    for (n = 0; n < 4; n++) {
      GstBuffer *outbuf = push_pull (hn, inbuf, n);
      gchar *what = g_strdup_printf ("auto sigma %s frame %u", fmts[f], n);

      ok &= check_output (&info, inbuf, outbuf, &default_settings, what);
      g_free (what);
      gst_buffer_unref (outbuf);
    }
    gst_buffer_unref (inbuf);
    gst_object_unref (degrain);
    gst_harness_teardown (hn);
  }
  fail_unless (ok);
}

GST_END_TEST;

/* Properties changed while playing apply from the next frame on */
GST_START_TEST (test_element_live_properties)
{
  const ElementSettings steps[] = {
    {CFX_REF_SHRINK_WIENER, 0, 6.0, 1.0, 1.0, 1.5, 1.0, FALSE},
    {CFX_REF_SHRINK_SOFT, 3, 20.0, 1.0, 1.0, 1.5, 1.0, FALSE},
    {CFX_REF_SHRINK_WIENER, 6, 15.0, 2.0, 0.5, 3.0, 0.5, FALSE},
    {CFX_REF_SHRINK_WIENER, 2, 25.0, 1.0, 1.0, 1.5, 1.0, TRUE},
    {CFX_REF_SHRINK_SOFT, 1, 30.0, 4.0, 1.0, 0.0, 0.25, TRUE},
    {CFX_REF_SHRINK_WIENER, 8, 10.0, 0.0, 1.0, 1.5, 1.0, FALSE},
    {CFX_REF_SHRINK_WIENER, 4, 10.0, 1.0, 1.0, 1.5, 0.0, FALSE},
    {CFX_REF_SHRINK_SOFT, 0, 60.0, 4.0, 1.0, 1.5, 1.0, FALSE},
  };
  GstVideoInfo info;
  GstElement *degrain;
  GstHarness *hn = new_harness ("I420", 200, 120, &info, &degrain);
  gboolean ok = TRUE;
  guint k;

  for (k = 0; k < G_N_ELEMENTS (steps); k++) {
    GstBuffer *inbuf = natural_frame (&info, 12.0, 700 + k), *outbuf;
    gchar *what = g_strdup_printf ("live properties step %u", k);

    apply_settings (degrain, &steps[k]);
    outbuf = push_pull (hn, inbuf, k);
    ok &= check_output (&info, inbuf, outbuf, &steps[k], what);
    g_free (what);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
  }
  gst_object_unref (degrain);
  gst_harness_teardown (hn);
  fail_unless (ok);
}

GST_END_TEST;

/* levels=0: 4 levels up to 1920x1080, 5 above. Strong soft shrinkage
 * makes the coarsest level visible; the test first checks that the two
 * level counts do give different references there. */
GST_START_TEST (test_element_auto_levels)
{
  const struct
  {
    gint w, h, levels;
  } cases[] = { {1920, 64, 4}, {1921, 64, 5}, {64, 1081, 5}, {64, 1080, 4} };
  ElementSettings set = default_settings;
  gboolean ok = TRUE;
  guint k;

  set.shrink = CFX_REF_SHRINK_SOFT;
  set.sigma = 60.0;
  set.strength = 4.0;
  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    GstVideoInfo info;
    GstElement *degrain;
    GstHarness *hn = new_harness ("GRAY8", cases[k].w, cases[k].h, &info,
        &degrain);
    GstBuffer *inbuf = natural_frame (&info, 10.0, 900 + k), *outbuf;
    GstVideoFrame in;
    gint w, h, maxd = 0, unused;
    guint8 *src, *a, *b;
    CfxRefPlane rs, ra, rb;
    CfxRefDegrainParams rp = { CFX_REF_SHRINK_SOFT, 4, 60.0f, 4.0f, 1.0f, 0,
      CFX_DEGRAIN_WIENER_RADIUS
    };
    gsize i;
    gchar *what = g_strdup_printf ("auto levels %dx%d", cases[k].w,
        cases[k].h);

    /* the test can tell 4 from 5 levels on this frame */
    fail_unless (gst_video_frame_map (&in, &info, inbuf, GST_MAP_READ));
    src = extract (&in, 0, &w, &h, &unused);
    gst_video_frame_unmap (&in);
    a = g_malloc ((gsize) w * h);
    b = g_malloc ((gsize) w * h);
    rs.data = src;
    rs.stride = rs.width = w;
    rs.height = h;
    ra = rb = rs;
    ra.data = a;
    rb.data = b;
    cfx_ref_degrain_plane (&ra, &rs, &rp);
    rp.levels = 5;
    cfx_ref_degrain_plane (&rb, &rs, &rp);
    for (i = 0; i < (gsize) w * h; i++)
      maxd = MAX (maxd, ABS ((gint) a[i] - b[i]));
    fail_unless (maxd > 1, "4 and 5 levels differ by %d only", maxd);

    apply_settings (degrain, &set);
    outbuf = push_pull (hn, inbuf, 0);
    ok &= check_output (&info, inbuf, outbuf, &set, what);
    fail_unless_equals_int ((cases[k].w > 1920 || cases[k].h > 1080) ? 5 : 4,
        cases[k].levels);
    g_free (what);
    g_free (src);
    g_free (a);
    g_free (b);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    gst_object_unref (degrain);
    gst_harness_teardown (hn);
  }
  fail_unless (ok);
}

GST_END_TEST;

static const gchar *
enum_nick (GObject * obj, const gchar * prop)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (obj),
      prop);
  GValue v = G_VALUE_INIT;
  GEnumValue *ev;

  fail_unless (ps != NULL);
  g_value_init (&v, ps->value_type);
  g_object_get_property (obj, prop, &v);
  ev = g_enum_get_value (G_ENUM_CLASS (g_type_class_peek (ps->value_type)),
      g_value_get_enum (&v));
  g_value_unset (&v);
  fail_unless (ev != NULL);
  return ev->value_nick;
}

GST_START_TEST (test_element_defaults)
{
  GstElement *e = gst_element_factory_make ("cudadegrain", NULL);
  gdouble strength, luma, chroma, sigma, amount;
  gint levels;
  const gchar *props[] = { "shrink", "strength", "luma-strength",
    "chroma-strength", "sigma", "levels", "amount", "output", NULL
  };
  guint i;

  fail_unless (e != NULL);
  g_object_get (e, "strength", &strength, "luma-strength", &luma,
      "chroma-strength", &chroma, "sigma", &sigma, "levels", &levels,
      "amount", &amount, NULL);
  fail_unless_equals_float (strength, 1.0);
  fail_unless_equals_float (luma, 1.0);
  fail_unless_equals_float (chroma, 1.5);
  fail_unless_equals_float (sigma, 0.0);
  fail_unless_equals_int (levels, 0);
  fail_unless_equals_float (amount, 1.0);
  fail_unless_equals_string (enum_nick (G_OBJECT (e), "shrink"), "wiener");
  fail_unless_equals_string (enum_nick (G_OBJECT (e), "output"), "result");
  for (i = 0; props[i]; i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        props[i]);
    fail_unless (ps != NULL, "no property %s", props[i]);
    fail_unless (ps->flags & GST_PARAM_CONTROLLABLE, "%s", props[i]);
    fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING, "%s", props[i]);
    fail_unless (g_param_spec_get_blurb (ps) != NULL);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- pipelines and the bus message ------------------------------------ */

/* Runs @desc to EOS; returns the number of frames at the sink named
 * "sink" (fakesink) and the "cudadegrain" messages (a list to free) */
static guint frames_seen;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer d)
{
  frames_seen++;
}

static GList *
run_pipeline (GstElement * pipeline, guint * frames)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GList *messages = NULL;
  gboolean done = FALSE;

  fail_unless (sink != NULL);
  g_object_set (sink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), NULL);
  frames_seen = 0;
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);

    fail_unless (msg != NULL, "pipeline timed out");
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:{
        GError *err = NULL;
        gchar *dbg = NULL;
        gst_message_parse_error (msg, &err, &dbg);
        fail ("pipeline error: %s (%s)", err->message, dbg ? dbg : "");
        break;
      }
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      default:
        if (gst_message_has_name (msg, "cudadegrain")) {
          messages = g_list_append (messages, gst_message_ref (msg));
        }
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  *frames = frames_seen;
  gst_object_unref (sink);
  gst_object_unref (bus);
  return messages;
}

/* Checks one message's fields; returns sigma of component c */
static gdouble
message_sigma (GstMessage * msg, guint n_components, guint c,
    gboolean automatic)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *sig, *used;
  guint64 ts;
  gboolean a;
  gint levels;

  fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
  fail_unless (gst_structure_get_uint64 (s, "stream-time", &ts));
  fail_unless (gst_structure_get_uint64 (s, "running-time", &ts));
  fail_unless (gst_structure_get_boolean (s, "automatic", &a));
  fail_unless_equals_int (a, automatic);
  fail_unless (gst_structure_get_int (s, "levels", &levels));
  sig = gst_structure_get_value (s, "sigma");
  used = gst_structure_get_value (s, "sigma-used");
  fail_unless (sig && GST_VALUE_HOLDS_ARRAY (sig));
  fail_unless (used && GST_VALUE_HOLDS_ARRAY (used));
  fail_unless_equals_int (gst_value_array_get_size (sig), n_components);
  fail_unless_equals_int (gst_value_array_get_size (used), n_components);
  return g_value_get_double (gst_value_array_get_value (sig, c));
}

GST_START_TEST (test_pipelines)
{
  const gchar *fmts[] = { "I420", "UYVY" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=30 "
        "pattern=smpte ! video/x-raw,format=%s,width=640,height=360,"
        "framerate=10/1 ! cudaupload ! cudadegrain ! cudadownload ! "
        "video/x-raw,format=%s ! fakesink name=sink", fmts[f], fmts[f]);
    GstElement *pipeline = gst_parse_launch (desc, NULL);
    GList *messages, *l;
    guint frames;

    fail_unless (pipeline != NULL, "%s", desc);
    cfx_test_track_pipeline (pipeline);
    messages = run_pipeline (pipeline, &frames);
    fail_unless_equals_int (frames, 30);
    /* stream time 0 .. 2.9 s: messages at 0, 1 and 2 s */
    fail_unless_equals_int (g_list_length (messages), 3);
    for (l = messages; l; l = l->next) {
      gdouble s = message_sigma (l->data, 3, 0, TRUE);
      fail_unless (s >= 0.0 && s < 255.0);
    }
    g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
    gst_object_unref (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

/* Frames of known noise through appsrc: the message's estimate is the
 * noise level (within 10 %), for every component */
GST_START_TEST (test_message_estimate)
{
  const gchar *fmts[] = { "I420", "UYVY", "GRAY8" };
  const double noise = 12.0;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    gchar *desc = g_strdup_printf ("appsrc name=src format=time ! "
        "video/x-raw,format=%s,width=960,height=540,framerate=10/1 ! "
        "cudaupload ! cudadegrain ! cudadownload ! fakesink name=sink",
        fmts[f]);
    GstElement *pipeline = gst_parse_launch (desc, NULL);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    GstVideoInfo info;
    GList *messages, *l;
    guint frames, n, c, nc;

    cfx_test_track_pipeline (pipeline);
    gst_video_info_set_format (&info, gst_video_format_from_string (fmts[f]),
        960, 540);
    /* appsrc takes buffers once started */
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    nc = GST_VIDEO_INFO_N_COMPONENTS (&info);
    for (n = 0; n < 25; n++) {
      /* flat grey with white Gaussian noise in every component */
      GstBuffer *buf = cfx_test_random_frame (&info, n);
      GstVideoFrame vf;
      guint64 state = 40 + n;

      fail_unless (gst_video_frame_map (&vf, &info, buf, GST_MAP_WRITE));
      for (c = 0; c < nc; c++) {
        guint8 *d = GST_VIDEO_FRAME_COMP_DATA (&vf, c);
        gint x, y, ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, c);
        for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&vf, c); y++)
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&vf, c); x++)
            d[(gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (&vf, c) + (gsize) x *
                ps] = cfx_test_clip_u8 (128.0 + noise *
            cfx_test_gauss (&state));
      }
      gst_video_frame_unmap (&vf);
      GST_BUFFER_PTS (buf) = n * GST_SECOND / 10;
      GST_BUFFER_DURATION (buf) = GST_SECOND / 10;
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
              buf), GST_FLOW_OK);
    }
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    messages = run_pipeline (pipeline, &frames);
    fail_unless_equals_int (frames, 25);
    fail_unless_equals_int (g_list_length (messages), 3);
    for (l = messages; l; l = l->next)
      for (c = 0; c < nc; c++) {
        gdouble s = message_sigma (l->data, nc, c, TRUE);
        fail_unless (fabs (s / noise - 1.0) <= 0.10,
            "%s component %u: estimated %.3f for noise %.1f", fmts[f], c, s,
            noise);
      }
    g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
    gst_object_unref (src);
    gst_object_unref (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

static Suite *
degrain_suite (void)
{
  Suite *s = suite_create ("cudadegrain (GPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 900);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_element_defaults);
  tcase_add_test (tc, test_kernel_reconstruction);
  tcase_add_test (tc, test_kernel_against_reference);
  tcase_add_test (tc, test_kernel_channels);
  tcase_add_test (tc, test_kernel_arguments);
  tcase_add_test (tc, test_kernel_estimate);
  tcase_add_test (tc, test_quality_skimage);
  tcase_add_test (tc, test_element_formats);
  tcase_add_test (tc, test_kernel_16bit);
  tcase_add_test (tc, test_element_16bit_formats);
  tcase_add_test (tc, test_quality_10bit);
  tcase_add_test (tc, test_element_auto_sigma);
  tcase_add_test (tc, test_element_live_properties);
  tcase_add_test (tc, test_element_auto_levels);
  tcase_add_test (tc, test_pipelines);
  tcase_add_test (tc, test_message_estimate);
  return s;
}

int
main (int argc, char **argv)
{
  return cfx_test_gpu_main (&argc, &argv, "degrain", degrain_suite);
}
