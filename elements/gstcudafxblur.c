/**
 * SECTION:element-cudablur
 * @title: cudablur
 *
 * Gaussian or box blur of device frames, every plane at memory speed and
 * in a time that does not depend on the size of the blur; or, with a
 * negative size, sharpening (the unsharp mask of that blur).
 *
 * - `method=gaussian` (the default): `sigma` is the standard deviation in
 *   luma pixels. Up to sigma 16 on a plane (and at any sigma on planes at
 *   most 49 pixels across, where the mirrored borders fold the kernel) the
 *   blur is the exact separable Gaussian (kernel radius ceil (3 sigma),
 *   normalised, mirrored borders) on the tensor cores, every output within
 *   1 of a double-precision reference. Above, it is computed on a grid
 *   decimated by a power of two (sigma / 4 to sigma / 8 samples per cell,
 *   with the cells' first moments) and upsampled with a cubic B-spline:
 *   the same time for sigma 20 or 200, within 1 of the exact Gaussian on
 *   all content tested (before rounding, 0.6 at most). All planes of a
 *   frame go through one launch per kernel.
 * - `method=box`: the exact mean of a (2 `radius` + 1) square, rounded half
 *   up, for any radius.
 *
 * Formats of 10 to 16 bits (P010, P016, I420_10LE, I422_10LE, Y444_10LE,
 * Y444_16LE, GRAY16_LE and the others of the 16-bit list) get the same
 * Gaussian and box in units of their own depth, computed by direct sums
 * (float sums up to radius 64 and double above for the Gaussian, every
 * output within 1 of the double-precision reference; integers for the
 * box, exact): correct at every size, but
 * slower than the 8-bit paths, and slower the larger the blur. Their
 * unused bits are ignored on input and written 0.

 * Borders are mirrored (reflect without repeating the edge sample), for
 * any blur size, frames down to 1x1 included.
 *
 * Sizes are in luma pixels, so the blur looks the same on every plane:
 * on a plane subsampled by s along an axis (chroma of I420, NV12, Y42B,
 * UYVY, YUY2), sigma is sigma / s and the box radius max (1, (radius +
 * s / 2) / s) along that axis.
 *
 * `fields=auto` (the default) blurs each field of interlaced frames
 * (caps `interlace-mode=interleaved`, or `mixed` with the buffer's
 * INTERLACED flag) as an image of its own, so the fields never mix: the
 * vertical pass steps two rows. A field row is two frame rows apart, so
 * the same rule holds: vertically, sigma is halved and the box radius
 * scaled by 2 (by 4 on 4:2:0 chroma), and the blur covers the same
 * picture height as on a progressive frame. `fields=frame` blurs every
 * frame as one image.
 *
 * A negative `sigma` (method=gaussian) or `radius` (method=box) sharpens
 * instead: the unsharp mask out = x + `amount` (x - blur (x)) of the
 * blur of size |sigma| or |radius|, clamped to the sample's range, so
 * `amount=1` (the default) is 2 x - blur (x), the convention of
 * GStreamer's gaussianblur. It is computed in integers from the blur's
 * rounded output, in the blur's last kernel (no pass more): amount is
 * taken in steps of 1/256, and the result is floor (x + (A (x - b) +
 * 128) / 256) with b the rounded blur and A = amount * 256 rounded, so
 * the box's unsharp mask is exact and the Gaussian's off the unsharp
 * mask of the exact Gaussian by at most ceil (amount) times the blur's
 * own error (1 up to sigma 16, 2 above). `amount` only
 * matters while sharpening. Each method reads its own size: a negative
 * sigma with method=box changes nothing (the box blurs or sharpens by the
 * sign of radius), as a negative radius with method=gaussian. sigma=0
 * (gaussian) and radius=0 (box) copy the frame.
 *
 * `planes` selects luma, chroma or both; planes (and, in UYVY and YUY2,
 * components) not blurred are copied. Every property can change while
 * playing (and be controlled): a change takes effect at the next frame.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=1920,height=1080 ! \
 *     cudafxupload ! cudablur sigma=5 ! cudafxdownload ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=UYVY,width=1920,height=1080,interlace-mode=interleaved ! \
 *     cudafxupload ! cudablur method=box radius=20 planes=chroma ! cudafxdownload ! fakesink
 * ]|
 * Sharpening the luma (the unsharp mask of a Gaussian of sigma 1.5, half
 * strength):
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=1920,height=1080 ! \
 *     cudafxupload ! cudablur sigma=-1.5 amount=0.5 planes=luma ! cudafxdownload ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxblur.h"
#include "cudafx-kernels.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_blur_debug

#define DEFAULT_METHOD GST_CUDA_FX_BLUR_METHOD_GAUSSIAN
#define DEFAULT_SIGMA 2.0
/* |sigma| and |radius| at most; negative ones sharpen */
#define MAX_SIGMA 200.0
/* the box of radius 3 has about the default sigma: sqrt (3 * 4 / 3) = 2 */
#define DEFAULT_RADIUS 3
#define MAX_RADIUS 500
#define DEFAULT_AMOUNT 1.0
#define MAX_AMOUNT ((gdouble) CFX_BLUR_MAX_AMOUNT / CFX_BLUR_AMOUNT_ONE)
#define DEFAULT_PLANES GST_CUDA_FX_BLUR_PLANES_ALL
#define DEFAULT_FIELDS GST_CUDA_FX_BLUR_FIELDS_AUTO

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_SIGMA,
  PROP_RADIUS,
  PROP_PLANES,
  PROP_FIELDS,
  PROP_AMOUNT,
};

struct _GstCudaFxBlur
{
  GstCudaFxFilter parent;

  /* properties, with the object lock (the base class's fields) */
  GstCudaFxBlurMethod method;
  gdouble sigma;
  gint radius;
  GstCudaFxBlurPlanes planes;
  GstCudaFxBlurFields fields;
  gdouble amount;

  /* the kernels' state, with scratch for every blur the caps allow
   * (set_info, stream lock); used only on the element's stream */
  CfxBlur *blur;
};

G_DEFINE_TYPE (GstCudaFxBlur, gst_cuda_fx_blur, GST_TYPE_CUDA_FX_FILTER);

GType
gst_cuda_fx_blur_method_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_BLUR_METHOD_GAUSSIAN, "Gaussian of standard deviation sigma",
        "gaussian"},
    {GST_CUDA_FX_BLUR_METHOD_BOX, "Box: the mean of a (2 radius + 1) square",
        "box"},
    {0, NULL, NULL},
  };

  return gst_cuda_fx_enum_register (&type, "GstCudaFxBlurMethod", values);
}

GType
gst_cuda_fx_blur_planes_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_BLUR_PLANES_ALL, "Luma and chroma", "all"},
    {GST_CUDA_FX_BLUR_PLANES_LUMA, "Luma only (chroma copied)", "luma"},
    {GST_CUDA_FX_BLUR_PLANES_CHROMA, "Chroma only (luma copied)", "chroma"},
    {0, NULL, NULL},
  };

  return gst_cuda_fx_enum_register (&type, "GstCudaFxBlurPlanes", values);
}

GType
gst_cuda_fx_blur_fields_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_BLUR_FIELDS_AUTO,
        "Auto: each field of interlaced frames on its own", "auto"},
    {GST_CUDA_FX_BLUR_FIELDS_FRAME, "Frame: every frame as one image",
        "frame"},
    {0, NULL, NULL},
  };

  return gst_cuda_fx_enum_register (&type, "GstCudaFxBlurFields", values);
}

#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)

#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)

/* Subsampling of component c along x and y (1, 2) */
static gint
sub_x (const GstVideoFormatInfo * finfo, guint c)
{
  return 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
}

static gint
sub_y (const GstVideoFormatInfo * finfo, guint c)
{
  return 1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
}

static gboolean
gst_cuda_fx_blur_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaFxBlur *self = GST_CUDA_FX_BLUR (filter);
  const GstVideoFormatInfo *finfo = in_info->finfo;
  gboolean fields = GST_VIDEO_INFO_IS_INTERLACED (in_info)
      && GST_VIDEO_INFO_INTERLACE_MODE (in_info) !=
      GST_VIDEO_INTERLACE_MODE_ALTERNATE;
  CfxBlurComponent comps[GST_VIDEO_MAX_COMPONENTS];
  gsize need;
  cudaError_t err;
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (in_info); c++) {
    comps[c].width = GST_VIDEO_INFO_COMP_WIDTH (in_info, c);
    comps[c].height = GST_VIDEO_INFO_COMP_HEIGHT (in_info, c);
    comps[c].depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
    comps[c].sub_x = sub_x (finfo, c);
    comps[c].sub_y = sub_y (finfo, c);
  }
  /* enough for every sigma, radius and field mode the properties allow,
   * so property changes never allocate */
  need = cfx_blur_scratch_bytes (comps, GST_VIDEO_INFO_N_COMPONENTS (in_info),
      fields ? 2 : 1, MAX_SIGMA);
  if (!self->blur)
    self->blur = cfx_blur_new ();
  err = gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
      (filter));
  if (err == cudaSuccess)
    err = cfx_blur_reserve (self->blur, need);
  if (!gst_cuda_fx_check (filter, err, "cudaMalloc of %" G_GSIZE_FORMAT
          " bytes of blur scratch for %dx%d %s", need,
          GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
          GST_VIDEO_INFO_NAME (in_info)))
    return FALSE;
  GST_DEBUG_OBJECT (self, "%" G_GSIZE_FORMAT " bytes of scratch", need);
  return TRUE;
}

static gboolean
component_selected (GstCudaFxBlurPlanes planes, guint c)
{
  /* component 0 is Y (or GRAY), 1 and 2 are U and V in every format */
  switch (planes) {
    case GST_CUDA_FX_BLUR_PLANES_LUMA:
      return c == 0;
    case GST_CUDA_FX_BLUR_PLANES_CHROMA:
      return c != 0;
    default:
      return TRUE;
  }
}

/* Whether blurring writes every component of plane @p */
static gboolean
plane_selected (const GstVideoFormatInfo * finfo, guint p,
    GstCudaFxBlurPlanes planes)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  gboolean covered = TRUE;
  guint i;

  gst_video_format_info_component (finfo, p, comp);
  for (i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++)
    covered &= component_selected (planes, comp[i]);
  return covered;
}

static GstFlowReturn
gst_cuda_fx_blur_process (GstCudaFxFilter * filter, GstCudaFxFrame * in,
    GstCudaFxFrame * out, cudaStream_t stream)
{
  GstCudaFxBlur *self = GST_CUDA_FX_BLUR (filter);
  const GstVideoFormatInfo *finfo = in->video.info.finfo;
  GstCudaFxBlurMethod method;
  GstCudaFxBlurPlanes planes;
  GstCudaFxBlurFields fields;
  gdouble sigma, amount;
  gint radius, step, n = 0;
  gboolean sharpen;
  gint amount_q8;
  cudaError_t err = cudaSuccess;
  CfxBlurChannel channels[GST_VIDEO_MAX_COMPONENTS];
  guint p, c;

  /* the properties as they are now, for the whole frame */
  GST_OBJECT_LOCK (self);
  method = self->method;
  sigma = self->sigma;
  radius = self->radius;
  planes = self->planes;
  fields = self->fields;
  amount = self->amount;
  GST_OBJECT_UNLOCK (self);

  /* each method reads its own size: its sign sharpens, 0 copies */
  sharpen = method == GST_CUDA_FX_BLUR_METHOD_GAUSSIAN ? sigma < 0.0 :
      radius < 0;
  sigma = fabs (sigma);
  radius = ABS (radius);
  if (method == GST_CUDA_FX_BLUR_METHOD_GAUSSIAN ? sigma == 0.0 :
      radius == 0) {
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&in->video)
        && err == cudaSuccess; p++)
      err = gst_cuda_fx_frame_copy_plane (out, in, p);
    if (!gst_cuda_fx_check (filter, err, "Copying a frame (blur of size 0)"))
      return GST_FLOW_ERROR;
    return GST_FLOW_OK;
  }
  /* amount in the kernels' 1/256 steps, rounded to nearest */
  amount_q8 = (gint) floor (amount * CFX_BLUR_AMOUNT_ONE + 0.5);

  step = fields == GST_CUDA_FX_BLUR_FIELDS_AUTO
      && GST_VIDEO_FRAME_IS_INTERLACED (&in->video)
      && GST_VIDEO_INFO_INTERLACE_MODE (&in->video.info) !=
      GST_VIDEO_INTERLACE_MODE_ALTERNATE ? 2 : 1;

  /* planes with a component left alone are copied, then blurred over */
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&in->video) && err == cudaSuccess;
      p++)
    if (!plane_selected (finfo, p, planes))
      err = gst_cuda_fx_frame_copy_plane (out, in, p);
  if (!gst_cuda_fx_check (filter, err, "Copying the planes cudablur leaves "
          "alone"))
    return GST_FLOW_ERROR;

  for (c = 0; c < in->n_components; c++)
    if (component_selected (planes, c)) {
      channels[n] = cfx_blur_channel (out->comp[c], in->comp[c], sigma,
          radius, sub_x (finfo, c), sub_y (finfo, c) * step);
      channels[n].sharpen = sharpen;
      channels[n].amount = amount_q8;
      n++;
    }

  /* every component in one launch per kernel */
  if (method == GST_CUDA_FX_BLUR_METHOD_GAUSSIAN)
    err = cfx_blur_gaussian_frame (self->blur, channels, n, step, stream);
  else
    err = cfx_blur_box_frame (self->blur, channels, n, step, stream);
  if (!gst_cuda_fx_check (filter, err, "%s %d components of a %dx%d "
          "%s frame (%s)", sharpen ? "Sharpening" : "Blurring", n,
          GST_VIDEO_FRAME_WIDTH (&in->video),
          GST_VIDEO_FRAME_HEIGHT (&in->video),
          GST_VIDEO_INFO_NAME (&in->video.info),
          method == GST_CUDA_FX_BLUR_METHOD_GAUSSIAN ? "gaussian" : "box"))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_fx_blur_stop (GstBaseTransform * trans)
{
  GstCudaFxBlur *self = GST_CUDA_FX_BLUR (trans);

  if (self->blur) {
    gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
        (GST_CUDA_FX_FILTER (self)));
    cfx_blur_free (self->blur);
    self->blur = NULL;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_blur_parent_class)->stop (trans);
}

#define FIELD(f) G_STRUCT_OFFSET (GstCudaFxBlur, f)

static void
gst_cuda_fx_blur_class_init (GstCudaFxBlurClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  gst_cuda_fx_filter_class_install_property (filter_class, PROP_METHOD,
      FIELD (method), g_param_spec_enum ("method", "Method",
          "gaussian (of standard deviation sigma) or box (the mean of a "
          "(2 radius + 1) square)", GST_TYPE_CUDA_FX_BLUR_METHOD,
          DEFAULT_METHOD, flags));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_SIGMA,
      FIELD (sigma), g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in luma pixels (scaled to "
          "subsampled chroma and to fields); up to 16 exact, above computed "
          "on a decimated grid, in the same time for any sigma; negative: "
          "sharpen (unsharp mask of the Gaussian of -sigma, see amount), "
          "0: copy (method=gaussian only)",
          -MAX_SIGMA, MAX_SIGMA, DEFAULT_SIGMA, flags));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_RADIUS,
      FIELD (radius), g_param_spec_int ("radius", "Radius",
          "Half size of the box in luma pixels (method=box only; scaled to "
          "subsampled chroma and to fields, at least 1); negative: sharpen "
          "(unsharp mask of the box of -radius, see amount), 0: copy",
          -MAX_RADIUS, MAX_RADIUS, DEFAULT_RADIUS, flags));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_PLANES,
      FIELD (planes), g_param_spec_enum ("planes", "Planes",
          "Which planes to blur; the others are copied",
          GST_TYPE_CUDA_FX_BLUR_PLANES, DEFAULT_PLANES, flags));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_FIELDS,
      FIELD (fields), g_param_spec_enum ("fields", "Fields",
          "auto: blur each field of interlaced frames on its own (the fields "
          "never mix); frame: every frame as one image",
          GST_TYPE_CUDA_FX_BLUR_FIELDS, DEFAULT_FIELDS, flags));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_AMOUNT,
      FIELD (amount), g_param_spec_double ("amount", "Amount",
          "Strength of the sharpening (negative sigma or radius): out = x + "
          "amount (x - blur), clamped, in steps of 1/256; 1: 2 x - blur "
          "(gaussianblur's convention), 0: a copy; ignored while blurring",
          0.0, MAX_AMOUNT, DEFAULT_AMOUNT, flags));

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX blur", "Filter/Effect/Video/Hardware",
      "Gaussian and box blur (or unsharp-mask sharpening) of device frames, "
      "any size at memory speed",
      "gst-cudafx developers");

  trans_class->stop = gst_cuda_fx_blur_stop;
  filter_class->set_info = gst_cuda_fx_blur_set_info;
  filter_class->process = gst_cuda_fx_blur_process;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_BLUR_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_BLUR_PLANES, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_BLUR_FIELDS, 0);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_blur_debug, "cudablur", 0,
      "cudablur element");
}

static void
gst_cuda_fx_blur_init (GstCudaFxBlur * self)
{
  /* (the properties start at their defaults: the base class sets them) */
}
