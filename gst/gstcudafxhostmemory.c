/* gst-cudafx: pinned host memory (registered huge pages, or cudaHostAlloc)
 * as plain mappable GstMemory, so producers write frames straight into
 * DMA-able memory. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxhostmemory.h"

#include <string.h>
#include <sys/mman.h>
#include <cuda_runtime_api.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_host_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_host_memory_debug

typedef struct
{
  GstMemory mem;
  guint8 *data;                 /* start of the whole allocation */
  gsize mapped;                 /* bytes mmap()ed and registered at data;
                                 * 0: a cudaHostAlloc allocation */
} GstCudaFxHostMemory;

/* Transparent huge pages: pinning 2 MiB pages costs the driver far less
 * than 4 KiB ones (H200 host, a 1080p frame: 1.19 ms against 2.76 ms for
 * cudaHostAlloc; copies into and out of it run at the same speed) */
#define HUGE_PAGE_BYTES (2 << 20)

/* Pinned memory of @bytes: anonymous memory on huge-page boundaries,
 * advised for huge pages, faulted in, then registered with the driver;
 * NULL where any step fails (the caller falls back to cudaHostAlloc) */
static guint8 *
pinned_map (gsize bytes, gsize * mapped)
{
  gsize len = (bytes + HUGE_PAGE_BYTES - 1) & ~((gsize) HUGE_PAGE_BYTES - 1);
  guint8 *area, *data;
  gsize head, i;

  area = mmap (NULL, len + HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED)
    return NULL;
  /* keep the aligned part only */
  data = (guint8 *) (((guintptr) area + HUGE_PAGE_BYTES - 1) &
      ~((guintptr) HUGE_PAGE_BYTES - 1));
  head = data - area;
  if (head)
    munmap (area, head);
  munmap (data + len, HUGE_PAGE_BYTES - head);
  (void) madvise (data, len, MADV_HUGEPAGE);
  /* fault every page in before registering: the driver pins faster
   * what is already there */
  for (i = 0; i < len; i += 4096)
    data[i] = 0;
  if (cudaHostRegister (data, len, cudaHostRegisterPortable) != cudaSuccess) {
    cudaGetLastError ();
    munmap (data, len);
    return NULL;
  }
  *mapped = len;
  return data;
}

struct _GstCudaFxHostAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE (GstCudaFxHostAllocator, gst_cuda_fx_host_allocator,
    GST_TYPE_ALLOCATOR);

static GstAllocator *the_host_allocator;

static GstCudaFxHostMemory *
host_memory_wrap (GstMemory * parent, guint8 * data, GstMemoryFlags flags,
    gsize maxsize, gsize align, gsize offset, gsize size)
{
  GstCudaFxHostMemory *mem = g_new0 (GstCudaFxHostMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (mem), flags, the_host_allocator, parent,
      maxsize, align, offset, size);
  mem->data = data;
  return mem;
}

static GstMemory *
gst_cuda_fx_host_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  gsize maxsize = size + params->prefix + params->padding;
  guint8 *data = NULL;
  gsize mapped = 0;
  cudaError_t err = cudaSuccess;
  GstCudaFxHostMemory *mem;

  /* page aligned, which covers any alignment GStreamer asks for */
  if (params->align >= 4096) {
    GST_ERROR ("alignment %" G_GSIZE_FORMAT " not supported", params->align);
    return NULL;
  }
  data = pinned_map (MAX (maxsize, 1), &mapped);
  if (!data)
    err = cudaHostAlloc ((void **) &data, MAX (maxsize, 1),
        cudaHostAllocPortable);
  if (err != cudaSuccess) {
    cudaGetLastError ();        /* said here: not for the thread's next call */
    GST_ERROR ("cudaHostAlloc of %" G_GSIZE_FORMAT " bytes failed: %s (%s)",
        maxsize, cudaGetErrorString (err), cudaGetErrorName (err));
    return NULL;
  }
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (data + params->prefix + size, 0, params->padding);

  mem = host_memory_wrap (NULL, data, params->flags, maxsize, params->align,
      params->prefix, size);
  mem->mapped = mapped;
  return GST_MEMORY_CAST (mem);
}

static void
gst_cuda_fx_host_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCudaFxHostMemory *self = (GstCudaFxHostMemory *) mem;

  if (!mem->parent && self->mapped) {
    /* registered portable: any context of the process may unregister */
    if (cudaHostUnregister (self->data) != cudaSuccess) {
      cudaGetLastError ();
      GST_WARNING ("cudaHostUnregister of %p failed", self->data);
    }
    munmap (self->data, self->mapped);
  } else if (!mem->parent) {
    cudaFreeHost (self->data);
  }
  g_free (self);
}

static gpointer
host_memory_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  return ((GstCudaFxHostMemory *) mem)->data;
}

static void
host_memory_unmap (GstMemory * mem)
{
}

static GstMemory *
host_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaFxHostMemory *self = (GstCudaFxHostMemory *) mem;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  return GST_MEMORY_CAST (host_memory_wrap (parent, self->data,
          GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
          mem->maxsize, mem->align, mem->offset + offset, size));
}

static GstMemory *
host_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaFxHostMemory *self = (GstCudaFxHostMemory *) mem;
  GstAllocationParams params = { 0, mem->align, 0, 0 };
  GstMemory *copy;

  if (size == -1)
    size = mem->size > (gsize) offset ? mem->size - offset : 0;
  copy = gst_cuda_fx_host_allocator_alloc (the_host_allocator, size, &params);
  if (copy)
    memcpy (((GstCudaFxHostMemory *) copy)->data,
        self->data + mem->offset + offset, size);
  return copy;
}

static void
gst_cuda_fx_host_allocator_class_init (GstCudaFxHostAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_cuda_fx_host_allocator_alloc;
  allocator_class->free = gst_cuda_fx_host_allocator_free;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_host_memory_debug, "cudafxhostmemory",
      0, "gst-cudafx pinned host memory");
}

static void
gst_cuda_fx_host_allocator_init (GstCudaFxHostAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CUDA_FX_HOST_MEMORY_NAME;
  alloc->mem_map = host_memory_map;
  alloc->mem_unmap = host_memory_unmap;
  alloc->mem_share = host_memory_share;
  alloc->mem_copy = host_memory_copy;
}

/**
 * gst_cuda_fx_host_allocator_get:
 *
 * Returns: (transfer full): the pinned host memory allocator.
 */
GstAllocator *
gst_cuda_fx_host_allocator_get (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    the_host_allocator = g_object_new (GST_TYPE_CUDA_FX_HOST_ALLOCATOR, NULL);
    gst_object_ref_sink (the_host_allocator);
    GST_OBJECT_FLAG_SET (the_host_allocator, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    gst_allocator_register (GST_CUDA_FX_HOST_MEMORY_NAME,
        gst_object_ref (the_host_allocator));
    g_once_init_leave (&once, 1);
  }
  return gst_object_ref (the_host_allocator);
}

gboolean
gst_is_cuda_fx_host_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CUDA_FX_HOST_ALLOCATOR (mem->allocator);
}

/* A video pool whose pinned frames are made when first acquired, not all
 * min-buffers of them at activation: pinning a 1080p frame costs the host
 * about 3 ms (H200 host, cudaHostAlloc of 4 MB), and a branch at live pace
 * has fewer frames in flight than the counts it guarantees */
typedef struct
{
  GstVideoBufferPool parent;
} GstCudaFxHostPool;

typedef struct
{
  GstVideoBufferPoolClass parent_class;
} GstCudaFxHostPoolClass;

static GType gst_cuda_fx_host_pool_get_type (void);
G_DEFINE_TYPE (GstCudaFxHostPool, gst_cuda_fx_host_pool,
    GST_TYPE_VIDEO_BUFFER_POOL);

static gboolean
gst_cuda_fx_host_pool_start (GstBufferPool * pool)
{
  /* the default start would allocate min-buffers frames now; acquiring
   * allocates whenever the pool is empty and under its max */
  return TRUE;
}

static void
gst_cuda_fx_host_pool_class_init (GstCudaFxHostPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->start = gst_cuda_fx_host_pool_start;
}

static void
gst_cuda_fx_host_pool_init (GstCudaFxHostPool * self)
{
}

/**
 * gst_cuda_fx_host_buffer_pool_new:
 *
 * Returns: (transfer full): a video buffer pool of pinned memory, with
 * video meta, configured for @caps (not yet active). Its frames are
 * allocated when first needed, not at activation.
 */
GstBufferPool *
gst_cuda_fx_host_buffer_pool_new (GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocator *allocator;
  GstAllocationParams params;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  pool = g_object_new (gst_cuda_fx_host_pool_get_type (), NULL);
  gst_object_ref_sink (pool);
  allocator = gst_cuda_fx_host_allocator_get ();
  gst_allocation_params_init (&params);

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, (guint) info.size,
      min_buffers, max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
gst_cuda_fx_memory_is_pinned (GstMemory * mem)
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

/* ---- registered system memory ----------------------------------------- */

typedef struct
{
  GstCudaFxContext *context;
  gpointer data;                /* registered from here, NULL: not (yet) */
  gboolean failed;
} Registration;

static void
registration_free (Registration * reg)
{
  if (reg->data) {
    gst_cuda_fx_context_make_current (reg->context);
    if (cudaHostUnregister (reg->data) != cudaSuccess) {
      cudaGetLastError ();
      GST_WARNING ("cudaHostUnregister of %p failed", reg->data);
    }
  }
  gst_clear_object (&reg->context);
  g_free (reg);
}

/* two elements may upload one memory at once */
G_LOCK_DEFINE_STATIC (registration);

static GQuark
registration_quark (void)
{
  static GQuark quark;

  if (!quark)
    quark = g_quark_from_static_string ("GstCudaFxRegistration");
  return quark;
}

gboolean
gst_cuda_fx_memory_pin_recurring (GstMemory * mem, GstCudaFxContext * context)
{
  Registration *reg;
  GstMapInfo map;
  cudaError_t err;

  /* system memory keeps its address for its whole life */
  if (!gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM))
    return FALSE;
  G_LOCK (registration);
  reg = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      registration_quark ());
  if (!reg) {
    reg = g_new0 (Registration, 1);
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem),
        registration_quark (), reg, (GDestroyNotify) registration_free);
    G_UNLOCK (registration);
    return FALSE;
  }
  if (reg->failed || !gst_memory_map (mem, &map, GST_MAP_READ)) {
    G_UNLOCK (registration);
    return FALSE;
  }
  if (reg->data) {
    gboolean same = reg->data == map.data;

    gst_memory_unmap (mem, &map);
    G_UNLOCK (registration);
    return same;
  }
  err = cudaHostRegister (map.data, map.size, cudaHostRegisterPortable);
  if (err == cudaSuccess) {
    reg->data = map.data;
    reg->context = gst_object_ref (context);
    GST_DEBUG ("registered %" G_GSIZE_FORMAT " bytes at %p", map.size,
        map.data);
  } else {
    /* e.g. a page shared with memory registered already */
    cudaGetLastError ();
    reg->failed = TRUE;
    GST_DEBUG ("cannot register %" G_GSIZE_FORMAT " bytes at %p: %s",
        map.size, map.data, cudaGetErrorName (err));
  }
  gst_memory_unmap (mem, &map);
  G_UNLOCK (registration);
  return err == cudaSuccess;
}
