/**
 * SECTION:element-cudaupload
 * @title: cudaupload
 *
 * Copies system-memory video frames into CUDA device memory
 * (`memory:CUDAFxMemory`) for the other cudafx elements. Upstream is offered
 * a pool of pinned host buffers, so a producer writes frames where the copy
 * engine reads them at full PCIe speed; the copy runs asynchronously on the
 * element's own CUDA stream and nothing waits for it on the host. Frames
 * already in device memory pass through.
 *
 * Frames in pageable memory (a producer that did not take the pool:
 * filesrc, most decoders and capture sources) are first copied into pinned
 * staging frames by #GstCudaFxUpload:copy-threads threads, whose copies
 * overlap the earlier frames' copies to the GPU: the driver's own path
 * from pageable memory runs at a quarter of the link's speed.
 *
 * `cudafxupload` is the same element under a name gst-plugins-bad's nvcodec
 * plugin does not also use.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=UYVY,width=1920,height=1080 ! \
 *     cudafxupload ! "video/x-raw(memory:CUDAFxMemory)" ! cudafxdownload ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxupload.h"
#include "gstcudafxv210.h"
#include "gstcudafxstaging.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_upload_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_upload_debug

/* pinned buffers proposed upstream: frames in flight plus the producer's */
#define HOST_POOL_MIN_BUFFERS 4

#define DEFAULT_COPY_THREADS 0
#define MAX_COPY_THREADS 64

enum
{
  PROP_0,
  PROP_COPY_THREADS,
};

struct _GstCudaFxUpload
{
  GstCudaFxFilter parent;

  GstCudaFxV210 v210;
  /* frames from pageable memory go through it; NULL in passthrough */
  GstCudaFxStaging *staging;
  guint copy_threads;           /* property; the staging reads it at caps */
};

G_DEFINE_TYPE (GstCudaFxUpload, gst_cuda_fx_upload, GST_TYPE_CUDA_FX_FILTER);

#define SINK_CAPS GST_VIDEO_CAPS_MAKE (GST_CUDA_FX_SYSTEM_FORMATS) "; " \
    GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_TRANSFER_FORMATS)

#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_TRANSFER_FORMATS)

static GstCaps *
gst_cuda_fx_upload_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  /* sink: system memory becomes device memory, device memory passes
   * through; src: device frames come from system memory, or pass through */
  GstCaps *ret = direction == GST_PAD_SINK ?
      gst_cuda_fx_caps_transfer (caps, TRUE) :
      gst_caps_merge (gst_cuda_fx_caps_transfer (caps, FALSE),
      gst_caps_ref (caps));

  ret = gst_cuda_fx_caps_apply_filter (ret, filter);
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

static gboolean
gst_cuda_fx_upload_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaFxUpload *self = GST_CUDA_FX_UPLOAD (filter);

  gboolean device = gst_cuda_fx_caps_are_device (incaps);
  guint threads;

  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (filter), device);
  g_clear_pointer (&self->staging, gst_cuda_fx_staging_free);
  GST_OBJECT_LOCK (self);
  threads = self->copy_threads;
  GST_OBJECT_UNLOCK (self);
  if (!device) {
    /* the pinned pool's allocations belong to the element's device: a
     * streaming thread has no current device of its own yet */
    (void) gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
        (filter));
    self->staging = gst_cuda_fx_staging_new (incaps, threads);
    if (!self->staging)
      GST_WARNING_OBJECT (self, "no pinned staging for %" GST_PTR_FORMAT
          ": frames in pageable memory take the driver's slower path",
          incaps);
  }
  return gst_cuda_fx_v210_set_info (&self->v210, filter, in_info, out_info);
}

static gboolean
gst_cuda_fx_upload_stop (GstBaseTransform * trans)
{
  GstCudaFxUpload *self = GST_CUDA_FX_UPLOAD (trans);

  gst_cuda_fx_v210_stop (&self->v210, GST_CUDA_FX_FILTER (trans));
  g_clear_pointer (&self->staging, gst_cuda_fx_staging_free);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_upload_parent_class)->stop (trans);
}

static gboolean
gst_cuda_fx_upload_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCaps *caps;
  GstBufferPool *pool;
  GstAllocator *allocator;
  GstAllocationParams params;
  GstStructure *config;
  guint size;

  if (!decide_query)            /* passthrough: downstream answers */
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_upload_parent_class)
        ->propose_allocation (trans, decide_query, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;
  if (gst_cuda_fx_caps_are_device (caps))
    return gst_cuda_fx_filter_propose_device_pool (GST_CUDA_FX_FILTER (trans),
        query, 2);

  pool = gst_cuda_fx_host_buffer_pool_new (caps, HOST_POOL_MIN_BUFFERS, 0);
  if (!pool)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);

  allocator = gst_cuda_fx_host_allocator_get ();
  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, allocator, &params);
  gst_query_add_allocation_pool (query, pool, size, HOST_POOL_MIN_BUFFERS, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (allocator);
  gst_object_unref (pool);
  return TRUE;
}

/* Whether a copy from @mem may still be reading it after it was queued:
 * our pinned memory, or memory someone else page-locked. From pageable
 * memory the copy has taken the bytes before it returns. Each memory is
 * asked on its own: mapping the buffer whole would merge several memories
 * into a pageable copy. */
static gboolean
memory_is_pinned (GstMemory * mem)
{
  struct cudaPointerAttributes attr;
  GstMapInfo map;
  gboolean pinned;

  if (gst_is_cuda_fx_host_memory (mem))
    return TRUE;
  if (!gst_memory_map (mem, &map, GST_MAP_READ))
    return FALSE;
  pinned = cudaPointerGetAttributes (&attr, map.data) == cudaSuccess
      && attr.type == cudaMemoryTypeHost;
  gst_memory_unmap (mem, &map);
  cudaGetLastError ();          /* clear a sticky "invalid value" */
  return pinned;
}

static gboolean
buffer_has_pinned_memory (GstBuffer * buf)
{
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++)
    if (memory_is_pinned (gst_buffer_peek_memory (buf, i)))
      return TRUE;
  return FALSE;
}

static GstFlowReturn
gst_cuda_fx_upload_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaFxUpload *self = GST_CUDA_FX_UPLOAD (trans);
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  const GstVideoInfo *info = gst_cuda_fx_filter_get_in_info (filter);
  GstCudaFxContext *context = gst_cuda_fx_filter_get_context (filter);
  GstVideoFrame in, staged;
  GstCudaFxFrame out;
  GstBuffer *staged_buf = NULL;
  gboolean pinned, unmapped;
  cudaError_t err;

  if (!gst_cuda_fx_filter_make_current (filter))
    return GST_FLOW_ERROR;
  /* decided before the copy, on the memories the copy reads */
  pinned = buffer_has_pinned_memory (inbuf);
  if (!gst_video_frame_map (&in, info, inbuf, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (trans, STREAM, FORMAT, (NULL),
        ("Input buffer of %" G_GSIZE_FORMAT " bytes does not hold a %dx%d "
            "%s frame (%" G_GSIZE_FORMAT " bytes)", gst_buffer_get_size (inbuf),
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
            GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_SIZE (info)));
    return GST_FLOW_ERROR;
  }
  /* pageable: the copy to the GPU reads a pinned copy, which goes back to
   * the staging's pool once that copy is done */
  if (!pinned && self->staging
      && (staged_buf = gst_cuda_fx_staging_copy (self->staging, &in,
              &staged))) {
    gst_video_frame_unmap (&in);
    in = staged;
    inbuf = staged_buf;
    pinned = TRUE;
  }
  if (!gst_cuda_fx_filter_map_frame (filter, &out,
          gst_cuda_fx_filter_get_out_info (filter), outbuf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in);
    if (staged_buf)
      gst_buffer_unref (staged_buf);
    return GST_FLOW_ERROR;
  }
  err = self->v210.active ? gst_cuda_fx_v210_upload (&self->v210, &out,
      &in) : gst_cuda_fx_frame_upload (&out, &in);
  unmapped = gst_cuda_fx_filter_unmap_frame (filter, &out);
  gst_video_frame_unmap (&in);

  /* From pinned memory the copy may still be running, also when queueing
   * part of it failed: keep the input alive (out of its pool) until the
   * stream is past it, without waiting for it here. */
  if (pinned)
    gst_cuda_fx_context_release_after (context,
        gst_cuda_fx_filter_get_stream (filter), gst_buffer_ref (inbuf));
  if (staged_buf)
    gst_buffer_unref (staged_buf);
  if (!unmapped)
    return GST_FLOW_ERROR;
  if (!gst_cuda_fx_check (trans, err, "Uploading a %dx%d %s frame",
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info)))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static void
gst_cuda_fx_upload_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxUpload *self = GST_CUDA_FX_UPLOAD (object);

  switch (prop_id) {
    case PROP_COPY_THREADS:
      GST_OBJECT_LOCK (self);
      self->copy_threads = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_fx_upload_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFxUpload *self = GST_CUDA_FX_UPLOAD (object);

  switch (prop_id) {
    case PROP_COPY_THREADS:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->copy_threads);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_fx_upload_class_init (GstCudaFxUploadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_fx_upload_set_property;
  gobject_class->get_property = gst_cuda_fx_upload_get_property;

  /**
   * GstCudaFxUpload:copy-threads:
   *
   * Threads that copy a frame in pageable memory into a pinned staging
   * frame before its copy to the GPU (0: half the CPU cores, at most 6; 1:
   * the streaming thread alone). Read when caps are set. Frames in pinned
   * memory, ours or page-locked by someone else, are copied directly.
   */
  g_object_class_install_property (gobject_class, PROP_COPY_THREADS,
      g_param_spec_uint ("copy-threads", "Copy threads",
          "Threads copying frames from pageable memory into pinned staging "
          "frames (0: half the CPU cores, at most 6; read when caps are set)",
          0, MAX_COPY_THREADS, DEFAULT_COPY_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX upload", "Filter/Video/Hardware",
      "Copies video frames from system memory to CUDA device memory",
      "gst-cudafx developers");

  trans_class->transform_caps = gst_cuda_fx_upload_transform_caps;
  trans_class->propose_allocation = gst_cuda_fx_upload_propose_allocation;
  trans_class->transform = gst_cuda_fx_upload_transform;
  trans_class->stop = gst_cuda_fx_upload_stop;
  filter_class->set_info = gst_cuda_fx_upload_set_info;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_upload_debug, "cudafxupload", 0,
      "cudaupload element");
}

static void
gst_cuda_fx_upload_init (GstCudaFxUpload * self)
{
  self->copy_threads = DEFAULT_COPY_THREADS;
}
