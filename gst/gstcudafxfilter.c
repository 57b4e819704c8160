/* gst-cudafx: GstCudaFxFilter, the base class of every element. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxfilter.h"
#include "gstcudafxmemory.h"
#include "gstcudafxbufferpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_filter_debug

#define DEFAULT_DEVICE_ID -1

enum
{
  PROP_0,
  PROP_DEVICE_ID,
};

typedef struct
{
  gint device_id;
  GstCudaFxContext *context;
  cudaStream_t stream;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
} GstCudaFxFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCudaFxFilter, gst_cuda_fx_filter,
    GST_TYPE_BASE_TRANSFORM);

#define PRIV(f) ((GstCudaFxFilterPrivate *) \
    gst_cuda_fx_filter_get_instance_private (GST_CUDA_FX_FILTER (f)))

static void
gst_cuda_fx_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxFilterPrivate *priv = PRIV (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      priv->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_fx_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFxFilterPrivate *priv = PRIV (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      g_value_set_int (value, priv->device_id);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_fx_filter_dispose (GObject * object)
{
  /* a context a neighbour or the application set, never started */
  gst_clear_object (&PRIV (object)->context);

  G_OBJECT_CLASS (gst_cuda_fx_filter_parent_class)->dispose (object);
}

static void
gst_cuda_fx_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaFxFilterPrivate *priv = PRIV (element);

  gst_cuda_fx_handle_set_context (element, context, priv->device_id,
      &priv->context);
  GST_ELEMENT_CLASS (gst_cuda_fx_filter_parent_class)->set_context (element,
      context);
}

static gboolean
gst_cuda_fx_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_cuda_fx_handle_context_query (GST_ELEMENT_CAST (trans), query,
          PRIV (trans)->context))
    return TRUE;

  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)->query
      (trans, direction, query);
}

static gboolean
gst_cuda_fx_filter_start (GstBaseTransform * trans)
{
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GError *error = NULL;
  cudaError_t err;

  if (!gst_cuda_fx_ensure_element_context (GST_ELEMENT_CAST (trans),
          priv->device_id, &priv->context, &error)) {
    GST_ELEMENT_ERROR (trans, RESOURCE, NOT_FOUND, ("%s", error->message),
        ("device-id=%d", priv->device_id));
    g_clear_error (&error);
    return FALSE;
  }

  err = gst_cuda_fx_context_make_current (priv->context);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags (&priv->stream, cudaStreamNonBlocking);
  if (!gst_cuda_fx_check (trans, err, "Creating a CUDA stream on device %d",
          gst_cuda_fx_context_get_device_id (priv->context))) {
    gst_clear_object (&priv->context);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_fx_filter_stop (GstBaseTransform * trans)
{
  GstCudaFxFilterPrivate *priv = PRIV (trans);

  if (priv->stream) {
    gst_cuda_fx_context_make_current (priv->context);
    /* queued work still completes; the stream goes once it has */
    cudaStreamDestroy (priv->stream);
    priv->stream = NULL;
  }
  gst_clear_object (&priv->context);
  return TRUE;
}

GstCaps *
gst_cuda_fx_caps_set_features (const GstCaps * caps, const gchar * feature)
{
  GstCaps *ret = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (ret); i++)
    gst_caps_set_features (ret, i, gst_caps_features_new (feature, NULL));
  return ret;
}

GstCaps *
gst_cuda_fx_caps_to_memory (GstCaps * caps, const gchar * feature,
    gboolean keep)
{
  GstCaps *ret = gst_cuda_fx_caps_set_features (caps, feature);

  return keep ? gst_caps_merge (ret, gst_caps_ref (caps)) : ret;
}

GstCaps *
gst_cuda_fx_caps_apply_filter (GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret;

  if (!filter)
    return caps;
  ret = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return ret;
}

static GstCaps *
gst_cuda_fx_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_cuda_fx_caps_apply_filter (gst_cuda_fx_caps_set_features (caps,
          GST_CAPS_FEATURE_MEMORY_CUDA_FX), filter);
}

static gboolean
gst_cuda_fx_filter_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  GstVideoInfo info;

  if (!GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)->accept_caps
      (trans, direction, caps))
    return FALSE;
  /* fixed caps that do not describe a frame (no width, ...) would only fail
   * later, in set_caps */
  if (gst_caps_is_fixed (caps) && !gst_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (trans, "refusing incomplete video caps %"
        GST_PTR_FORMAT, caps);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_fx_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GstVideoInfo in_info, out_info;

  if (!gst_video_info_from_caps (&in_info, incaps)
      || !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL),
        ("Cannot parse caps %" GST_PTR_FORMAT " / %" GST_PTR_FORMAT,
            incaps, outcaps));
    return FALSE;
  }
  if (klass->set_info && !klass->set_info (GST_CUDA_FX_FILTER (trans), incaps,
          &in_info, outcaps, &out_info))
    return FALSE;

  priv->in_info = in_info;
  priv->out_info = out_info;
  return TRUE;
}

GstBufferPool *
gst_cuda_fx_filter_new_device_pool (GstCudaFxFilter * filter, GstCaps * caps,
    guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;

  pool = gst_cuda_fx_buffer_pool_new (PRIV (filter)->context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, 0, min_buffers,
      max_buffers);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

static guint
pool_size (GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint size = 0;

  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  return size;
}

/**
 * gst_cuda_fx_filter_propose_device_pool:
 *
 * Offers upstream a pool of device frames for the query's caps, with
 * @min_buffers for the frames this element holds.
 */
gboolean
gst_cuda_fx_filter_propose_device_pool (GstCudaFxFilter * filter,
    GstQuery * query, guint min_buffers)
{
  GstCaps *caps;
  GstBufferPool *pool;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;

  pool = gst_cuda_fx_filter_new_device_pool (filter, caps, min_buffers, 0);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, pool_size (pool), min_buffers,
      0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

/**
 * gst_cuda_fx_filter_decide_device_pool:
 *
 * Takes downstream's device pool if it is ours on this device, else makes
 * one, and configures it for the output caps.
 */
gboolean
gst_cuda_fx_filter_decide_device_pool (GstCudaFxFilter * filter,
    GstQuery * query)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  GstCaps *caps;
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean update = FALSE;
  GstStructure *config;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    update = TRUE;
    if (pool && (!GST_IS_CUDA_FX_BUFFER_POOL (pool)
            || gst_cuda_fx_context_get_device_id
            (gst_cuda_fx_buffer_pool_get_context (pool)) !=
            gst_cuda_fx_context_get_device_id (priv->context))) {
      GST_DEBUG_OBJECT (filter, "downstream pool %" GST_PTR_FORMAT
          " is not a device pool of ours", pool);
      gst_clear_object (&pool);
    }
  }
  if (!pool)
    pool = gst_cuda_fx_buffer_pool_new (priv->context);

  /* frames in flight on the GPU while the host runs ahead */
  min = MAX (min, 2);
  if (max && max < min)
    max = min;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* a pool in use refuses a new config; take a fresh one */
    gst_object_unref (pool);
    pool = gst_cuda_fx_filter_new_device_pool (filter, caps, min, max);
    if (!pool) {
      GST_ELEMENT_ERROR (filter, RESOURCE, SETTINGS, (NULL),
          ("Cannot configure a device pool for %" GST_PTR_FORMAT, caps));
      return FALSE;
    }
  }
  size = pool_size (pool);

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_cuda_fx_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);

  /* passthrough: downstream answers */
  if (!decide_query)
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
        ->propose_allocation (trans, decide_query, query);

  return gst_cuda_fx_filter_propose_device_pool (GST_CUDA_FX_FILTER (trans),
      query, klass->history + 2);
}

static gboolean
gst_cuda_fx_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  return gst_cuda_fx_filter_decide_device_pool (GST_CUDA_FX_FILTER (trans),
      query);
}

gboolean
gst_cuda_fx_filter_map_device_frame (GstCudaFxFilter * filter,
    GstVideoFrame * frame, const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  GstMemory *mem;
  gint mem_device, device = gst_cuda_fx_context_get_device_id (priv->context);

  if (!gst_is_cuda_fx_buffer (buffer)) {
    GST_ELEMENT_ERROR (filter, STREAM, FORMAT, (NULL),
        ("Buffer %" GST_PTR_FORMAT " does not hold device memory (%s)",
            buffer, GST_CUDA_FX_MEMORY_NAME));
    return FALSE;
  }
  mem = gst_buffer_peek_memory (buffer, 0);
  mem_device = gst_cuda_fx_context_get_device_id
      (gst_cuda_fx_memory_get_context (mem));
  if (mem_device != device) {
    GST_ELEMENT_ERROR (filter, CORE, NEGOTIATION,
        ("A frame on CUDA device %d reached %s, which runs on device %d",
            mem_device, GST_OBJECT_NAME (filter), device),
        ("Elements of one chain must share a device (device-id)"));
    return FALSE;
  }
  if (!gst_video_frame_map (frame, info, buffer, flags | GST_MAP_CUDA_FX)) {
    GST_ELEMENT_ERROR (filter, STREAM, FORMAT, (NULL),
        ("Buffer of %" G_GSIZE_FORMAT " bytes does not hold a %dx%d %s frame",
            gst_buffer_get_size (buffer), GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info))));
    return FALSE;
  }
  return TRUE;
}

static GstFlowReturn
gst_cuda_fx_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GstVideoFrame in_frame, out_frame;
  GstFlowReturn ret;
  cudaError_t err;

  if (!klass->process)
    return GST_FLOW_NOT_SUPPORTED;
  if (!gst_cuda_fx_filter_map_device_frame (filter, &in_frame,
          &priv->in_info, inbuf, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_cuda_fx_filter_map_device_frame (filter, &out_frame,
          &priv->out_info, outbuf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in_frame);
    return GST_FLOW_ERROR;
  }

  err = gst_cuda_fx_context_make_current (priv->context);
  if (err == cudaSuccess)
    err = gst_cuda_fx_buffer_begin_read (inbuf, priv->stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_buffer_begin_write (outbuf, priv->stream);
  if (!gst_cuda_fx_check (trans, err, "Ordering %s's stream after the "
          "frames' last users", GST_OBJECT_NAME (trans))) {
    ret = GST_FLOW_ERROR;
    goto out;
  }

  ret = klass->process (filter, &in_frame, &out_frame, priv->stream);

  err = gst_cuda_fx_buffer_end_read (inbuf, priv->stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_buffer_end_write (outbuf, priv->stream);
  if (!gst_cuda_fx_check (trans, err, "Recording %s's frame events",
          GST_OBJECT_NAME (trans)))
    ret = GST_FLOW_ERROR;

out:
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  return ret;
}

void
gst_cuda_fx_filter_sync_values (GstCudaFxFilter * filter, GstBuffer * buf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (filter);
  GstClockTime ts;

  if (trans->segment.format != GST_FORMAT_TIME
      || !GST_BUFFER_PTS_IS_VALID (buf))
    return;
  ts = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));
  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (filter), ts);
}

static void
gst_cuda_fx_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buf)
{
  gst_cuda_fx_filter_sync_values (GST_CUDA_FX_FILTER (trans), buf);
}

static void
gst_cuda_fx_filter_class_init (GstCudaFxFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_fx_filter_set_property;
  gobject_class->get_property = gst_cuda_fx_filter_get_property;
  gobject_class->dispose = gst_cuda_fx_filter_dispose;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "CUDA device to run on: -1 takes the device of the neighbouring "
          "cudafx elements (device 0 if none has one yet)",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  element_class->set_context = gst_cuda_fx_filter_set_context;

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = gst_cuda_fx_filter_start;
  trans_class->stop = gst_cuda_fx_filter_stop;
  trans_class->query = gst_cuda_fx_filter_query;
  trans_class->transform_caps = gst_cuda_fx_filter_transform_caps;
  trans_class->accept_caps = gst_cuda_fx_filter_accept_caps;
  trans_class->set_caps = gst_cuda_fx_filter_set_caps;
  trans_class->propose_allocation = gst_cuda_fx_filter_propose_allocation;
  trans_class->decide_allocation = gst_cuda_fx_filter_decide_allocation;
  trans_class->before_transform = gst_cuda_fx_filter_before_transform;
  trans_class->transform = gst_cuda_fx_filter_transform;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_FILTER, 0);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_filter_debug, "cudafxfilter", 0,
      "gst-cudafx base class");
}

static void
gst_cuda_fx_filter_init (GstCudaFxFilter * filter)
{
  PRIV (filter)->device_id = DEFAULT_DEVICE_ID;
}

GstCudaFxContext *
gst_cuda_fx_filter_get_context (GstCudaFxFilter * filter)
{
  return PRIV (filter)->context;
}

cudaStream_t
gst_cuda_fx_filter_get_stream (GstCudaFxFilter * filter)
{
  return PRIV (filter)->stream;
}

const GstVideoInfo *
gst_cuda_fx_filter_get_in_info (GstCudaFxFilter * filter)
{
  return &PRIV (filter)->in_info;
}

const GstVideoInfo *
gst_cuda_fx_filter_get_out_info (GstCudaFxFilter * filter)
{
  return &PRIV (filter)->out_info;
}
