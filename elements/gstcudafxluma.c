/**
 * SECTION:element-cudaluma
 * @title: cudaluma
 *
 * Outputs the luma (Y) plane of device frames as GRAY8 device frames: same
 * size, timestamps, flags and interlacing. Luma interleaved with chroma
 * (packed 4:2:2: UYVY, YUY2, what broadcast capture cards deliver) goes
 * through a kernel running at memory speed; planar formats copy their Y
 * plane on the GPU; GRAY8 passes through. Formats of 10 to 16 bits
 * (P010_10LE, I420_10LE, Y444_16LE ...) give GRAY16_LE, their samples
 * scaled to 16 bits (a 10-bit v becomes v << 6 | v >> 4: black stays 0,
 * the largest value becomes 65535, as GRAY16_LE means) and their unused
 * bits ignored; GRAY16_LE passes through.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=UYVY,width=1920,height=1080 ! \
 *     cudafxupload ! cudaluma ! cudafxdownload ! video/x-raw,format=GRAY8 ! autovideosink
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=P010_10LE,width=1920,height=1080 ! \
 *     cudafxupload ! cudaluma ! cudafxdownload ! video/x-raw,format=GRAY16_LE ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxluma.h"
#include "cudafx-kernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_luma_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_luma_debug

struct _GstCudaFxLuma
{
  GstCudaFxFilter parent;
};

G_DEFINE_TYPE (GstCudaFxLuma, gst_cuda_fx_luma, GST_TYPE_CUDA_FX_FILTER);

#define FORMATS_8BIT "{ " GST_CUDA_FX_FORMATS_8BIT " }"
#define FORMATS_16BIT "{ " GST_CUDA_FX_FORMATS_16BIT " }"

#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)

#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS ("{ GRAY8, GRAY16_LE }")

/* The formats of the other side of each family that a structure's
 * "format" (any, when it has none) touches: 8-bit formats give GRAY8 and
 * take it, 16-bit ones GRAY16_LE */
static GstCaps *
add_counterparts (GstCaps * ret, const GstStructure * in, gboolean to_gray)
{
  static const gchar *family[2][2] = {
    {FORMATS_8BIT, "GRAY8"}, {FORMATS_16BIT, "GRAY16_LE"}
  };
  const GValue *have = gst_structure_get_value (in, "format");
  guint f;

  for (f = 0; f < 2; f++) {
    GstStructure *s;
    GValue mine = G_VALUE_INIT, theirs = G_VALUE_INIT;

    g_value_init (&mine, to_gray ? GST_TYPE_LIST : G_TYPE_STRING);
    g_value_init (&theirs, to_gray ? G_TYPE_STRING : GST_TYPE_LIST);
    gst_value_deserialize (&mine, family[f][to_gray ? 0 : 1]);
    gst_value_deserialize (&theirs, family[f][to_gray ? 1 : 0]);
    if (!have || gst_value_intersect (NULL, have, &mine)) {
      /* same size, rate and interlacing; only the format (and with it
       * the colour description) changes */
      s = gst_structure_copy (in);
      gst_structure_set_value (s, "format", &theirs);
      gst_structure_remove_fields (s, "colorimetry", "chroma-site", NULL);
      ret = gst_caps_merge_structure_full (ret, s,
          gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_FX, NULL));
    }
    g_value_unset (&mine);
    g_value_unset (&theirs);
  }
  return ret;
}

static GstCaps *
gst_cuda_fx_luma_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    ret = add_counterparts (ret, gst_caps_get_structure (caps, i),
        direction == GST_PAD_SINK);
  return gst_cuda_fx_caps_apply_filter (gst_cuda_fx_caps_add_interop (ret),
      filter);
}

static gboolean
gst_cuda_fx_luma_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  /* luma only already */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (filter),
      GST_VIDEO_INFO_FORMAT (in_info) == GST_VIDEO_INFO_FORMAT (out_info));
  return TRUE;
}

/* Component 0 is the luma of every format: a plane of its own, or
 * interleaved with the chroma (packed 4:2:2) */
static GstFlowReturn
gst_cuda_fx_luma_process (GstCudaFxFilter * filter, GstCudaFxFrame * in,
    GstCudaFxFrame * out, cudaStream_t stream)
{
  if (!gst_cuda_fx_check (filter, cfx_luma_copy (out->comp[0], in->comp[0],
              stream), "Extracting luma of a %dx%d %s frame",
          GST_VIDEO_FRAME_WIDTH (&in->video),
          GST_VIDEO_FRAME_HEIGHT (&in->video),
          GST_VIDEO_INFO_NAME (&in->video.info)))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static void
gst_cuda_fx_luma_class_init (GstCudaFxLumaClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX luma", "Filter/Converter/Video/Hardware",
      "Extracts the luma plane of device frames as GRAY8 (GRAY16_LE from "
      "10 to 16-bit formats)",
      "gst-cudafx developers");

  trans_class->transform_caps = gst_cuda_fx_luma_transform_caps;
  filter_class->set_info = gst_cuda_fx_luma_set_info;
  filter_class->process = gst_cuda_fx_luma_process;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_luma_debug, "cudaluma", 0,
      "cudaluma element");
}

static void
gst_cuda_fx_luma_init (GstCudaFxLuma * self)
{
}
