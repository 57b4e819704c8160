/* gst-cudafx: GStreamer's own CUDA library (gst-plugins-bad's
 * libgstcuda-1.0), loaded at run time.
 *
 * Why at run time: its development package pulls in ~170 packages (OpenCV
 * among them) and it is not installed everywhere; loaded with GModule, the
 * plugin builds and loads without it and offers `memory:CUDAMemory` only
 * where it is there. Only its public functions are called, through the
 * prototypes below, and only public struct fields are read. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxinterop.h"
#include "gstcudafxcontext-private.h"

#include <gmodule.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_interop_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_interop_debug

#define CUDA_LIBRARY "libgstcuda-1.0.so.0"
#define CUDA_MEMORY_TYPE "gst.cuda.memory"

/* The public head of GstCudaMemory and GstCudaBufferPool (1.22 to 1.28) */
typedef struct
{
  GstMemory mem;
  GstObject *context;
} CudaMemoryHead;

typedef struct
{
  GstBufferPool parent;
  GstObject *context;
} CudaBufferPoolHead;

static struct
{
  gboolean loaded;
  gboolean (*load_library) (void);
  GType (*context_get_type) (void);
  GstObject *(*context_new_wrapped) (gpointer cu_context, gint device);
  gpointer (*context_get_handle) (GstObject * context);
  gboolean (*handle_set_context) (GstElement * element, GstContext * context,
      gint device_id, GstObject ** cuda_ctx);
  gboolean (*handle_context_query) (GstElement * element, GstQuery * query,
      GstObject * cuda_ctx);
  GstContext *(*context_new_cuda_context) (GstObject * cuda_ctx);
  GstBufferPool *(*buffer_pool_new) (GstObject * context);
  /* 1.24 and later */
  gpointer (*memory_get_stream) (GstMemory * mem);
  gpointer (*stream_get_handle) (gpointer stream);
  gpointer (*stream_new) (GstObject * context);
  void (*stream_unref) (gpointer stream);
  void (*pool_config_set_stream) (GstStructure * config, gpointer stream);
  gpointer (*pool_config_get_stream) (GstStructure * config);
} lib;

static gboolean
load_library (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GModule *module = NULL;

    GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_interop_debug, "cudafxinterop", 0,
        "gst-cudafx and GStreamer's CUDA library");
    if (g_strcmp0 (g_getenv ("GST_CUDA_FX_NO_INTEROP"), "1") == 0)
      GST_INFO ("GST_CUDA_FX_NO_INTEROP=1: not loading " CUDA_LIBRARY);
    else
      module = g_module_open (CUDA_LIBRARY, G_MODULE_BIND_LAZY);
    if (module) {
      /* required (1.22) */
      lib.loaded =
          g_module_symbol (module, "gst_cuda_load_library",
          (gpointer *) & lib.load_library)
          && g_module_symbol (module, "gst_cuda_context_get_type",
          (gpointer *) & lib.context_get_type)
          && g_module_symbol (module, "gst_cuda_context_new_wrapped",
          (gpointer *) & lib.context_new_wrapped)
          && g_module_symbol (module, "gst_cuda_context_get_handle",
          (gpointer *) & lib.context_get_handle)
          && g_module_symbol (module, "gst_cuda_handle_set_context",
          (gpointer *) & lib.handle_set_context)
          && g_module_symbol (module, "gst_cuda_handle_context_query",
          (gpointer *) & lib.handle_context_query)
          && g_module_symbol (module, "gst_context_new_cuda_context",
          (gpointer *) & lib.context_new_cuda_context)
          && g_module_symbol (module, "gst_cuda_buffer_pool_new",
          (gpointer *) & lib.buffer_pool_new);
      /* optional (1.24) */
      if (!g_module_symbol (module, "gst_cuda_memory_get_stream",
              (gpointer *) & lib.memory_get_stream)
          || !g_module_symbol (module, "gst_cuda_stream_get_handle",
              (gpointer *) & lib.stream_get_handle)
          || !g_module_symbol (module, "gst_cuda_stream_new",
              (gpointer *) & lib.stream_new)
          || !g_module_symbol (module, "gst_cuda_stream_unref",
              (gpointer *) & lib.stream_unref)
          || !g_module_symbol (module, "gst_buffer_pool_config_set_cuda_stream",
              (gpointer *) & lib.pool_config_set_stream)
          || !g_module_symbol (module, "gst_buffer_pool_config_get_cuda_stream",
              (gpointer *) & lib.pool_config_get_stream))
        lib.memory_get_stream = NULL;
      /* stays loaded: its types are registered */
      g_module_make_resident (module);
      /* it finds the driver itself (nvcodec's plugin_init does this too) */
      if (lib.loaded && !lib.load_library ()) {
        GST_INFO ("%s cannot load the CUDA driver", CUDA_LIBRARY);
        lib.loaded = FALSE;
      }
      GST_INFO ("%s: %s%s", CUDA_LIBRARY, lib.loaded ? "loaded" :
          "missing functions", lib.memory_get_stream ? ", stream API" : "");
    } else {
      GST_INFO ("%s not loaded: %s", CUDA_LIBRARY, g_module_error ());
    }
    g_once_init_leave (&once, 1);
  }
  return lib.loaded;
}

gboolean
gst_cuda_fx_interop_available (void)
{
  return load_library ();
}

gboolean
gst_cuda_fx_interop_has_streams (void)
{
  return load_library () && lib.memory_get_stream != NULL;
}

gboolean
gst_cuda_fx_is_cuda_memory (GstMemory * mem)
{
  return mem && gst_memory_is_type (mem, CUDA_MEMORY_TYPE)
      && load_library ();
}

gpointer
gst_cuda_fx_cuda_memory_get_handle (GstMemory * mem)
{
  if (!gst_cuda_fx_is_cuda_memory (mem))
    return NULL;
  return lib.context_get_handle (((CudaMemoryHead *) mem)->context);
}

/* ---- contexts ---------------------------------------------------------- */

/* gst-plugins-bad's GstCudaContext for our context: the one we adopted, or
 * a wrapper of our primary context (which it does not own, and never
 * destroys) */
static GstObject *
interop_context_of (GstCudaFxContext * cuda_ctx)
{
  GstObject *wrapped = gst_cuda_fx_context_get_interop (cuda_ctx);

  if (wrapped || !load_library ()
      || !gst_cuda_fx_context_get_handle (cuda_ctx))
    return wrapped;
  wrapped = lib.context_new_wrapped (gst_cuda_fx_context_get_handle (cuda_ctx),
      gst_cuda_fx_context_get_device_id (cuda_ctx));
  if (!wrapped)
    return NULL;
  gst_cuda_fx_context_set_interop (cuda_ctx, wrapped);
  gst_object_unref (wrapped);
  return gst_cuda_fx_context_get_interop (cuda_ctx);
}

gboolean
gst_cuda_fx_interop_context_from (GstElement * element, GstContext * context,
    gint device_id, GstCudaFxContext ** cuda_ctx)
{
  GstObject *other = NULL;
  GstCudaFxContext *ours;
  GError *error = NULL;
  guint other_device = 0;

  if (!load_library () || g_strcmp0 (gst_context_get_context_type (context),
          GST_CUDA_FX_INTEROP_CONTEXT_TYPE) != 0)
    return FALSE;
  if (!lib.handle_set_context (element, context, device_id, &other) || !other)
    return FALSE;
  g_object_get (other, "cuda-device-id", &other_device, NULL);
  ours = gst_cuda_fx_context_adopt (lib.context_get_handle (other),
      (gint) other_device, other, &error);
  gst_object_unref (other);
  if (!ours) {
    GST_WARNING ("cannot use GStreamer's CUDA context: %s", error->message);
    g_clear_error (&error);
    return FALSE;
  }
  gst_clear_object (cuda_ctx);
  *cuda_ctx = ours;
  return TRUE;
}

gboolean
gst_cuda_fx_interop_handle_context_query (GstElement * element,
    GstQuery * query, GstCudaFxContext * cuda_ctx)
{
  GstObject *wrapped;

  if (!cuda_ctx || !load_library ())
    return FALSE;
  wrapped = interop_context_of (cuda_ctx);
  return wrapped && lib.handle_context_query (element, query, wrapped);
}

GstContext *
gst_cuda_fx_interop_context_new (GstCudaFxContext * cuda_ctx)
{
  GstObject *wrapped = interop_context_of (cuda_ctx);

  return wrapped ? lib.context_new_cuda_context (wrapped) : NULL;
}

/* ---- pools and streams ------------------------------------------------- */

/**
 * gst_cuda_fx_interop_pool_new:
 *
 * Returns: (transfer full) (nullable): the object
 */
GstBufferPool *
gst_cuda_fx_interop_pool_new (GstCudaFxContext * cuda_ctx)
{
  GstObject *wrapped = interop_context_of (cuda_ctx);

  return wrapped ? lib.buffer_pool_new (wrapped) : NULL;
}

gboolean
gst_cuda_fx_interop_is_pool (GstBufferPool * pool, GstCudaFxContext * cuda_ctx)
{
  GstObject *context;

  if (!pool || !load_library ()
      || g_strcmp0 (G_OBJECT_TYPE_NAME (pool), "GstCudaBufferPool") != 0)
    return FALSE;
  context = ((CudaBufferPoolHead *) pool)->context;
  return context && lib.context_get_handle (context) ==
      gst_cuda_fx_context_get_handle (cuda_ctx);
}

/* 1.24 and later: a pool's frames carry a stream of GStreamer's CUDA
 * library (downstream's, where its pool config has one; else a new one of
 * the pool's context), so that a writer of ours orders the frame on it
 * instead of waiting on the host */
void
gst_cuda_fx_interop_pool_config_add_stream (GstBufferPool * pool,
    GstStructure * config)
{
  gpointer stream;

  if (!gst_cuda_fx_interop_has_streams ()
      || g_strcmp0 (G_OBJECT_TYPE_NAME (pool), "GstCudaBufferPool") != 0)
    return;
  stream = lib.pool_config_get_stream (config);
  if (stream) {
    lib.stream_unref (stream);
    return;
  }
  stream = lib.stream_new (((CudaBufferPoolHead *) pool)->context);
  if (!stream)
    return;
  lib.pool_config_set_stream (config, stream);
  lib.stream_unref (stream);
}

/**
 * gst_cuda_fx_interop_order_write: (skip)
 *
 * For C: takes or gives CUDA types.
 */
gboolean
gst_cuda_fx_interop_order_write (GstCudaFxContext * cuda_ctx,
    GstMemory * mem, cudaStream_t stream, cudaError_t * err)
{
  gpointer their_stream;
  cudaEvent_t event;

  if (!cuda_ctx || !gst_cuda_fx_interop_has_streams ()
      || !gst_cuda_fx_is_cuda_memory (mem))
    return FALSE;
  their_stream = lib.memory_get_stream (mem);
  if (!their_stream)
    return FALSE;
  event = gst_cuda_fx_context_acquire_event (cuda_ctx);
  if (!event) {
    *err = cudaErrorMemoryAllocation;
    return TRUE;
  }
  /* our writes, then whatever their consumer queues on the frame's
   * stream; the frame was mapped with GST_MAP_CUDA for writing, which
   * flagged it for a consumer on another stream to synchronise */
  *err = cudaEventRecord (event, stream);
  if (*err == cudaSuccess)
    *err = cudaStreamWaitEvent ((cudaStream_t)
        lib.stream_get_handle (their_stream), event, 0);
  gst_cuda_fx_context_release_event (cuda_ctx, event);
  return TRUE;
}

/**
 * gst_cuda_fx_interop_wait_for_memory: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaError_t
gst_cuda_fx_interop_wait_for_memory (GstCudaFxContext * cuda_ctx,
    GstMemory * mem, cudaStream_t stream)
{
  gpointer their_stream;
  cudaEvent_t event;
  cudaError_t err;

  if (!gst_cuda_fx_interop_has_streams () || !gst_cuda_fx_is_cuda_memory (mem))
    return cudaSuccess;
  their_stream = lib.memory_get_stream (mem);
  if (!their_stream)
    return cudaSuccess;         /* the default stream: done when pushed */

  /* one CUDA context: their stream's work, then ours. Without a context
   * of ours (an application's DLPack export of their memory), an event of
   * its own: a wait keeps what the event held when it was queued. */
  if (cuda_ctx)
    event = gst_cuda_fx_context_acquire_event (cuda_ctx);
  else if (cudaEventCreateWithFlags (&event, cudaEventDisableTiming) !=
      cudaSuccess)
    event = NULL;
  if (!event)
    return cudaErrorMemoryAllocation;
  err = cudaEventRecord (event, (cudaStream_t)
      lib.stream_get_handle (their_stream));
  if (err == cudaSuccess)
    err = cudaStreamWaitEvent (stream, event, 0);
  if (cuda_ctx)
    gst_cuda_fx_context_release_event (cuda_ctx, event);
  else
    cudaEventDestroy (event);
  return err;
}
