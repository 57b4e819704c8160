/* gst-cudafx: pool of device frames. Every buffer holds one
 * GstCudaFxMemory and a GstVideoMeta with its device offsets and pitches.
 * Reuse is safe without host waits: the next writer's begin_write orders
 * its stream after every earlier reader and writer. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxbufferpool.h"
#include "gstcudafxcaps.h"
#include "gstcudafxinterop.h"
#include "gstcudafxmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_buffer_pool_debug

/* device frames a pool holds beyond the minimum its users ask for: past
 * that, a producer waits for a frame to come back (a deep queue would
 * otherwise grow device memory without bound) */
#define POOL_HEADROOM 24

struct _GstCudaFxBufferPool
{
  GstBufferPool parent;

  GstCudaFxContext *context;
  GstVideoInfo info;            /* caps layout */
  GstVideoInfo device_info;     /* pitched device layout */
  gchar *error;                 /* why the last allocation failed, locked */
};

G_DEFINE_TYPE (GstCudaFxBufferPool, gst_cuda_fx_buffer_pool,
    GST_TYPE_BUFFER_POOL);

static const gchar **
gst_cuda_fx_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };
  return options;
}

static gboolean
gst_cuda_fx_buffer_pool_set_config (GstBufferPool * pool,
    GstStructure * config)
{
  GstCudaFxBufferPool *self = GST_CUDA_FX_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps) {
    GST_WARNING_OBJECT (self, "config without caps");
    return FALSE;
  }
  if (!gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (self, "caps are not video caps: %" GST_PTR_FORMAT,
        caps);
    return FALSE;
  }
  if (!gst_cuda_fx_video_info_to_device (&self->info, &self->device_info))
    return FALSE;

  gst_buffer_pool_config_set_params (config, caps,
      (guint) self->device_info.size, min, max);
  return GST_BUFFER_POOL_CLASS (gst_cuda_fx_buffer_pool_parent_class)
      ->set_config (pool, config);
}

static GstFlowReturn
gst_cuda_fx_buffer_pool_alloc_buffer (GstBufferPool * pool,
    GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  GstCudaFxBufferPool *self = GST_CUDA_FX_BUFFER_POOL (pool);
  const GstVideoInfo *dinfo = &self->device_info;
  GstMemory *mem;
  GError *error = NULL;

  mem = gst_cuda_fx_allocator_alloc_video (self->context, &self->info, &error);
  if (!mem) {
    GST_ERROR_OBJECT (self, "%s", error->message);
    /* for the element that asked, which can post it */
    GST_OBJECT_LOCK (self);
    g_free (self->error);
    self->error = g_strdup (error->message);
    GST_OBJECT_UNLOCK (self);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }

  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (dinfo), GST_VIDEO_INFO_WIDTH (dinfo),
      GST_VIDEO_INFO_HEIGHT (dinfo), GST_VIDEO_INFO_N_PLANES (dinfo),
      (gsize *) dinfo->offset, (gint *) dinfo->stride);
  return GST_FLOW_OK;
}

static void
gst_cuda_fx_buffer_pool_finalize (GObject * object)
{
  GstCudaFxBufferPool *self = GST_CUDA_FX_BUFFER_POOL (object);

  gst_clear_object (&self->context);
  g_free (self->error);
  G_OBJECT_CLASS (gst_cuda_fx_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cuda_fx_buffer_pool_class_init (GstCudaFxBufferPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cuda_fx_buffer_pool_finalize;
  pool_class->get_options = gst_cuda_fx_buffer_pool_get_options;
  pool_class->set_config = gst_cuda_fx_buffer_pool_set_config;
  pool_class->alloc_buffer = gst_cuda_fx_buffer_pool_alloc_buffer;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_buffer_pool_debug, "cudafxbufferpool",
      0, "gst-cudafx device buffer pool");
}

static void
gst_cuda_fx_buffer_pool_init (GstCudaFxBufferPool * self)
{
}

/**
 * gst_cuda_fx_buffer_pool_new:
 *
 * Returns: (transfer full): a pool of device frames on @context's device.
 */
GstBufferPool *
gst_cuda_fx_buffer_pool_new (GstCudaFxContext * context)
{
  GstCudaFxBufferPool *self;

  self = g_object_new (GST_TYPE_CUDA_FX_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_BUFFER_POOL_CAST (self);
}

/**
 * gst_cuda_fx_buffer_pool_get_context:
 *
 * Returns: (transfer none): the object
 */
GstCudaFxContext *
gst_cuda_fx_buffer_pool_get_context (GstBufferPool * pool)
{
  g_return_val_if_fail (GST_IS_CUDA_FX_BUFFER_POOL (pool), NULL);
  return GST_CUDA_FX_BUFFER_POOL (pool)->context;
}

/**
 * gst_cuda_fx_buffer_pool_take_error:
 *
 * Returns: (transfer full) (nullable): why the pool's last allocation
 * failed (what, how many bytes, which device, the CUDA error), once.
 */
gchar *
gst_cuda_fx_buffer_pool_take_error (GstBufferPool * pool)
{
  GstCudaFxBufferPool *self;
  gchar *error;

  g_return_val_if_fail (GST_IS_CUDA_FX_BUFFER_POOL (pool), NULL);
  self = GST_CUDA_FX_BUFFER_POOL (pool);
  GST_OBJECT_LOCK (self);
  error = g_steal_pointer (&self->error);
  GST_OBJECT_UNLOCK (self);
  return error;
}

/* ---- pool policies of the allocation queries ------------------------- */

/* A new pool of the device memory @caps ask for: GStreamer's CUDA memory
 * (nvcodec's elements) or ours */
static GstBufferPool *
pool_for_caps (GstCaps * caps, GstCudaFxContext * context)
{
  return gst_cuda_fx_caps_have_feature (caps, GST_CAPS_FEATURE_MEMORY_CUDA) ?
      gst_cuda_fx_interop_pool_new (context) :
      gst_cuda_fx_buffer_pool_new (context);
}

/**
 * gst_cuda_fx_device_pool_new:
 *
 * A pool of the device memory @caps ask for, configured for them with
 * video metas.
 *
 * Returns: (transfer full) (nullable): the pool
 */
GstBufferPool *
gst_cuda_fx_device_pool_new (GstCudaFxContext * context, GstCaps * caps,
    guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;

  pool = pool_for_caps (caps, context);
  if (!pool)
    return NULL;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, 0, min_buffers,
      max_buffers);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_cuda_fx_interop_pool_config_add_stream (pool, config);
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
 * gst_cuda_fx_device_pool_propose:
 *
 * Offers upstream a pool of device frames for the query's caps, with
 * @min_buffers for the frames the element holds.
 */
gboolean
gst_cuda_fx_device_pool_propose (GstCudaFxContext * context,
    GstQuery * query, guint min_buffers)
{
  GstCaps *caps;
  GstBufferPool *pool;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;

  pool = gst_cuda_fx_device_pool_new (context, caps, min_buffers, 0);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, pool_size (pool), min_buffers,
      0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

/* Whether downstream's @pool gives the memory @caps ask for, in our CUDA
 * context */
static gboolean
pool_fits (GstBufferPool * pool, GstCaps * caps, GstCudaFxContext * context)
{
  if (gst_cuda_fx_caps_have_feature (caps, GST_CAPS_FEATURE_MEMORY_CUDA))
    return gst_cuda_fx_interop_is_pool (pool, context);
  return GST_IS_CUDA_FX_BUFFER_POOL (pool)
      && gst_cuda_fx_context_get_handle (gst_cuda_fx_buffer_pool_get_context
      (pool)) == gst_cuda_fx_context_get_handle (context)
      && gst_cuda_fx_context_get_device_id (gst_cuda_fx_buffer_pool_get_context
          (pool)) == gst_cuda_fx_context_get_device_id (context);
}

/**
 * gst_cuda_fx_device_pool_post_error:
 * @info: the frames @pool gives
 *
 * Posts on @element why @pool gave no frame: device memory, with what, how
 * much, which device and the CUDA error, where the pool knows.
 */
void
gst_cuda_fx_device_pool_post_error (GstElement * element,
    GstBufferPool * pool, const gchar * what, const GstVideoInfo * info,
    GstCudaFxContext * context)
{
  gchar *error = GST_IS_CUDA_FX_BUFFER_POOL (pool) ?
      gst_cuda_fx_buffer_pool_take_error (pool) : NULL;

  if (error)
    GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT, ("%s", error),
        ("%s from %" GST_PTR_FORMAT, what, pool));
  else
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("Getting a %dx%d %s frame from the element's pool on CUDA device %d "
            "failed", GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
            gst_cuda_fx_context_get_device_id (context)),
        ("%s from %" GST_PTR_FORMAT, what, pool));
  g_free (error);
}

/**
 * gst_cuda_fx_device_pool_decide:
 * @out_info: the frames @element makes
 *
 * Takes downstream's device pool if it is ours on @context's device, else
 * makes one, configures it for the query's caps and activates it; posts an
 * element error on @element where that fails.
 */
gboolean
gst_cuda_fx_device_pool_decide (GstElement * element,
    GstCudaFxContext * context, GstQuery * query,
    const GstVideoInfo * out_info)
{
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
    if (pool && !pool_fits (pool, caps, context)) {
      GST_DEBUG_OBJECT (element, "downstream pool %" GST_PTR_FORMAT
          " is not a device pool of this CUDA context", pool);
      gst_clear_object (&pool);
    }
  }
  if (!pool)
    pool = pool_for_caps (caps, context);
  if (!pool) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS, (NULL),
        ("Cannot make a device pool for %" GST_PTR_FORMAT, caps));
    return FALSE;
  }

  /* frames in flight on the GPU while the host runs ahead */
  min = MAX (min, 2);
  if (max && max < min)
    max = min;
  if (!max)
    max = min + POOL_HEADROOM;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_cuda_fx_interop_pool_config_add_stream (pool, config);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* a pool in use refuses a new config; take a fresh one */
    gst_object_unref (pool);
    pool = gst_cuda_fx_device_pool_new (context, caps, min, max);
    if (!pool) {
      GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS, (NULL),
          ("Cannot configure a device pool for %" GST_PTR_FORMAT, caps));
      return FALSE;
    }
  }
  size = pool_size (pool);

  /* activated here, so that a failed allocation is said as what it is
   * (base transform would only say "failed to activate bufferpool") */
  if (!gst_buffer_pool_set_active (pool, TRUE)) {
    gst_cuda_fx_device_pool_post_error (element, pool,
        "Allocating the first device frames", out_info, context);
    gst_object_unref (pool);
    return FALSE;
  }

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
