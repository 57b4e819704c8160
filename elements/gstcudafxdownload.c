/**
 * SECTION:element-cudadownload
 * @title: cudadownload
 *
 * Copies video frames from CUDA device memory (`memory:CUDAFxMemory`) into
 * pinned system memory from its own pool. This is one of the two places
 * where the host waits for the GPU: for this frame's copy alone, on the
 * element's own stream. Frames already in system memory pass through.
 *
 * `cudafxdownload` is the same element under a name gst-plugins-bad's
 * nvcodec plugin does not also use.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=300 ! video/x-raw,format=UYVY,width=1920,height=1080 ! \
 *     cudafxupload ! "video/x-raw(memory:CUDAFxMemory)" ! cudafxdownload ! filesink location=out.uyvy
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxdownload.h"
#include "gstcudafxv210.h"

/* the host polls for its copy about as long as the copy should take at
 * half the link's speed, then sleeps */
#define DOWNLOAD_BYTES_PER_US 25000

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_download_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_download_debug

struct _GstCudaFxDownload
{
  GstCudaFxFilter parent;

  GstCudaFxV210 v210;
};

G_DEFINE_TYPE (GstCudaFxDownload, gst_cuda_fx_download,
    GST_TYPE_CUDA_FX_FILTER);

#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_TRANSFER_FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE (GST_CUDA_FX_SYSTEM_FORMATS)

#define SRC_CAPS GST_VIDEO_CAPS_MAKE (GST_CUDA_FX_SYSTEM_FORMATS)

static GstCaps *
gst_cuda_fx_download_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  /* sink: device or system memory becomes system memory; src: system
   * memory comes from device memory, or passes through */
  GstCaps *ret = direction == GST_PAD_SINK ?
      gst_cuda_fx_caps_transfer (caps, FALSE) :
      gst_caps_merge (gst_cuda_fx_caps_transfer (caps, TRUE),
      gst_caps_ref (caps));

  ret = gst_cuda_fx_caps_apply_filter (ret, filter);
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

static gboolean
gst_cuda_fx_download_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaFxDownload *self = GST_CUDA_FX_DOWNLOAD (filter);

  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (filter),
      !gst_cuda_fx_caps_are_device (incaps));
  return gst_cuda_fx_v210_set_info (&self->v210, filter, out_info, in_info);
}

static gboolean
gst_cuda_fx_download_stop (GstBaseTransform * trans)
{
  GstCudaFxDownload *self = GST_CUDA_FX_DOWNLOAD (trans);

  gst_cuda_fx_v210_stop (&self->v210, GST_CUDA_FX_FILTER (trans));
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_download_parent_class)->stop (trans);
}

static gboolean
gst_cuda_fx_download_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  if (!decide_query)            /* passthrough: downstream answers */
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_download_parent_class)
        ->propose_allocation (trans, decide_query, query);

  return gst_cuda_fx_filter_propose_device_pool (GST_CUDA_FX_FILTER (trans),
      query, 2);
}

static gboolean
gst_cuda_fx_download_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCaps *caps;
  GstBufferPool *pool;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;

  /* Always our pinned pool: downstream's would make the copy engine go
   * through a staging buffer. Keep its buffer counts. */
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, &size, &min, &max);
  min = MAX (min, 2);
  if (max && max < min)
    max = min;

  pool = gst_cuda_fx_host_buffer_pool_new (caps, min, max);
  if (!pool) {
    GST_ELEMENT_ERROR (trans, RESOURCE, SETTINGS, (NULL),
        ("Cannot make a pinned pool for %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

static GstFlowReturn
gst_cuda_fx_download_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaFxDownload *self = GST_CUDA_FX_DOWNLOAD (trans);
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  const GstVideoInfo *info = gst_cuda_fx_filter_get_out_info (filter);
  GstCudaFxFrame in;
  GstVideoFrame out;
  cudaError_t err;

  if (!gst_cuda_fx_filter_make_current (filter))
    return GST_FLOW_ERROR;
  if (!gst_cuda_fx_filter_map_frame (filter, &in,
          gst_cuda_fx_filter_get_in_info (filter), inbuf, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&out, info, outbuf, GST_MAP_WRITE)) {
    gst_cuda_fx_filter_unmap_frame (filter, &in);
    GST_ELEMENT_ERROR (trans, RESOURCE, WRITE, (NULL),
        ("Cannot map the output buffer"));
    return GST_FLOW_ERROR;
  }

  err = self->v210.active ? gst_cuda_fx_v210_download (&self->v210, &out,
      &in) : gst_cuda_fx_frame_download (&out, &in);
  if (!gst_cuda_fx_filter_unmap_frame (filter, &in)) {
    gst_video_frame_unmap (&out);
    return GST_FLOW_ERROR;
  }
  /* The CPU needs the bytes: wait for this element's copies alone */
  if (err == cudaSuccess)
    err = gst_cuda_fx_context_wait_stream (gst_cuda_fx_filter_get_context
        (filter), gst_cuda_fx_filter_get_stream (filter),
        GST_CUDA_FX_WAIT_POLL_US + GST_VIDEO_INFO_SIZE (info) /
        DOWNLOAD_BYTES_PER_US);
  gst_video_frame_unmap (&out);
  if (!gst_cuda_fx_check (trans, err, "Downloading a %dx%d %s frame",
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info)))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static void
gst_cuda_fx_download_class_init (GstCudaFxDownloadClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX download", "Filter/Video/Hardware",
      "Copies video frames from CUDA device memory to system memory",
      "gst-cudafx developers");

  trans_class->transform_caps = gst_cuda_fx_download_transform_caps;
  trans_class->propose_allocation = gst_cuda_fx_download_propose_allocation;
  trans_class->decide_allocation = gst_cuda_fx_download_decide_allocation;
  trans_class->transform = gst_cuda_fx_download_transform;
  trans_class->stop = gst_cuda_fx_download_stop;
  filter_class->set_info = gst_cuda_fx_download_set_info;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_download_debug, "cudafxdownload", 0,
      "cudadownload element");
}

static void
gst_cuda_fx_download_init (GstCudaFxDownload * self)
{
}
