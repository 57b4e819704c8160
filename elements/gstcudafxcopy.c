/* gst-cudafx: the copy between system and device memory (see the header).
 * cudaupload and cudadownload are mirror images: their caps, passthrough
 * and v210 conversion differ only by which side is system memory. One
 * direction's own: the upload's pinned staging of pageable frames and the
 * pinned pool it proposes upstream; the download's pinned pool and its
 * wait for the copy. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxcopy.h"
#include "gstcudafxstaging.h"
#include "cudafx-kernels.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_copy_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_copy_debug

/* the element's own category, for what it logs about its stream */
#define ELEMENT_CAT(obj) (GST_CUDA_FX_COPY_GET_CLASS (obj)->debug)

/* pinned buffers proposed upstream: frames in flight plus the producer's */
#define HOST_POOL_MIN_BUFFERS 4

enum
{
  PROP_0,
  PROP_COPY_THREADS = GST_CUDA_FX_COPY_PROP_COPY_THREADS,
  PROP_PIN_RECURRING = GST_CUDA_FX_COPY_PROP_PIN_RECURRING,
};

/* v210 in system memory is I422_10LE on the device, the planar 4:2:2
 * 10-bit format the filters work on: the upload unpacks it, the download
 * packs it back, and the round trip gives the same bytes for v210 as the
 * format defines it (unused bits, slots and row padding 0). The v210 rows
 * cross the link into or out of a device frame of their own, which
 * kernels/v210.cu reads or writes. */
typedef struct
{
  gboolean active;              /* converting (streaming thread only) */
  GstVideoInfo info;            /* v210 at its own stride: the kernels' pitch */
  GstBuffer *buffer;            /* device memory for one frame's rows */
} GstCudaFxPackedRows;

typedef struct
{
  GstCudaFxPackedRows packed_rows;
  /* upload: frames from pageable memory go through it; NULL in passthrough */
  GstCudaFxStaging *staging;
  GstCaps *staging_caps;        /* pageable input's caps: staging made on need */
  guint copy_threads;           /* property; the staging reads it when made */
  gboolean pin_recurring;       /* property */
} GstCudaFxCopyPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCudaFxCopy, gst_cuda_fx_copy,
    GST_TYPE_CUDA_FX_FILTER);

#define PRIV(self) \
  ((GstCudaFxCopyPrivate *) gst_cuda_fx_copy_get_instance_private \
      (GST_CUDA_FX_COPY (self)))

/* ---- v210 packed rows ------------------------------------------------- */

/* From set_info: whether caps of @system (v210) and @device (I422_10LE)
 * ask for the conversion, and if so device memory for rows of their size;
 * FALSE, with an element error posted, if it cannot be allocated */
static gboolean
packed_rows_set_info (GstCudaFxPackedRows * rows, GstCudaFxFilter * filter,
    const GstVideoInfo * system, const GstVideoInfo * device)
{
  gint width = GST_VIDEO_INFO_WIDTH (system);
  gint height = GST_VIDEO_INFO_HEIGHT (system);
  GstMemory *mem;
  GError *error = NULL;

  rows->active = GST_VIDEO_INFO_FORMAT (system) == GST_VIDEO_FORMAT_v210
      && GST_VIDEO_INFO_FORMAT (device) == GST_VIDEO_FORMAT_I422_10LE;
  if (!rows->active)
    return TRUE;
  if (rows->buffer && GST_VIDEO_INFO_WIDTH (&rows->info) == width
      && GST_VIDEO_INFO_HEIGHT (&rows->info) == height)
    return TRUE;

  g_clear_pointer (&rows->buffer, gst_buffer_unref);
  /* The buffer has no video meta: mapped with this info its rows lie at
   * v210's own stride, inside the allocation's wider device pitch */
  gst_video_info_set_format (&rows->info, GST_VIDEO_FORMAT_v210, width,
      height);
  mem = gst_cuda_fx_allocator_alloc_video (gst_cuda_fx_filter_get_context
      (filter), &rows->info, &error);
  if (!mem) {
    GST_ELEMENT_ERROR (filter, RESOURCE, FAILED, (NULL),
        ("Allocating a %dx%d v210 packed rows frame failed: %s", width,
            height, error->message));
    g_clear_error (&error);
    return FALSE;
  }
  rows->buffer = gst_buffer_new ();
  gst_buffer_append_memory (rows->buffer, mem);
  return TRUE;
}

/* From stop: the memory goes back once the GPU is done with it */
static void
packed_rows_clear (GstCudaFxPackedRows * rows)
{
  g_clear_pointer (&rows->buffer, gst_buffer_unref);
  rows->active = FALSE;
}

/* Maps the rows for @stream, which writes them and then reads them, for
 * the rows of @system; FALSE if they do not fit that frame */
static gboolean
packed_rows_map (GstCudaFxCopy * self, GstCudaFxFrame * rows,
    const GstVideoFrame * system, cudaStream_t stream)
{
  GstCudaFxPackedRows *packed_rows = &PRIV (self)->packed_rows;
  const GstVideoInfo *info = &packed_rows->info;
  gint width = GST_VIDEO_FRAME_WIDTH (system);
  GError *error = NULL;

  if (!packed_rows->buffer || GST_VIDEO_INFO_WIDTH (info) != width
      || GST_VIDEO_INFO_HEIGHT (info) != GST_VIDEO_FRAME_HEIGHT (system)
      || MIN (GST_VIDEO_INFO_PLANE_STRIDE (info, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (system, 0)) < ((width + 5) / 6) * 16)
    return FALSE;
  if (!gst_cuda_fx_frame_map (rows, info, packed_rows->buffer, GST_MAP_WRITE,
          gst_cuda_fx_filter_get_context (GST_CUDA_FX_FILTER (self)), stream,
          &error)) {
    GST_ERROR_OBJECT (self, "Cannot map the v210 packed rows: %s",
        error->message);
    g_clear_error (&error);
    return FALSE;
  }
  return TRUE;
}

/* Unmaps the rows after @err's work, keeping the first error */
static cudaError_t
packed_rows_unmap (GstCudaFxFrame * rows, cudaError_t err)
{
  cudaError_t unmapped = gst_cuda_fx_frame_unmap (rows);

  return err != cudaSuccess ? err : unmapped;
}

#define ROWS_DATA(rows) GST_VIDEO_FRAME_PLANE_DATA (&(rows)->video, 0)
#define ROWS_PITCH(rows) GST_VIDEO_FRAME_PLANE_STRIDE (&(rows)->video, 0)

/* Bytes of a row both sides hold: the groups, and the padding as far as
 * both strides reach */
static gsize
row_bytes (const GstCudaFxFrame * rows, const GstVideoFrame * system)
{
  return MIN (ROWS_PITCH (rows), GST_VIDEO_FRAME_PLANE_STRIDE (system, 0));
}

/* Enqueued on @dst's stream: the copy of @src's rows and their unpack */
static cudaError_t
upload_v210 (GstCudaFxCopy * self, GstCudaFxFrame * dst,
    const GstVideoFrame * src)
{
  GstCudaFxFrame rows;
  cudaError_t err;

  if (!packed_rows_map (self, &rows, src, dst->stream))
    return cudaErrorInvalidValue;
  err = cudaMemcpy2DAsync (ROWS_DATA (&rows), ROWS_PITCH (&rows),
      GST_VIDEO_FRAME_PLANE_DATA (src, 0), GST_VIDEO_FRAME_PLANE_STRIDE (src,
          0), row_bytes (&rows, src), GST_VIDEO_FRAME_HEIGHT (src),
      cudaMemcpyHostToDevice, dst->stream);
  if (err == cudaSuccess)
    err = cfx_v210_unpack (dst->comp[0], dst->comp[1], dst->comp[2],
        ROWS_DATA (&rows), ROWS_PITCH (&rows), GST_VIDEO_FRAME_WIDTH (src),
        GST_VIDEO_FRAME_HEIGHT (src), dst->stream);
  return packed_rows_unmap (&rows, err);
}

/* Enqueued on @src's stream: the pack of @src and the copy of its rows
 * into @dst */
static cudaError_t
download_v210 (GstCudaFxCopy * self, GstVideoFrame * dst,
    const GstCudaFxFrame * src)
{
  GstCudaFxFrame rows;
  cudaError_t err;

  if (!packed_rows_map (self, &rows, dst, src->stream))
    return cudaErrorInvalidValue;
  err = cfx_v210_pack (ROWS_DATA (&rows), ROWS_PITCH (&rows), src->comp[0],
      src->comp[1], src->comp[2], GST_VIDEO_FRAME_WIDTH (dst),
      GST_VIDEO_FRAME_HEIGHT (dst), src->stream);
  if (err == cudaSuccess)
    err = cudaMemcpy2DAsync (GST_VIDEO_FRAME_PLANE_DATA (dst, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (dst, 0), ROWS_DATA (&rows),
        ROWS_PITCH (&rows), row_bytes (&rows, dst),
        GST_VIDEO_FRAME_HEIGHT (dst), cudaMemcpyDeviceToHost, src->stream);
  return packed_rows_unmap (&rows, err);
}

/* ---- caps and allocation ---------------------------------------------- */

static GstCaps *
gst_cuda_fx_copy_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  gboolean to_device = GST_CUDA_FX_COPY_GET_CLASS (trans)->to_device;
  /* sink: frames go to the direction's side, or pass through if already
   * there; src: they come from the other side, or pass through */
  GstCaps *ret = direction == GST_PAD_SINK ?
      gst_cuda_fx_caps_transfer (caps, to_device) :
      gst_caps_merge (gst_cuda_fx_caps_transfer (caps, !to_device),
      gst_caps_ref (caps));

  ret = gst_cuda_fx_caps_apply_filter (ret, filter);
  GST_CAT_DEBUG_OBJECT (ELEMENT_CAT (trans), trans, "%s %" GST_PTR_FORMAT
      " -> %" GST_PTR_FORMAT, direction == GST_PAD_SINK ? "sink" : "src",
      caps, ret);
  return ret;
}

/* The upload's staging for frames of @incaps in pageable memory is made
 * when the first such frame comes (staging_for_pageable ()): its pinned
 * frames and threads are a branch's largest start-up cost, and a source
 * that writes into our pool, or whose memory recurs (pin-recurring), never
 * needs them */
static void
set_staging (GstCudaFxCopy * self, GstCaps * incaps, gboolean device)
{
  GstCudaFxCopyPrivate *priv = PRIV (self);

  g_clear_pointer (&priv->staging, gst_cuda_fx_staging_free);
  gst_caps_replace (&priv->staging_caps, device ? NULL : incaps);
}

static GstCudaFxStaging *
staging_for_pageable (GstCudaFxCopy * self)
{
  GstCudaFxCopyPrivate *priv = PRIV (self);
  guint threads;

  if (priv->staging || !priv->staging_caps)
    return priv->staging;
  GST_OBJECT_LOCK (self);
  threads = priv->copy_threads;
  GST_OBJECT_UNLOCK (self);
  /* the pinned pool's allocations belong to the element's device: a
   * streaming thread has no current device of its own yet */
  (void) gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
      (GST_CUDA_FX_FILTER (self)));
  priv->staging = gst_cuda_fx_staging_new (priv->staging_caps, threads);
  if (!priv->staging)
    GST_CAT_WARNING_OBJECT (ELEMENT_CAT (self), self, "no pinned staging for %"
        GST_PTR_FORMAT ": frames in pageable memory take the driver's "
        "slower path", priv->staging_caps);
  /* tried once per caps */
  gst_caps_replace (&priv->staging_caps, NULL);
  return priv->staging;
}

static gboolean
gst_cuda_fx_copy_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaFxCopy *self = GST_CUDA_FX_COPY (filter);
  gboolean to_device = GST_CUDA_FX_COPY_GET_CLASS (self)->to_device;
  gboolean device = gst_cuda_fx_caps_are_device (incaps);

  /* input already on the side the output goes to */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (filter),
      device == to_device);
  if (to_device)
    set_staging (self, incaps, device);
  return packed_rows_set_info (&PRIV (self)->packed_rows, filter,
      to_device ? in_info : out_info, to_device ? out_info : in_info);
}

static gboolean
gst_cuda_fx_copy_stop (GstBaseTransform * trans)
{
  GstCudaFxCopyPrivate *priv = PRIV (trans);

  packed_rows_clear (&priv->packed_rows);
  set_staging (GST_CUDA_FX_COPY (trans), NULL, TRUE);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_copy_parent_class)->stop
      (trans);
}

/* The upload offers upstream a pool of pinned host buffers */
static gboolean
propose_host_pool (GstQuery * query, GstCaps * caps)
{
  GstBufferPool *pool;
  GstAllocator *allocator;
  GstAllocationParams params;
  GstStructure *config;
  guint size;

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

static gboolean
gst_cuda_fx_copy_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCaps *caps;

  if (!decide_query)            /* passthrough: downstream answers */
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_copy_parent_class)
        ->propose_allocation (trans, decide_query, query);

  if (GST_CUDA_FX_COPY_GET_CLASS (trans)->to_device) {
    gst_query_parse_allocation (query, &caps, NULL);
    if (!caps)
      return FALSE;
    if (!gst_cuda_fx_caps_are_device (caps))
      return propose_host_pool (query, caps);
  }
  return gst_cuda_fx_filter_propose_device_pool (GST_CUDA_FX_FILTER (trans),
      query, 2);
}

/* The download always copies into its own pinned pool: downstream's
 * would make the copy engine go through a staging buffer. Downstream's
 * buffer counts are kept. */
static gboolean
gst_cuda_fx_copy_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCaps *caps;
  GstBufferPool *pool;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;

  if (GST_CUDA_FX_COPY_GET_CLASS (trans)->to_device)
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_copy_parent_class)
        ->decide_allocation (trans, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return FALSE;

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

/* ---- the copies ------------------------------------------------------- */

/* Whether a copy from @buf may still be reading it after it was queued:
 * some of its memory is pinned, or is now, registered as it comes back
 * (with @pin_recurring). Each memory is asked on its own: mapping the
 * buffer whole would merge several memories into a pageable copy. */
static gboolean
buffer_has_pinned_memory (GstBuffer * buf, gboolean pin_recurring,
    GstCudaFxContext * context)
{
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);

    if (gst_cuda_fx_memory_is_pinned (mem) || (pin_recurring
            && gst_cuda_fx_memory_pin_recurring (mem, context)))
      return TRUE;
  }
  return FALSE;
}

static GstFlowReturn
upload_frame (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaFxCopy *self = GST_CUDA_FX_COPY (trans);
  GstCudaFxCopyPrivate *priv = PRIV (self);
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  const GstVideoInfo *info = gst_cuda_fx_filter_get_in_info (filter);
  GstCudaFxContext *context = gst_cuda_fx_filter_get_context (filter);
  GstVideoFrame in, staged;
  GstCudaFxFrame out;
  GstBuffer *staged_buf = NULL;
  gboolean pinned, unmapped, pin_recurring;
  cudaError_t err;

  GST_OBJECT_LOCK (self);
  pin_recurring = priv->pin_recurring;
  GST_OBJECT_UNLOCK (self);
  /* decided before the copy, on the memories the copy reads */
  pinned = buffer_has_pinned_memory (inbuf, pin_recurring, context);
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
  if (!pinned && staging_for_pageable (self)
      && (staged_buf = gst_cuda_fx_staging_copy (priv->staging, &in,
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
  err = priv->packed_rows.active ? upload_v210 (self, &out, &in) :
      gst_cuda_fx_frame_upload (&out, &in);
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

static GstFlowReturn
download_frame (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaFxCopy *self = GST_CUDA_FX_COPY (trans);
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  const GstVideoInfo *info = gst_cuda_fx_filter_get_out_info (filter);
  GstCudaFxFrame in;
  GstVideoFrame out;
  cudaError_t err;

  if (!gst_cuda_fx_filter_map_frame (filter, &in,
          gst_cuda_fx_filter_get_in_info (filter), inbuf, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&out, info, outbuf, GST_MAP_WRITE)) {
    gst_cuda_fx_filter_unmap_frame (filter, &in);
    GST_ELEMENT_ERROR (trans, RESOURCE, WRITE, (NULL),
        ("Cannot map the output buffer"));
    return GST_FLOW_ERROR;
  }

  err = PRIV (self)->packed_rows.active ? download_v210 (self, &out, &in) :
      gst_cuda_fx_frame_download (&out, &in);
  if (!gst_cuda_fx_filter_unmap_frame (filter, &in)) {
    gst_video_frame_unmap (&out);
    return GST_FLOW_ERROR;
  }
  /* The CPU needs the bytes: wait for this element's copies alone, asleep */
  if (err == cudaSuccess)
    err = gst_cuda_fx_context_wait_stream (gst_cuda_fx_filter_get_context
        (filter), gst_cuda_fx_filter_get_stream (filter));
  gst_video_frame_unmap (&out);
  if (!gst_cuda_fx_check (trans, err, "Downloading a %dx%d %s frame",
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info)))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_fx_copy_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  if (!gst_cuda_fx_filter_make_current (GST_CUDA_FX_FILTER (trans)))
    return GST_FLOW_ERROR;
  return GST_CUDA_FX_COPY_GET_CLASS (trans)->to_device ?
      upload_frame (trans, inbuf, outbuf) : download_frame (trans, inbuf,
      outbuf);
}

/* ---- properties ------------------------------------------------------- */

static void
gst_cuda_fx_copy_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxCopyPrivate *priv = PRIV (object);

  switch (prop_id) {
    case PROP_COPY_THREADS:
      GST_OBJECT_LOCK (object);
      priv->copy_threads = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_PIN_RECURRING:
      GST_OBJECT_LOCK (object);
      priv->pin_recurring = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_fx_copy_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFxCopyPrivate *priv = PRIV (object);

  switch (prop_id) {
    case PROP_COPY_THREADS:
      GST_OBJECT_LOCK (object);
      g_value_set_uint (value, priv->copy_threads);
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_PIN_RECURRING:
      GST_OBJECT_LOCK (object);
      g_value_set_boolean (value, priv->pin_recurring);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* GObject gives each class its own set_property and get_property: the
 * subclass that installs the property takes ours */
void
gst_cuda_fx_copy_class_install_property (GObjectClass * klass,
    GstCudaFxCopyProperty prop, GParamSpec * pspec)
{
  klass->set_property = gst_cuda_fx_copy_set_property;
  klass->get_property = gst_cuda_fx_copy_get_property;
  g_object_class_install_property (klass, prop, pspec);
}

static void
gst_cuda_fx_copy_class_init (GstCudaFxCopyClass * klass)
{
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  trans_class->transform_caps = gst_cuda_fx_copy_transform_caps;
  trans_class->propose_allocation = gst_cuda_fx_copy_propose_allocation;
  trans_class->decide_allocation = gst_cuda_fx_copy_decide_allocation;
  trans_class->transform = gst_cuda_fx_copy_transform;
  trans_class->stop = gst_cuda_fx_copy_stop;
  filter_class->set_info = gst_cuda_fx_copy_set_info;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_copy_debug, "cudafxcopy", 0,
      "cudaupload and cudadownload");
}

static void
gst_cuda_fx_copy_init (GstCudaFxCopy * self)
{
  PRIV (self)->copy_threads = GST_CUDA_FX_COPY_DEFAULT_COPY_THREADS;
  PRIV (self)->pin_recurring = GST_CUDA_FX_COPY_DEFAULT_PIN_RECURRING;
}
