/* gst-cudafx: the device alone. A per-device context singleton (or a
 * context adopted from GStreamer's CUDA library), its event pool, host
 * waits, and the deferred release of host memory under the copy engine.
 * Allocation is gstcudafxmemory.c's, sharing between elements
 * gstcudafxsharing.c's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxcontext.h"
#include "gstcudafxcontext-private.h"

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

/* The transfer stream and the release thread, in the context current
 * now (device allocations are gstcudafxmemory.c's) */
static gboolean
create_resources (GstCudaFxContext * self, GError ** error)
{
  cudaError_t err;

  err = cudaStreamCreateWithFlags (&self->transfer_stream,
      cudaStreamNonBlocking);
  if (err != cudaSuccess) {
    g_set_error (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_CUDA,
        "Creating a stream on device %d failed: %s (%s)",
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
 * gst_cuda_fx_context_get_transfer_stream: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaStream_t
gst_cuda_fx_context_get_transfer_stream (GstCudaFxContext * context)
{
  return context->transfer_stream;
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
    cudaStream_t stream)
{
  cudaEvent_t event = acquire_wait_event (context);
  cudaError_t err;

  if (!event)
    return cudaStreamSynchronize (stream);
  err = cudaEventRecord (event, stream);
  if (err == cudaSuccess)
    err = cudaEventSynchronize (event);
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
