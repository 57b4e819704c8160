/* gst-cudafx: pool of device frames. Every buffer holds one
 * GstCudaFxMemory and a GstVideoMeta with its device offsets and pitches.
 * Reuse is safe without host waits: the next writer's begin_write orders
 * its stream after every earlier reader and writer. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxbufferpool.h"
#include "gstcudafxmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_buffer_pool_debug

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
