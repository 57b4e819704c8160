/* gst-cudafx: per-device context singleton, event pool, deferred release
 * of host memory under the copy engine, and GstContext sharing. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxcontext.h"
#include "gstcudafx-private.h"
#include "gstcudafxinterop.h"

#include <stdarg.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_context_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_context_debug

#define MAX_DEVICES 64

typedef struct
{
  cudaEvent_t event;
  gpointer object;              /* NULL with a NULL event: stop the thread */
} PendingRelease;

struct _GstCudaFxContext
{
  GstObject parent;

  gint device_id;
  gchar *device_name;
  gint sm_count;

  /* The CUDA context all work runs in: the device's primary context (the
   * one nvcc-compiled launches use by default), or one that GStreamer's
   * CUDA library made first and this object adopted (gstcudafxinterop.c) */
  gpointer cu_context;
  gboolean primary;
  /* the same CUDA context as a GstCudaContext of gst-plugins-bad, for
   * its elements (NULL until asked for, or without that library) */
  GstObject *interop_context;

  cudaStream_t transfer_stream;

  /* Device frames come from a memory pool of the context's own, on
   * streams that carry nothing else: an allocation waits for no one, a
   * release only for the allocation's last users. NULL pool: the device
   * has no memory pools, plain cudaMalloc/cudaFree. */
  cudaMemPool_t mem_pool;
  cudaStream_t alloc_stream;
  cudaStream_t free_stream;

  GMutex event_lock;
  GQueue free_events;
  GQueue free_wait_events;      /* blocking sync: for waits on the host */

  /* Releases host objects once the copies reading them are done, so the
   * streaming threads never wait for the copy engine. */
  GThread *release_thread;
  GAsyncQueue *pending;
};

G_DEFINE_TYPE (GstCudaFxContext, gst_cuda_fx_context, GST_TYPE_OBJECT);

static GMutex singleton_lock;
static GWeakRef singletons[MAX_DEVICES];
/* contexts adopted from GStreamer's CUDA library: a GWeakRef each */
static GPtrArray *adopted;

/* Driver API entry points, through the runtime (the plugin links no
 * libcuda: the runtime finds the driver) */
typedef int (*CtxGetCurrentFunc) (gpointer * ctx);
typedef int (*CtxSetCurrentFunc) (gpointer ctx);
static CtxGetCurrentFunc ctx_get_current;
static CtxSetCurrentFunc ctx_set_current;

static gboolean
load_driver_entry_points (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    enum cudaDriverEntryPointQueryResult status;

    if (cudaGetDriverEntryPointByVersion ("cuCtxGetCurrent",
            (void **) &ctx_get_current, 12000, cudaEnableDefault,
            &status) != cudaSuccess || status != cudaDriverEntryPointSuccess)
      ctx_get_current = NULL;
    if (cudaGetDriverEntryPointByVersion ("cuCtxSetCurrent",
            (void **) &ctx_set_current, 12000, cudaEnableDefault,
            &status) != cudaSuccess || status != cudaDriverEntryPointSuccess)
      ctx_set_current = NULL;
    cudaGetLastError ();
    g_once_init_leave (&once, 1);
  }
  return ctx_get_current && ctx_set_current;
}

G_DEFINE_QUARK (gst-cuda-fx-error-quark, gst_cuda_fx_error);

static void
gst_cuda_fx_context_init (GstCudaFxContext * self)
{
  self->primary = TRUE;
  g_mutex_init (&self->event_lock);
  g_queue_init (&self->free_events);
  g_queue_init (&self->free_wait_events);
  self->pending = g_async_queue_new ();
}

static void
gst_cuda_fx_context_finalize (GObject * object)
{
  GstCudaFxContext *self = GST_CUDA_FX_CONTEXT (object);
  cudaEvent_t event;

  GST_DEBUG_OBJECT (self, "releasing device %d", self->device_id);

  if (self->release_thread) {
    PendingRelease *stop = g_new0 (PendingRelease, 1);

    g_async_queue_push (self->pending, stop);
    /* The last reference may drop on the release thread itself, through an
     * object it released: it cannot join itself. */
    if (g_thread_self () == self->release_thread)
      g_thread_unref (self->release_thread);
    else
      g_thread_join (self->release_thread);
  }
  g_async_queue_unref (self->pending);

  gst_cuda_fx_context_make_current (self);
  while ((event = g_queue_pop_head (&self->free_wait_events)))
    cudaEventDestroy (event);
  while ((event = g_queue_pop_head (&self->free_events)))
    cudaEventDestroy (event);
  if (self->transfer_stream)
    cudaStreamDestroy (self->transfer_stream);
  if (self->alloc_stream)
    cudaStreamDestroy (self->alloc_stream);
  if (self->free_stream)
    cudaStreamDestroy (self->free_stream);
  /* every allocation holds a reference: none is left */
  if (self->mem_pool)
    cudaMemPoolDestroy (self->mem_pool);
  g_mutex_clear (&self->event_lock);
  g_free (self->device_name);
  gst_clear_object (&self->interop_context);

  G_OBJECT_CLASS (gst_cuda_fx_context_parent_class)->finalize (object);
}

static void
gst_cuda_fx_context_class_init (GstCudaFxContextClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cuda_fx_context_finalize;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_context_debug, "cudafxcontext", 0,
      "gst-cudafx device context");
}

static void release_wait_event (GstCudaFxContext * context,
    cudaEvent_t event);

static gpointer
release_thread_func (gpointer data)
{
  GstCudaFxContext *self = data;
  GAsyncQueue *pending = g_async_queue_ref (self->pending);
  PendingRelease *item;

  /* the events it waits for are the context's: its device, current */
  gst_cuda_fx_context_make_current (self);
  /* no reference to the context: it stops this thread when it goes */
  while ((item = g_async_queue_pop (pending))) {
    if (!item->event) {
      g_free (item);
      break;
    }
    /* A failed wait still releases: an error here means the device is
     * lost and nothing will read the memory any more. */
    cudaEventSynchronize (item->event);
    release_wait_event (self, item->event);
    gst_mini_object_unref (item->object);
    g_free (item);
  }
  g_async_queue_unref (pending);
  return NULL;
}

/* A pool that keeps what is released (frames are reallocated at the same
 * sizes all the time) and reuses a block only once its release is known
 * to be complete, never by making one stream wait for another. */
static cudaError_t
create_mem_pool (GstCudaFxContext * self)
{
  struct cudaMemPoolProps props;
  cudaMemPool_t pool;
  guint64 keep = G_MAXUINT64;
  gint supported = 0, no = 0;
  cudaError_t err;

  err = cudaDeviceGetAttribute (&supported, cudaDevAttrMemoryPoolsSupported,
      self->device_id);
  if (err != cudaSuccess || !supported) {
    GST_INFO_OBJECT (self, "no memory pools on device %d: cudaMalloc per "
        "frame allocation", self->device_id);
    cudaGetLastError ();
    return cudaSuccess;
  }

  memset (&props, 0, sizeof (props));
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = self->device_id;
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
  self->mem_pool = pool;
  return cudaSuccess;
}

/* Streams, the memory pool and the release thread, in the context current
 * now */
static gboolean
create_resources (GstCudaFxContext * self, GError ** error)
{
  cudaError_t err;

  err = cudaStreamCreateWithFlags (&self->transfer_stream,
      cudaStreamNonBlocking);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags (&self->alloc_stream,
        cudaStreamNonBlocking);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags (&self->free_stream,
        cudaStreamNonBlocking);
  /* an adopted context allocates with cudaMalloc: pool allocations are
   * not known to be usable from a context other than the primary one */
  if (err == cudaSuccess && self->primary)
    err = create_mem_pool (self);
  if (err != cudaSuccess) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Creating streams and a memory pool on device %d failed: %s (%s)",
        self->device_id, cudaGetErrorString (err), cudaGetErrorName (err));
    return FALSE;
  }
  self->release_thread = g_thread_new ("cudafx-release", release_thread_func,
      self);
  return TRUE;
}

static GstCudaFxContext *
context_new (gint device_id, GError ** error)
{
  GstCudaFxContext *self;
  struct cudaDeviceProp prop;
  cudaError_t err;
  gint count = 0;

  err = cudaGetDeviceCount (&count);
  if (err == cudaErrorInsufficientDriver) {
    gint runtime = 0;

    cudaRuntimeGetVersion (&runtime);
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_NO_DEVICE,
        "No CUDA device available: no NVIDIA driver is installed, or it is "
        "older than this build's CUDA %d.%d runtime needs (%s)",
        runtime / 1000, (runtime % 1000) / 10, cudaGetErrorName (err));
    return NULL;
  }
  if (err != cudaSuccess || count == 0) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_NO_DEVICE,
        "No CUDA device available: %s (%s)",
        err != cudaSuccess ? cudaGetErrorString (err) : "no device found",
        err != cudaSuccess ? cudaGetErrorName (err) : "0 devices");
    return NULL;
  }
  if (device_id >= count) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_DEVICE_ID,
        "CUDA device %d requested, but this machine has %d CUDA device%s "
        "(0..%d)", device_id, count, count == 1 ? "" : "s", count - 1);
    return NULL;
  }

  /* The primary context: the one nvcc-compiled launches use */
  if ((err = cudaSetDevice (device_id)) != cudaSuccess
      || (err = cudaFree (NULL)) != cudaSuccess
      || (err = cudaGetDeviceProperties (&prop, device_id)) != cudaSuccess) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Initialising CUDA device %d failed: %s (%s)", device_id,
        cudaGetErrorString (err), cudaGetErrorName (err));
    return NULL;
  }

  self = g_object_new (GST_TYPE_CUDA_FX_CONTEXT, NULL);
  gst_object_ref_sink (self);
  self->device_id = device_id;
  self->device_name = g_strdup (prop.name);
  self->sm_count = prop.multiProcessorCount;
  self->primary = TRUE;
  if (load_driver_entry_points ())
    ctx_get_current (&self->cu_context);
  if (!create_resources (self, error)) {
    gst_object_unref (self);
    return NULL;
  }

  GST_INFO_OBJECT (self, "device %d: %s, %d SMs, compute %d.%d", device_id,
      prop.name, prop.multiProcessorCount, prop.major, prop.minor);
  return self;
}

/**
 * gst_cuda_fx_context_get:
 * @device_id: CUDA device ordinal (>= 0)
 *
 * Returns: (transfer full): the process-wide context of @device_id, created
 * on first use, or %NULL with @error set (no driver, no such device).
 */
GstCudaFxContext *
gst_cuda_fx_context_get (gint device_id, GError ** error)
{
  GstCudaFxContext *self;

  if (device_id < 0) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_DEVICE_ID,
        "Invalid CUDA device id %d", device_id);
    return NULL;
  }
  if (device_id >= MAX_DEVICES) {
    /* no machine has that many: say what this one has (or lacks) */
    self = context_new (device_id, error);
    if (self) {
      gst_object_unref (self);
      g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_DEVICE_ID,
          "CUDA device %d requested, but at most %d are supported",
          device_id, MAX_DEVICES);
    }
    return NULL;
  }

  g_mutex_lock (&singleton_lock);
  self = g_weak_ref_get (&singletons[device_id]);
  if (!self) {
    self = context_new (device_id, error);
    if (self)
      g_weak_ref_set (&singletons[device_id], self);
  }
  g_mutex_unlock (&singleton_lock);

  return self;
}

gint
gst_cuda_fx_context_get_device_id (GstCudaFxContext * context)
{
  return context->device_id;
}

const gchar *
gst_cuda_fx_context_get_device_name (GstCudaFxContext * context)
{
  return context->device_name;
}

gint
gst_cuda_fx_context_get_sm_count (GstCudaFxContext * context)
{
  return context->sm_count;
}

/**
 * gst_cuda_fx_context_make_current: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaError_t
gst_cuda_fx_context_make_current (GstCudaFxContext * context)
{
  if (context->primary)
    return cudaSetDevice (context->device_id);
  /* CUDA_SUCCESS is 0, as cudaSuccess */
  return ctx_set_current && ctx_set_current (context->cu_context) == 0 ?
      cudaSuccess : cudaErrorInvalidResourceHandle;
}

/**
 * gst_cuda_fx_context_get_handle:
 *
 * Returns: the CUcontext the context's work runs in (NULL where the
 * driver's entry points could not be found)
 */
gpointer
gst_cuda_fx_context_get_handle (GstCudaFxContext * context)
{
  return context->cu_context;
}

gboolean
gst_cuda_fx_context_is_primary (GstCudaFxContext * context)
{
  return context->primary;
}

/* Internal: gst-plugins-bad's GstCudaContext for the same CUDA context,
 * kept for the context's life (transfer none) */
GstObject *
gst_cuda_fx_context_get_interop (GstCudaFxContext * context)
{
  return context->interop_context;
}

void
gst_cuda_fx_context_set_interop (GstCudaFxContext * context,
    GstObject * interop_context)
{
  GST_OBJECT_LOCK (context);
  if (!context->interop_context && interop_context)
    context->interop_context = gst_object_ref (interop_context);
  GST_OBJECT_UNLOCK (context);
}

/* Internal: the context whose work runs in @cu_context (a CUcontext of
 * @device_id that GStreamer's CUDA library made): the device's primary
 * context object if it is the primary context, else one object per
 * @cu_context, made on first use. (transfer full) */
GstCudaFxContext *
gst_cuda_fx_context_adopt (gpointer cu_context, gint device_id,
    GstObject * interop_context, GError ** error)
{
  GstCudaFxContext *self = NULL, *primary;
  guint i;

  primary = gst_cuda_fx_context_get (device_id, error);
  if (!primary)
    return NULL;
  if (primary->cu_context == cu_context) {
    gst_cuda_fx_context_set_interop (primary, interop_context);
    return primary;
  }
  if (!load_driver_entry_points () || !cu_context) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Cannot use another library's CUDA context on device %d: the "
        "driver's context functions are missing", device_id);
    gst_object_unref (primary);
    return NULL;
  }

  g_mutex_lock (&singleton_lock);
  if (!adopted)
    adopted = g_ptr_array_new ();
  for (i = 0; i < adopted->len && !self; i++) {
    self = g_weak_ref_get (g_ptr_array_index (adopted, i));
    if (self && self->cu_context != cu_context)
      gst_clear_object (&self);
  }
  if (!self) {
    self = g_object_new (GST_TYPE_CUDA_FX_CONTEXT, NULL);
    gst_object_ref_sink (self);
    self->device_id = device_id;
    self->device_name = g_strdup (primary->device_name);
    self->sm_count = primary->sm_count;
    self->cu_context = cu_context;
    self->primary = FALSE;
    gst_cuda_fx_context_set_interop (self, interop_context);
    if (ctx_set_current (cu_context) != 0) {
      g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
          "Cannot make the CUDA context %p of device %d current", cu_context,
          device_id);
      gst_clear_object (&self);
    } else if (!create_resources (self, error)) {
      gst_clear_object (&self);
    } else {
      GWeakRef *ref = g_new0 (GWeakRef, 1);

      g_weak_ref_init (ref, self);
      g_ptr_array_add (adopted, ref);
      GST_INFO_OBJECT (self, "device %d: adopted CUDA context %p", device_id,
          cu_context);
    }
  }
  g_mutex_unlock (&singleton_lock);
  gst_object_unref (primary);
  return self;
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
  guint64 used = 0, held = 0;   /* cuuint64_t: 64 bits */
  cudaError_t err;

  g_return_val_if_fail (GST_IS_CUDA_FX_CONTEXT (context), FALSE);
  if (!context->mem_pool)
    return FALSE;
  err = cudaMemPoolGetAttribute (context->mem_pool,
      cudaMemPoolAttrUsedMemCurrent, &used);
  if (err == cudaSuccess)
    err = cudaMemPoolGetAttribute (context->mem_pool,
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
 * gst_cuda_fx_context_get_transfer_stream: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaStream_t
gst_cuda_fx_context_get_transfer_stream (GstCudaFxContext * context)
{
  return context->transfer_stream;
}

/* Internal: device memory for one allocation of gstcudafxmemory.c,
 * all zero with @zero. With the pool the allocation is stream-ordered on a
 * stream of its own and @sync records its completion as a write, so that
 * the first user waits for it on the GPU. */
cudaError_t
gst_cuda_fx_context_alloc (GstCudaFxContext * context, gsize size,
    gboolean zero, gpointer * ptr, GstCudaFxSync * sync)
{
  cudaError_t err;

  err = gst_cuda_fx_context_make_current (context);
  if (err != cudaSuccess)
    return err;
  err = context->mem_pool ? cudaMallocFromPoolAsync (ptr, size,
      context->mem_pool, context->alloc_stream) : cudaMalloc (ptr, size);
  if (err != cudaSuccess)
    return err;
  /* the fill is on the allocation stream too (element streams do not wait
   * for the legacy stream); a synchronous cudaMalloc alone needs no event */
  if (zero)
    err = cudaMemsetAsync (*ptr, 0, size, context->alloc_stream);
  if (err == cudaSuccess && (context->mem_pool || zero))
    err = gst_cuda_fx_sync_end (sync, context->alloc_stream, TRUE);
  if (err != cudaSuccess) {
    if (context->mem_pool)
      cudaFreeAsync (*ptr, context->alloc_stream);
    else
      cudaFree (*ptr);
  }
  return err;
}

/* Internal: releases @ptr once every user @sync knows of is done, without
 * a host wait (cudaFree, without a pool, waits for the device). */
void
gst_cuda_fx_context_free (GstCudaFxContext * context, gpointer ptr,
    GstCudaFxSync * sync)
{
  cudaError_t err;

  gst_cuda_fx_context_make_current (context);
  if (!context->mem_pool) {
    cudaFree (ptr);
    return;
  }
  err = gst_cuda_fx_sync_begin (sync, context->free_stream, TRUE);
  if (err == cudaSuccess)
    err = cudaFreeAsync (ptr, context->free_stream);
  if (err != cudaSuccess) {
    /* the device is lost or the stream is broken: nothing runs any more */
    GST_ERROR_OBJECT (context, "releasing device memory failed: %s",
        cudaGetErrorName (err));
    cudaStreamSynchronize (context->free_stream);
    cudaFree (ptr);
  }
}

/* An event of @pool (one of the context's free lists), or a new one of
 * @flags; NULL if none can be made */
static cudaEvent_t
take_event (GstCudaFxContext * context, GQueue * pool, guint flags)
{
  cudaEvent_t event;

  g_mutex_lock (&context->event_lock);
  event = g_queue_pop_head (pool);
  g_mutex_unlock (&context->event_lock);

  if (!event && cudaEventCreateWithFlags (&event, flags) != cudaSuccess)
    return NULL;
  return event;
}

static void
give_event (GstCudaFxContext * context, GQueue * pool, cudaEvent_t event)
{
  if (!event)
    return;
  g_mutex_lock (&context->event_lock);
  g_queue_push_head (pool, event);
  g_mutex_unlock (&context->event_lock);
}

/**
 * gst_cuda_fx_context_acquire_event: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaEvent_t
gst_cuda_fx_context_acquire_event (GstCudaFxContext * context)
{
  return take_event (context, &context->free_events, cudaEventDisableTiming);
}

/* Events the host waits on: blocking sync, so that a long wait sleeps in
 * the driver instead of spinning a core (recording them costs more, so
 * the read/written protocol's events are the plain ones) */
static cudaEvent_t
acquire_wait_event (GstCudaFxContext * context)
{
  return take_event (context, &context->free_wait_events,
      cudaEventDisableTiming | cudaEventBlockingSync);
}

static void
release_wait_event (GstCudaFxContext * context, cudaEvent_t event)
{
  give_event (context, &context->free_wait_events, event);
}

/**
 * gst_cuda_fx_context_wait_stream: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaError_t
gst_cuda_fx_context_wait_stream (GstCudaFxContext * context,
    cudaStream_t stream, guint poll_us)
{
  cudaEvent_t event = acquire_wait_event (context);
  gint64 deadline = g_get_monotonic_time () + poll_us;
  cudaError_t err;

  if (!event)
    return cudaStreamSynchronize (stream);
  err = cudaEventRecord (event, stream);
  if (err == cudaSuccess) {
    while ((err = cudaEventQuery (event)) == cudaErrorNotReady
        && g_get_monotonic_time () < deadline)
      g_thread_yield ();
    /* "not ready" from the polls is no error to keep for later calls */
    if (cudaPeekAtLastError () == cudaErrorNotReady)
      (void) cudaGetLastError ();
    if (err == cudaErrorNotReady)
      err = cudaEventSynchronize (event);
  }
  release_wait_event (context, event);
  return err;
}

/**
 * gst_cuda_fx_context_release_event: (skip)
 *
 * For C: takes or gives CUDA types.
 */
void
gst_cuda_fx_context_release_event (GstCudaFxContext * context,
    cudaEvent_t event)
{
  give_event (context, &context->free_events, event);
}

/**
 * gst_cuda_fx_context_release_after: (skip)
 *
 * For C: takes or gives CUDA types.
 */
gboolean
gst_cuda_fx_context_release_after (GstCudaFxContext * context,
    cudaStream_t stream, gpointer object)
{
  PendingRelease *item;
  cudaEvent_t event;
  cudaError_t err = cudaErrorMemoryAllocation;

  event = acquire_wait_event (context);
  if (event)
    err = cudaEventRecord (event, stream);
  if (err != cudaSuccess) {
    GST_ERROR_OBJECT (context, "cannot track copy completion: %s",
        cudaGetErrorName (err));
    /* Waiting here is safe: the object must not go back while in use */
    cudaStreamSynchronize (stream);
    release_wait_event (context, event);
    gst_mini_object_unref (object);
    return FALSE;
  }

  item = g_new (PendingRelease, 1);
  item->event = event;
  item->object = object;
  g_async_queue_push (context->pending, item);
  return TRUE;
}

/* ---- sharing through GstContext -------------------------------------- */

/**
 * gst_context_set_cuda_fx_context:
 * @context: a writable #GstContext of type %GST_CUDA_FX_CONTEXT_TYPE
 * @cuda_ctx: the context to share
 *
 * Puts @cuda_ctx (and its device id) into @context.
 */
void
gst_context_set_cuda_fx_context (GstContext * context,
    GstCudaFxContext * cuda_ctx)
{
  GstStructure *s = gst_context_writable_structure (context);

  gst_structure_set (s, "context", GST_TYPE_CUDA_FX_CONTEXT, cuda_ctx,
      "device-id", G_TYPE_INT, cuda_ctx->device_id, NULL);
}

/**
 * gst_context_get_cuda_fx_context:
 * @context: a #GstContext
 * @cuda_ctx: (out) (transfer full) (optional): the context it carries
 *
 * Returns: whether @context carries one of our contexts.
 */
gboolean
gst_context_get_cuda_fx_context (GstContext * context,
    GstCudaFxContext ** cuda_ctx)
{
  const GstStructure *s;

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CUDA_FX_CONTEXT_TYPE) != 0)
    return FALSE;
  s = gst_context_get_structure (context);
  return gst_structure_get (s, "context", GST_TYPE_CUDA_FX_CONTEXT, cuda_ctx,
      NULL);
}

gboolean
gst_cuda_fx_handle_set_context (GstElement * element, GstContext * context,
    gint device_id, GstCudaFxContext ** cuda_ctx)
{
  GstCudaFxContext *other = NULL;

  if (!context)
    return FALSE;
  /* GStreamer's CUDA context (nvcodec's elements): never replaces one we
   * have */
  if (!gst_context_get_cuda_fx_context (context, &other))
    return !*cuda_ctx && gst_cuda_fx_interop_context_from (element, context,
        device_id, cuda_ctx);

  /* device-id -1 takes the neighbours' device; a fixed id only its own */
  if (device_id >= 0 && other->device_id != device_id) {
    GST_INFO_OBJECT (element, "ignoring context of device %d, want %d",
        other->device_id, device_id);
    gst_object_unref (other);
    return FALSE;
  }

  gst_clear_object (cuda_ctx);
  *cuda_ctx = other;
  return TRUE;
}

gboolean
gst_cuda_fx_handle_context_query (GstElement * element, GstQuery * query,
    GstCudaFxContext * cuda_ctx)
{
  const gchar *type;
  GstContext *old = NULL, *context;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT || !cuda_ctx)
    return FALSE;
  if (!gst_query_parse_context_type (query, &type))
    return FALSE;
  if (g_strcmp0 (type, GST_CUDA_FX_INTEROP_CONTEXT_TYPE) == 0)
    return gst_cuda_fx_interop_handle_context_query (element, query,
        cuda_ctx);
  if (g_strcmp0 (type, GST_CUDA_FX_CONTEXT_TYPE) != 0)
    return FALSE;

  gst_query_parse_context (query, &old);
  context = old ? gst_context_copy (old) :
      gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_context_set_cuda_fx_context (context, cuda_ctx);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}

static gboolean
pad_peer_query (const GValue * item, GValue * value, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);

  if (gst_pad_peer_query (pad, GST_QUERY_CAST (user_data))) {
    g_value_set_boolean (value, TRUE);
    return FALSE;
  }
  return TRUE;
}

static gboolean
query_neighbours (GstElement * element, GstQuery * query,
    GstPadDirection direction)
{
  GstIterator *it;
  GValue res = G_VALUE_INIT;
  gboolean found;

  it = direction == GST_PAD_SRC ? gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  g_value_init (&res, G_TYPE_BOOLEAN);
  g_value_set_boolean (&res, FALSE);
  while (gst_iterator_fold (it, pad_peer_query, &res, query) ==
      GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  found = g_value_get_boolean (&res);
  gst_iterator_free (it);
  return found;
}

/**
 * gst_cuda_fx_ensure_element_context:
 *
 * Finds the context to use: one already set, the neighbours' (downstream,
 * then upstream), the application's (need-context), else a new one for
 * @device_id (-1 means device 0), announced with have-context.
 */
gboolean
gst_cuda_fx_ensure_element_context (GstElement * element, gint device_id,
    GstCudaFxContext ** cuda_ctx, GError ** error)
{
  /* ours first, then GStreamer's CUDA library's (nvcodec's elements) */
  const gchar *types[] = { GST_CUDA_FX_CONTEXT_TYPE,
    GST_CUDA_FX_INTEROP_CONTEXT_TYPE
  };
  GstContext *context;
  guint i;

  if (*cuda_ctx)
    return TRUE;

  for (i = 0; i < G_N_ELEMENTS (types) && !*cuda_ctx; i++) {
    GstQuery *query;

    if (i > 0 && !gst_cuda_fx_interop_available ())
      break;
    query = gst_query_new_context (types[i]);
    if (query_neighbours (element, query, GST_PAD_SRC)
        || query_neighbours (element, query, GST_PAD_SINK)) {
      gst_query_parse_context (query, &context);
      if (context)
        gst_element_set_context (element, context);
    }
    gst_query_unref (query);
  }
  for (i = 0; i < G_N_ELEMENTS (types) && !*cuda_ctx; i++) {
    if (i > 0 && !gst_cuda_fx_interop_available ())
      break;
    gst_element_post_message (element,
        gst_message_new_need_context (GST_OBJECT_CAST (element), types[i]));
  }
  if (*cuda_ctx)
    return TRUE;

  *cuda_ctx = gst_cuda_fx_context_get (device_id < 0 ? 0 : device_id, error);
  if (!*cuda_ctx)
    return FALSE;

  context = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_context_set_cuda_fx_context (context, *cuda_ctx);
  gst_element_set_context (element, context);
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT_CAST (element), context));
  /* and for nvcodec's elements that ask later: the same CUDA context */
  if ((context = gst_cuda_fx_interop_context_new (*cuda_ctx)))
    gst_element_post_message (element,
        gst_message_new_have_context (GST_OBJECT_CAST (element), context));
  return TRUE;
}

gboolean
_gst_cuda_fx_check (GstElement * element, cudaError_t err, const gchar * file,
    const gchar * function, gint line, const gchar * format, ...)
{
  gchar *what;
  va_list args;

  if (G_LIKELY (err == cudaSuccess))
    return TRUE;

  /* reported here: cleared, or the next launch check of this thread
   * (streaming threads are reused) would report it again */
  cudaGetLastError ();
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  gst_element_message_full (element, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_FAILED,
      g_strdup_printf ("%s failed: %s (%s)", what, cudaGetErrorString (err),
          cudaGetErrorName (err)), NULL, file, function, line);
  g_free (what);
  return FALSE;
}
