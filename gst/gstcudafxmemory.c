/* gst-cudafx: device memory, its allocator and the event protocol. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_memory_debug

typedef struct
{
  cudaStream_t stream;
  cudaEvent_t event;
} ReadMark;

struct _GstCudaFxMemory
{
  GstMemory mem;

  GstCudaFxContext *context;
  guint8 *device;
  GstVideoInfo info;            /* device layout: pitched planes, stacked */

  GMutex lock;
  cudaEvent_t written;
  gboolean has_written;
  GArray *reads;                /* ReadMark, one per stream read since */

  /* CPU maps go through a pinned copy */
  guint8 *mirror;
  cudaEvent_t mirror_event;
  gint cpu_maps;
};

struct _GstCudaFxAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE (GstCudaFxAllocator, gst_cuda_fx_allocator, GST_TYPE_ALLOCATOR);

static GstAllocator *the_allocator;

/* Rows of @plane of a frame of @info */
gint
gst_cuda_fx_video_info_plane_height (const GstVideoInfo * info, guint plane)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  return GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, comp[0],
      GST_VIDEO_INFO_HEIGHT (info));
}

/**
 * gst_cuda_fx_video_info_to_device:
 *
 * The device layout of a frame: each plane's rows padded to a multiple of
 * %GST_CUDA_FX_PITCH_ALIGN bytes, planes stacked, each starting aligned.
 */
gboolean
gst_cuda_fx_video_info_to_device (const GstVideoInfo * info,
    GstVideoInfo * device_info)
{
  gsize offset = 0;
  guint p;

  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UNKNOWN
      || GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_ENCODED
      || GST_VIDEO_INFO_WIDTH (info) <= 0 || GST_VIDEO_INFO_HEIGHT (info) <= 0)
    return FALSE;

  *device_info = *info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint rows = gst_cuda_fx_video_info_plane_height (info, p), pitch;

    /* a fresh info's stride is the plane's row size (4-byte rounded) */
    pitch = GST_ROUND_UP_N (GST_VIDEO_INFO_PLANE_STRIDE (info, p),
        GST_CUDA_FX_PITCH_ALIGN);

    device_info->stride[p] = pitch;
    device_info->offset[p] = offset;
    offset += (gsize) pitch *rows;
  }
  device_info->size = offset;
  return TRUE;
}

static ReadMark *
find_read_mark (GstCudaFxMemory * self, cudaStream_t stream)
{
  guint i;

  for (i = 0; i < self->reads->len; i++) {
    ReadMark *mark = &g_array_index (self->reads, ReadMark, i);
    if (mark->stream == stream)
      return mark;
  }
  return NULL;
}

cudaError_t
gst_cuda_fx_memory_begin_read (GstMemory * mem, cudaStream_t stream)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  cudaError_t err = cudaSuccess;

  g_mutex_lock (&self->lock);
  if (self->has_written)
    err = cudaStreamWaitEvent (stream, self->written, 0);
  g_mutex_unlock (&self->lock);
  return err;
}

cudaError_t
gst_cuda_fx_memory_end_read (GstMemory * mem, cudaStream_t stream)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  ReadMark *mark;
  cudaError_t err;

  g_mutex_lock (&self->lock);
  mark = find_read_mark (self, stream);
  if (!mark) {
    ReadMark fresh = { stream,
      gst_cuda_fx_context_acquire_event (self->context)
    };
    if (!fresh.event) {
      g_mutex_unlock (&self->lock);
      return cudaErrorMemoryAllocation;
    }
    g_array_append_val (self->reads, fresh);
    mark = &g_array_index (self->reads, ReadMark, self->reads->len - 1);
  }
  err = cudaEventRecord (mark->event, stream);
  g_mutex_unlock (&self->lock);
  return err;
}

cudaError_t
gst_cuda_fx_memory_begin_write (GstMemory * mem, cudaStream_t stream)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  cudaError_t err = cudaSuccess;
  guint i;

  g_mutex_lock (&self->lock);
  if (self->has_written)
    err = cudaStreamWaitEvent (stream, self->written, 0);
  for (i = 0; err == cudaSuccess && i < self->reads->len; i++) {
    ReadMark *mark = &g_array_index (self->reads, ReadMark, i);
    if (mark->stream != stream)
      err = cudaStreamWaitEvent (stream, mark->event, 0);
  }
  g_mutex_unlock (&self->lock);
  return err;
}

static void
clear_reads (GstCudaFxMemory * self)
{
  guint i;

  for (i = 0; i < self->reads->len; i++)
    gst_cuda_fx_context_release_event (self->context,
        g_array_index (self->reads, ReadMark, i).event);
  g_array_set_size (self->reads, 0);
}

cudaError_t
gst_cuda_fx_memory_end_write (GstMemory * mem, cudaStream_t stream)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  cudaError_t err;

  g_mutex_lock (&self->lock);
  err = cudaEventRecord (self->written, stream);
  if (err == cudaSuccess) {
    self->has_written = TRUE;
    /* every earlier read is ordered before this write by begin_write */
    clear_reads (self);
  }
  g_mutex_unlock (&self->lock);
  return err;
}

gboolean
gst_cuda_fx_memory_write_pending (GstMemory * mem)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  gboolean pending;

  g_mutex_lock (&self->lock);
  pending = self->has_written
      && cudaEventQuery (self->written) == cudaErrorNotReady;
  g_mutex_unlock (&self->lock);
  /* cudaErrorNotReady is not sticky, but clear it for later checks */
  cudaGetLastError ();
  return pending;
}

gboolean
gst_is_cuda_fx_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CUDA_FX_ALLOCATOR (mem->allocator);
}

GstCudaFxContext *
gst_cuda_fx_memory_get_context (GstMemory * mem)
{
  return ((GstCudaFxMemory *) mem)->context;
}

const GstVideoInfo *
gst_cuda_fx_memory_get_video_info (GstMemory * mem)
{
  return &((GstCudaFxMemory *) mem)->info;
}

gpointer
gst_cuda_fx_memory_get_device_pointer (GstMemory * mem)
{
  return ((GstCudaFxMemory *) mem)->device;
}

gboolean
gst_is_cuda_fx_buffer (GstBuffer * buffer)
{
  return gst_buffer_n_memory (buffer) == 1
      && gst_is_cuda_fx_memory (gst_buffer_peek_memory (buffer, 0));
}

#define BUFFER_PROTOCOL(name) \
cudaError_t \
gst_cuda_fx_buffer_##name (GstBuffer * buffer, cudaStream_t stream) \
{ \
  g_return_val_if_fail (gst_is_cuda_fx_buffer (buffer), \
      cudaErrorInvalidValue); \
  return gst_cuda_fx_memory_##name (gst_buffer_peek_memory (buffer, 0), \
      stream); \
}

BUFFER_PROTOCOL (begin_read);
BUFFER_PROTOCOL (end_read);
BUFFER_PROTOCOL (begin_write);
BUFFER_PROTOCOL (end_write);

/* ---- allocator ------------------------------------------------------- */

static GstCudaFxMemory *
memory_new (GstCudaFxContext * context, const GstVideoInfo * device_info,
    GError ** error)
{
  GstCudaFxMemory *self;
  guint8 *device = NULL;
  cudaEvent_t written = NULL;
  cudaError_t err;
  gsize size = MAX (device_info->size, 1);

  err = gst_cuda_fx_context_make_current (context);
  if (err == cudaSuccess)
    err = cudaMalloc ((void **) &device, size);
  if (err != cudaSuccess) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "cudaMalloc of %" G_GSIZE_FORMAT " bytes on device %d failed: %s (%s)",
        size, gst_cuda_fx_context_get_device_id (context),
        cudaGetErrorString (err), cudaGetErrorName (err));
    return NULL;
  }
  err = cudaEventCreateWithFlags (&written, cudaEventDisableTiming);
  if (err != cudaSuccess) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "cudaEventCreate on device %d failed: %s (%s)",
        gst_cuda_fx_context_get_device_id (context),
        cudaGetErrorString (err), cudaGetErrorName (err));
    cudaFree (device);
    return NULL;
  }

  self = g_new0 (GstCudaFxMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (self), GST_MEMORY_FLAG_NO_SHARE,
      gst_cuda_fx_allocator_get (), NULL, size, 0, 0, size);
  /* gst_memory_init took its own reference to the allocator */
  gst_object_unref (the_allocator);
  self->context = gst_object_ref (context);
  self->device = device;
  self->info = *device_info;
  g_mutex_init (&self->lock);
  self->written = written;
  self->reads = g_array_new (FALSE, FALSE, sizeof (ReadMark));
  return self;
}

/**
 * gst_cuda_fx_allocator_alloc_video:
 * @info: the frame's video info (its format and size; strides are ignored)
 *
 * Returns: (transfer full): device memory for one frame in the pitched
 * layout of gst_cuda_fx_video_info_to_device().
 */
GstMemory *
gst_cuda_fx_allocator_alloc_video (GstCudaFxContext * context,
    const GstVideoInfo * info, GError ** error)
{
  GstVideoInfo device_info;

  if (!gst_cuda_fx_video_info_to_device (info, &device_info)) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Cannot lay out a %s frame of %dx%d in device memory",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
    return NULL;
  }
  return GST_MEMORY_CAST (memory_new (context, &device_info, error));
}

static GstMemory *
gst_cuda_fx_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  g_warning ("Use gst_cuda_fx_allocator_alloc_video() to allocate from %s",
      GST_OBJECT_NAME (allocator));
  return NULL;
}

static void
gst_cuda_fx_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;

  gst_cuda_fx_context_make_current (self->context);
  /* cudaFree waits for the device, so no queued work can still use it */
  clear_reads (self);
  g_array_unref (self->reads);
  if (self->mirror) {
    cudaEventSynchronize (self->written);
    cudaFreeHost (self->mirror);
    cudaEventDestroy (self->mirror_event);
  }
  cudaEventDestroy (self->written);
  cudaFree (self->device);
  g_mutex_clear (&self->lock);
  gst_object_unref (self->context);
  g_free (self);
}

static gboolean
download_mirror (GstCudaFxMemory * self, gsize size)
{
  cudaStream_t stream = gst_cuda_fx_context_get_transfer_stream (self->context);
  cudaError_t err;

  err = gst_cuda_fx_context_make_current (self->context);
  if (err == cudaSuccess && !self->mirror) {
    err = cudaHostAlloc ((void **) &self->mirror, self->mem.maxsize,
        cudaHostAllocPortable);
    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags (&self->mirror_event,
          cudaEventDisableTiming);
  }
  if (err == cudaSuccess && self->has_written)
    err = cudaStreamWaitEvent (stream, self->written, 0);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (self->mirror, self->device, size,
        cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (self->mirror_event, stream);
  /* The CPU must see the bytes: wait for this copy alone */
  if (err == cudaSuccess)
    err = cudaEventSynchronize (self->mirror_event);
  if (err != cudaSuccess) {
    GST_ERROR ("CPU map of device memory failed: %s (%s)",
        cudaGetErrorString (err), cudaGetErrorName (err));
    return FALSE;
  }
  return TRUE;
}

static gboolean
upload_mirror (GstCudaFxMemory * self, gsize size)
{
  cudaStream_t stream = gst_cuda_fx_context_get_transfer_stream (self->context);
  cudaError_t err;
  guint i;

  err = gst_cuda_fx_context_make_current (self->context);
  if (err == cudaSuccess && self->has_written)
    err = cudaStreamWaitEvent (stream, self->written, 0);
  for (i = 0; err == cudaSuccess && i < self->reads->len; i++)
    err = cudaStreamWaitEvent (stream,
        g_array_index (self->reads, ReadMark, i).event, 0);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (self->device, self->mirror, size,
        cudaMemcpyHostToDevice, stream);
  if (err == cudaSuccess)
    err = cudaEventRecord (self->written, stream);
  if (err != cudaSuccess) {
    GST_ERROR ("Writing a CPU map back to the device failed: %s (%s)",
        cudaGetErrorString (err), cudaGetErrorName (err));
    return FALSE;
  }
  self->has_written = TRUE;
  clear_reads (self);
  return TRUE;
}

static gpointer
gst_cuda_fx_memory_map_full (GstMemory * mem, GstMapInfo * info,
    gsize maxsize)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  gpointer ret = NULL;

  if (info->flags & GST_MAP_CUDA_FX)
    return self->device;

  g_mutex_lock (&self->lock);
  if (self->cpu_maps > 0 || download_mirror (self, maxsize)) {
    self->cpu_maps++;
    ret = self->mirror;
  }
  g_mutex_unlock (&self->lock);
  return ret;
}

static void
gst_cuda_fx_memory_unmap_full (GstMemory * mem, GstMapInfo * info)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;

  if (info->flags & GST_MAP_CUDA_FX)
    return;

  g_mutex_lock (&self->lock);
  if (info->flags & GST_MAP_WRITE)
    upload_mirror (self, mem->maxsize);
  self->cpu_maps--;
  g_mutex_unlock (&self->lock);
}

static GstMemory *
gst_cuda_fx_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem;
  GstCudaFxMemory *copy;
  cudaStream_t stream = gst_cuda_fx_context_get_transfer_stream (self->context);
  cudaError_t err;
  GError *error = NULL;

  /* Device memory is copied whole: the layout belongs to the frame */
  copy = memory_new (self->context, &self->info, &error);
  if (!copy) {
    GST_ERROR ("copy failed: %s", error->message);
    g_clear_error (&error);
    return NULL;
  }
  err = gst_cuda_fx_memory_begin_read (mem, stream);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (copy->device, self->device, mem->maxsize,
        cudaMemcpyDeviceToDevice, stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_memory_end_read (mem, stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_memory_end_write (GST_MEMORY_CAST (copy), stream);
  if (err != cudaSuccess) {
    GST_ERROR ("device copy failed: %s", cudaGetErrorName (err));
    gst_memory_unref (GST_MEMORY_CAST (copy));
    return NULL;
  }
  GST_MEMORY_CAST (copy)->offset = mem->offset;
  GST_MEMORY_CAST (copy)->size = mem->size;
  return GST_MEMORY_CAST (copy);
}

static GstMemory *
gst_cuda_fx_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  return NULL;
}

static void
gst_cuda_fx_allocator_class_init (GstCudaFxAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_cuda_fx_allocator_alloc;
  allocator_class->free = gst_cuda_fx_allocator_free;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_memory_debug, "cudafxmemory", 0,
      "gst-cudafx device memory");
}

static void
gst_cuda_fx_allocator_init (GstCudaFxAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CUDA_FX_MEMORY_NAME;
  alloc->mem_map_full = gst_cuda_fx_memory_map_full;
  alloc->mem_unmap_full = gst_cuda_fx_memory_unmap_full;
  alloc->mem_copy = gst_cuda_fx_memory_copy;
  alloc->mem_share = gst_cuda_fx_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

/**
 * gst_cuda_fx_allocator_get:
 *
 * Returns: (transfer full): the device memory allocator (one per process,
 * registered as %GST_CUDA_FX_MEMORY_NAME).
 */
GstAllocator *
gst_cuda_fx_allocator_get (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    the_allocator = g_object_new (GST_TYPE_CUDA_FX_ALLOCATOR, NULL);
    gst_object_ref_sink (the_allocator);
    GST_OBJECT_FLAG_SET (the_allocator, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    gst_allocator_register (GST_CUDA_FX_MEMORY_NAME,
        gst_object_ref (the_allocator));
    g_once_init_leave (&once, 1);
  }
  return gst_object_ref (the_allocator);
}
