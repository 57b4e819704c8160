/* gst-cudafx: device memory and its allocator: pooled allocations, shares
 * by reference, device copies, CPU maps through a pinned mirror. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxmemory.h"
#include "gstcudafxmemory-private.h"
#include "gstcudafxformat.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_memory_debug

struct _GstCudaFxMemory
{
  GstMemory mem;

  /* what follows is the root's: a shared memory (gst_memory_share, what
   * gst_buffer_copy does) points at its root's allocation and events */
  GstCudaFxMemory *root;
  GstCudaFxContext *context;
  guint8 *device;
  GstVideoInfo info;            /* device layout: pitched planes, stacked */
  GstCudaFxSync *sync;

  /* CPU maps go through a pinned copy */
  GMutex lock;
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
/* device copies made (gst_cuda_fx_memory_get_copy_count) */
static gint copy_count;

guint64
gst_cuda_fx_memory_get_copy_count (void)
{
  return (guint) g_atomic_int_get (&copy_count);
}

/**
 * gst_cuda_fx_video_info_to_device:
 *
 * The device layout of a frame: each plane's rows padded to a multiple of
 * %GST_CUDA_FX_PITCH_ALIGN bytes, planes stacked, each starting aligned.
 *
 * Returns: %FALSE where there is none: a pitch over %G_MAXINT, or a frame
 * of 4 GiB or more (a buffer pool counts a buffer's size in 32 bits).
 */
gboolean
gst_cuda_fx_video_info_to_device (const GstVideoInfo * info,
    GstVideoInfo * device_info)
{
  guint64 offset = 0;
  guint p;

  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UNKNOWN
      || GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_ENCODED
      || GST_VIDEO_INFO_WIDTH (info) <= 0 || GST_VIDEO_INFO_HEIGHT (info) <= 0)
    return FALSE;

  *device_info = *info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint rows = gst_cuda_fx_video_info_plane_height (info, p);
    /* a fresh info's stride is the plane's row size (4-byte rounded) */
    guint64 pitch = GST_ROUND_UP_N ((guint64) GST_VIDEO_INFO_PLANE_STRIDE
        (info, p), GST_CUDA_FX_PITCH_ALIGN);

    if (GST_VIDEO_INFO_PLANE_STRIDE (info, p) <= 0 || rows <= 0
        || pitch > G_MAXINT)
      return FALSE;
    device_info->stride[p] = (gint) pitch;
    device_info->offset[p] = (gsize) offset;
    offset += pitch * rows;
  }
  device_info->size = offset;
  /* a buffer pool's size is a guint */
  return offset <= G_MAXUINT;
}

gboolean
gst_is_cuda_fx_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CUDA_FX_ALLOCATOR (mem->allocator);
}

/**
 * gst_cuda_fx_memory_get_context:
 *
 * Returns: (transfer none): the object
 */
GstCudaFxContext *
gst_cuda_fx_memory_get_context (GstMemory * mem)
{
  return ((GstCudaFxMemory *) mem)->root->context;
}

const GstVideoInfo *
gst_cuda_fx_memory_get_video_info (GstMemory * mem)
{
  return &((GstCudaFxMemory *) mem)->root->info;
}

/* The start of the allocation (what a map adds mem->offset to) */
gpointer
gst_cuda_fx_memory_get_device_pointer (GstMemory * mem)
{
  return ((GstCudaFxMemory *) mem)->root->device;
}

GstCudaFxSync *
gst_cuda_fx_memory_get_sync (GstMemory * mem)
{
  return ((GstCudaFxMemory *) mem)->root->sync;
}

gboolean
gst_is_cuda_fx_buffer (GstBuffer * buffer)
{
  return gst_buffer_n_memory (buffer) == 1
      && gst_is_cuda_fx_memory (gst_buffer_peek_memory (buffer, 0));
}

/* ---- allocations of a context ------------------------------------------ */

/* Device frames come from a memory pool of the context's own, allocated
 * and released on streams that carry nothing else: an allocation waits for
 * no one, a release only for the allocation's last users. A context
 * without a pool (the device has none, or the context was adopted from
 * GStreamer's CUDA library) allocates with plain cudaMalloc/cudaFree. Made
 * on a context's first allocation, released when the context goes (at its
 * dispose, while its CUDA context, an adopted one too, is still there). */
typedef struct
{
  GstCudaFxContext *context;    /* not a reference: a weak one */
  cudaMemPool_t pool;
  cudaStream_t alloc_stream;
  cudaStream_t free_stream;
} DeviceHeap;

static G_DEFINE_QUARK (gst-cuda-fx-device-heap, heap);
static GMutex heap_lock;

static void
device_heap_free (gpointer data, GObject * disposed)
{
  DeviceHeap *heap = data;

  /* every allocation held a reference to the context: none is left, and
   * the pool releases its blocks once their pending frees have run */
  gst_cuda_fx_context_make_current (heap->context);
  if (heap->alloc_stream)
    cudaStreamDestroy (heap->alloc_stream);
  if (heap->free_stream)
    cudaStreamDestroy (heap->free_stream);
  if (heap->pool)
    cudaMemPoolDestroy (heap->pool);
  g_free (heap);
}

/* A pool that keeps what is released (frames are reallocated at the same
 * sizes all the time) and reuses a block only once its release is known
 * to be complete, never by making one stream wait for another. */
static cudaError_t
create_mem_pool (DeviceHeap * heap)
{
  gint device_id = gst_cuda_fx_context_get_device_id (heap->context);
  struct cudaMemPoolProps props;
  cudaMemPool_t pool;
  guint64 keep = G_MAXUINT64;
  gint supported = 0, no = 0;
  cudaError_t err;

  err = cudaDeviceGetAttribute (&supported, cudaDevAttrMemoryPoolsSupported,
      device_id);
  if (err != cudaSuccess || !supported) {
    GST_INFO_OBJECT (heap->context, "no memory pools on device %d: "
        "cudaMalloc per frame allocation", device_id);
    cudaGetLastError ();
    return cudaSuccess;
  }

  memset (&props, 0, sizeof (props));
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device_id;
  err = cudaMemPoolCreate (&pool, &props);
  if (err != cudaSuccess)
    return err;
  err = cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold,
      &keep);
  if (err == cudaSuccess)
    err = cudaMemPoolSetAttribute (pool,
        cudaMemPoolReuseAllowInternalDependencies, &no);
  if (err != cudaSuccess) {
    cudaMemPoolDestroy (pool);
    return err;
  }
  heap->pool = pool;
  return cudaSuccess;
}

/* The heap of @context, made on first use in the context current now */
static DeviceHeap *
device_heap (GstCudaFxContext * context, cudaError_t * err)
{
  DeviceHeap *heap;

  g_mutex_lock (&heap_lock);
  heap = g_object_get_qdata (G_OBJECT (context), heap_quark ());
  if (!heap) {
    heap = g_new0 (DeviceHeap, 1);
    heap->context = context;
    *err = cudaStreamCreateWithFlags (&heap->alloc_stream,
        cudaStreamNonBlocking);
    if (*err == cudaSuccess)
      *err = cudaStreamCreateWithFlags (&heap->free_stream,
          cudaStreamNonBlocking);
    /* an adopted context allocates with cudaMalloc: pool allocations are
     * not known to be usable from a context other than the primary one */
    if (*err == cudaSuccess && gst_cuda_fx_context_is_primary (context))
      *err = create_mem_pool (heap);
    if (*err == cudaSuccess) {
      g_object_set_qdata (G_OBJECT (context), heap_quark (), heap);
      g_object_weak_ref (G_OBJECT (context), device_heap_free, heap);
    } else {
      device_heap_free (heap, NULL);
      heap = NULL;
    }
  }
  g_mutex_unlock (&heap_lock);
  return heap;
}

/* Device memory for one allocation, all zero with @zero. With the pool the
 * allocation is stream-ordered on a stream of its own and @sync records its
 * completion as a write, so that the first user waits for it on the GPU. */
static cudaError_t
device_alloc (GstCudaFxContext * context, gsize size, gboolean zero,
    gpointer * ptr, GstCudaFxSync * sync)
{
  DeviceHeap *heap;
  cudaError_t err;

  err = gst_cuda_fx_context_make_current (context);
  if (err != cudaSuccess || !(heap = device_heap (context, &err)))
    return err;
  err = heap->pool ? cudaMallocFromPoolAsync (ptr, size, heap->pool,
      heap->alloc_stream) : cudaMalloc (ptr, size);
  if (err != cudaSuccess)
    return err;
  /* the fill is on the allocation stream too (element streams do not wait
   * for the legacy stream); a synchronous cudaMalloc alone needs no event */
  if (zero)
    err = cudaMemsetAsync (*ptr, 0, size, heap->alloc_stream);
  if (err == cudaSuccess && (heap->pool || zero))
    err = gst_cuda_fx_sync_end (sync, heap->alloc_stream, TRUE);
  if (err != cudaSuccess) {
    if (heap->pool)
      cudaFreeAsync (*ptr, heap->alloc_stream);
    else
      cudaFree (*ptr);
  }
  return err;
}

/* Releases @ptr once every user @sync knows of is done, without a host
 * wait (cudaFree, without a pool, waits for the device). */
static void
device_free (GstCudaFxContext * context, gpointer ptr, GstCudaFxSync * sync)
{
  DeviceHeap *heap = g_object_get_qdata (G_OBJECT (context), heap_quark ());
  cudaError_t err;

  gst_cuda_fx_context_make_current (context);
  if (!heap->pool) {
    cudaFree (ptr);
    return;
  }
  err = gst_cuda_fx_sync_begin (sync, heap->free_stream, TRUE);
  if (err == cudaSuccess)
    err = cudaFreeAsync (ptr, heap->free_stream);
  if (err != cudaSuccess) {
    /* the device is lost or the stream is broken: nothing runs any more */
    GST_ERROR_OBJECT (context, "releasing device memory failed: %s",
        cudaGetErrorName (err));
    cudaStreamSynchronize (heap->free_stream);
    cudaFree (ptr);
  }
}

/* The heap of @context, made current, where it has a stream-ordered pool */
static DeviceHeap *
pooled_heap (GstCudaFxContext * context)
{
  DeviceHeap *heap;
  cudaError_t err;

  err = gst_cuda_fx_context_make_current (context);
  if (err != cudaSuccess || !(heap = device_heap (context, &err))
      || !heap->pool)
    return NULL;
  return heap;
}

/**
 * gst_cuda_fx_context_get_memory_stats:
 * @in_use: (out) (optional): bytes in frames now
 * @reserved: (out) (optional): bytes the pool holds, frames and freed ones
 *
 * For monitoring and leak checks: frames still alive show in @in_use.
 */
gboolean
gst_cuda_fx_context_get_memory_stats (GstCudaFxContext * context,
    guint64 * in_use, guint64 * reserved)
{
  DeviceHeap *heap;
  guint64 used = 0, held = 0;   /* cuuint64_t: 64 bits */
  cudaError_t err;

  g_return_val_if_fail (GST_IS_CUDA_FX_CONTEXT (context), FALSE);
  if (!(heap = pooled_heap (context)))
    return FALSE;
  err = cudaMemPoolGetAttribute (heap->pool, cudaMemPoolAttrUsedMemCurrent,
      &used);
  if (err == cudaSuccess)
    err = cudaMemPoolGetAttribute (heap->pool,
        cudaMemPoolAttrReservedMemCurrent, &held);
  if (err != cudaSuccess)
    return FALSE;
  if (in_use)
    *in_use = used;
  if (reserved)
    *reserved = held;
  return TRUE;
}

/**
 * gst_cuda_fx_context_release_unused_memory:
 *
 * Gives back to the device the memory the context's pool keeps for reuse
 * (freed frames, once their frees have run), for other processes or
 * another allocator; frames still alive keep theirs.
 *
 * Returns: whether the pool could be trimmed
 */
gboolean
gst_cuda_fx_context_release_unused_memory (GstCudaFxContext * context)
{
  DeviceHeap *heap;
  cudaError_t err;

  g_return_val_if_fail (GST_IS_CUDA_FX_CONTEXT (context), FALSE);
  if (!(heap = pooled_heap (context)))
    return FALSE;
  /* the queued frees first: only then are their blocks unused */
  err = cudaStreamSynchronize (heap->free_stream);
  if (err == cudaSuccess)
    err = cudaMemPoolTrimTo (heap->pool, 0);
  return err == cudaSuccess;
}

/* ---- allocator ------------------------------------------------------- */

static GstCudaFxMemory *
memory_new (GstCudaFxContext * context, const GstVideoInfo * device_info,
    gboolean zero, GError ** error)
{
  GstCudaFxMemory *self;
  GstCudaFxSync *sync = gst_cuda_fx_sync_new (context);
  gpointer device = NULL;
  cudaError_t err;
  gsize size = MAX (device_info->size, 1);

  err = device_alloc (context, size, zero, &device, sync);
  if (err != cudaSuccess) {
    size_t free_bytes = 0, total_bytes = 0;

    cudaMemGetInfo (&free_bytes, &total_bytes);
    cudaGetLastError ();        /* said in the message: not the thread's */
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Allocating device memory for a %dx%d %s frame (%" G_GSIZE_FORMAT
        " bytes) on CUDA device %d failed: %s (%s); the device has %"
        G_GSIZE_FORMAT " MiB free of %" G_GSIZE_FORMAT " MiB",
        GST_VIDEO_INFO_WIDTH (device_info), GST_VIDEO_INFO_HEIGHT (device_info),
        GST_VIDEO_INFO_NAME (device_info), size,
        gst_cuda_fx_context_get_device_id (context), cudaGetErrorString (err),
        cudaGetErrorName (err), (gsize) (free_bytes >> 20),
        (gsize) (total_bytes >> 20));
    gst_cuda_fx_sync_free (sync);
    return NULL;
  }

  self = g_new0 (GstCudaFxMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (self), 0, the_allocator, NULL, size, 0,
      0, size);
  self->root = self;
  self->context = gst_object_ref (context);
  self->device = device;
  self->info = *device_info;
  self->sync = sync;
  g_mutex_init (&self->lock);
  return self;
}

/**
 * gst_cuda_fx_allocator_alloc_video:
 * @info: the frame's video info (its format and size; strides are ignored)
 *
 * Device memory for one frame, all zero, from the context's memory pool:
 * no device-wide synchronisation, and the first user's stream waits for the
 * allocation on the GPU.
 *
 * Returns: (transfer full): device memory for one frame in the pitched
 * layout of gst_cuda_fx_video_info_to_device().
 */
GstMemory *
gst_cuda_fx_allocator_alloc_video (GstCudaFxContext * context,
    const GstVideoInfo * info, GError ** error)
{
  GstVideoInfo device_info;

  gst_object_unref (gst_cuda_fx_allocator_get ());      /* registered */
  if (!gst_cuda_fx_video_info_to_device (info, &device_info)) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Cannot lay out a %s frame of %dx%d in device memory",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
    return NULL;
  }
  /* zeroed once: row padding is never written, so raw output is
   * byte-stable and no kernel reads uninitialised memory */
  return GST_MEMORY_CAST (memory_new (context, &device_info, TRUE, error));
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

  /* a share: GStreamer drops its reference to the root */
  if (self->root != self) {
    g_free (self);
    return;
  }

  gst_cuda_fx_context_make_current (self->context);
  if (self->mirror) {
    cudaEventSynchronize (self->mirror_event);
    cudaFreeHost (self->mirror);
    cudaEventDestroy (self->mirror_event);
  }
  /* released once its last reader and writer are done, on the GPU */
  device_free (self->context, self->device, self->sync);
  gst_cuda_fx_sync_free (self->sync);
  g_mutex_clear (&self->lock);
  gst_object_unref (self->context);
  g_free (self);
}

static gboolean
download_mirror (GstCudaFxMemory * self)
{
  cudaStream_t stream = gst_cuda_fx_context_get_transfer_stream (self->context);
  cudaError_t err;

  err = gst_cuda_fx_context_make_current (self->context);
  if (err == cudaSuccess && !self->mirror) {
    err = cudaHostAlloc ((void **) &self->mirror, self->mem.maxsize,
        cudaHostAllocPortable);
    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags (&self->mirror_event,
          cudaEventDisableTiming | cudaEventBlockingSync);
  }
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_begin (self->sync, stream, FALSE);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (self->mirror, self->device, self->mem.maxsize,
        cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_end (self->sync, stream, FALSE);
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
upload_mirror (GstCudaFxMemory * self)
{
  cudaStream_t stream = gst_cuda_fx_context_get_transfer_stream (self->context);
  cudaError_t err;

  err = gst_cuda_fx_context_make_current (self->context);
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_begin (self->sync, stream, TRUE);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (self->device, self->mirror, self->mem.maxsize,
        cudaMemcpyHostToDevice, stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_end (self->sync, stream, TRUE);
  /* the mirror may be mapped and written again before the copy is done */
  if (err == cudaSuccess)
    err = gst_cuda_fx_context_wait_stream (self->context, stream);
  if (err != cudaSuccess) {
    GST_ERROR ("Writing a CPU map back to the device failed: %s (%s)",
        cudaGetErrorString (err), cudaGetErrorName (err));
    return FALSE;
  }
  return TRUE;
}

static gpointer
gst_cuda_fx_memory_map_full (GstMemory * mem, GstMapInfo * info,
    gsize maxsize)
{
  GstCudaFxMemory *self = ((GstCudaFxMemory *) mem)->root;
  gpointer ret = NULL;

  if (info->flags & GST_MAP_CUDA_FX)
    return self->device;

  g_mutex_lock (&self->lock);
  if (self->cpu_maps > 0 || download_mirror (self)) {
    self->cpu_maps++;
    ret = self->mirror;
  }
  g_mutex_unlock (&self->lock);
  return ret;
}

static void
gst_cuda_fx_memory_unmap_full (GstMemory * mem, GstMapInfo * info)
{
  GstCudaFxMemory *self = ((GstCudaFxMemory *) mem)->root;

  if (info->flags & GST_MAP_CUDA_FX)
    return;

  g_mutex_lock (&self->lock);
  if (info->flags & GST_MAP_WRITE)
    upload_mirror (self);
  self->cpu_maps--;
  g_mutex_unlock (&self->lock);
}

/* A real copy (gst_buffer_map for writing of a shared memory, a deep
 * gst_buffer_copy): pooled device memory and a device-to-device copy,
 * ordered by the event protocol, no host wait. */
static GstMemory *
gst_cuda_fx_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaFxMemory *self = ((GstCudaFxMemory *) mem)->root;
  GstCudaFxMemory *copy;
  cudaStream_t stream = gst_cuda_fx_context_get_transfer_stream (self->context);
  cudaError_t err;
  GError *error = NULL;

  /* Device memory is copied whole: the layout belongs to the frame */
  copy = memory_new (self->context, &self->info, FALSE, &error);
  if (!copy) {
    GST_ERROR ("copy failed: %s", error->message);
    g_clear_error (&error);
    return NULL;
  }
  err = gst_cuda_fx_sync_begin (self->sync, stream, FALSE);
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_begin (copy->sync, stream, TRUE);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (copy->device, self->device, self->mem.maxsize,
        cudaMemcpyDeviceToDevice, stream);
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_end (self->sync, stream, FALSE);
  if (err == cudaSuccess)
    err = gst_cuda_fx_sync_end (copy->sync, stream, TRUE);
  if (err != cudaSuccess) {
    GST_ERROR ("device copy failed: %s", cudaGetErrorName (err));
    gst_memory_unref (GST_MEMORY_CAST (copy));
    return NULL;
  }
  GST_MEMORY_CAST (copy)->offset = mem->offset;
  GST_MEMORY_CAST (copy)->size = mem->size;
  g_atomic_int_inc (&copy_count);
  return GST_MEMORY_CAST (copy);
}

/* A share is a reference: the same allocation, events and layout, and
 * read-only (a write to it goes through a copy, as for system memory) */
static GstMemory *
gst_cuda_fx_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaFxMemory *self = (GstCudaFxMemory *) mem, *share;

  if (size == -1)
    size = mem->size - offset;
  share = g_new0 (GstCudaFxMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (share),
      GST_MINI_OBJECT_FLAGS (mem) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      mem->allocator, GST_MEMORY_CAST (self->root), mem->maxsize, mem->align,
      mem->offset + offset, size);
  share->root = self->root;
  return GST_MEMORY_CAST (share);
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
