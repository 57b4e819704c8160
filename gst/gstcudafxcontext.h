/* gst-cudafx: one object per CUDA device per process, around the device's
 * primary context (shared between elements by gstcudafxsharing.h). */
#ifndef __GST_CUDA_FX_CONTEXT_H__
#define __GST_CUDA_FX_CONTEXT_H__

#include <gst/gst.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* GstContext type carrying a GstCudaFxContext (field "context") */
#define GST_CUDA_FX_CONTEXT_TYPE "gst.cudafx.context"

/* Caps feature of device memory */
#define GST_CAPS_FEATURE_MEMORY_CUDA_FX "memory:CUDAFxMemory"

#define GST_TYPE_CUDA_FX_CONTEXT (gst_cuda_fx_context_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxContext, gst_cuda_fx_context, GST,
    CUDA_FX_CONTEXT, GstObject);

GstCudaFxContext *gst_cuda_fx_context_get (gint device_id, GError ** error);

gint gst_cuda_fx_context_get_device_id (GstCudaFxContext * context);
const gchar *gst_cuda_fx_context_get_device_name (GstCudaFxContext * context);
gint gst_cuda_fx_context_get_sm_count (GstCudaFxContext * context);

cudaError_t gst_cuda_fx_context_make_current (GstCudaFxContext * context);

/* The CUcontext the work runs in, and whether it is the device's primary
 * context (else one that GStreamer's CUDA library made and this context
 * adopted, see gstcudafxinterop.h) */
gpointer gst_cuda_fx_context_get_handle (GstCudaFxContext * context);
gboolean gst_cuda_fx_context_is_primary (GstCudaFxContext * context);

/* Event pool: cheap events without timing, for the read/written protocol. */
cudaEvent_t gst_cuda_fx_context_acquire_event (GstCudaFxContext * context);
void gst_cuda_fx_context_release_event (GstCudaFxContext * context,
    cudaEvent_t event);

/* Waits on the host for the work enqueued on @stream so far: what
 * cudaStreamSynchronize() does, but asleep on a blocking-sync event
 * instead of spinning a CPU core for the whole wait (the primary
 * context's default on a host with more cores than contexts, which is the
 * application's to choose, not ours). */
cudaError_t gst_cuda_fx_context_wait_stream (GstCudaFxContext * context,
    cudaStream_t stream);

/* Keeps @object (a GstMiniObject, e.g. a host buffer a copy engine reads)
 * alive until all work queued on @stream so far has completed, without
 * making the caller wait. Takes ownership of @object. */
gboolean gst_cuda_fx_context_release_after (GstCudaFxContext * context,
    cudaStream_t stream, gpointer object);

/* Stream for copies that serve CPU maps and device copies of memory */
cudaStream_t gst_cuda_fx_context_get_transfer_stream (GstCudaFxContext *
    context);

/* Errors */
#define GST_CUDA_FX_ERROR (gst_cuda_fx_error_quark ())
GQuark gst_cuda_fx_error_quark (void);

typedef enum
{
  GST_CUDA_FX_ERROR_NO_DEVICE,
  GST_CUDA_FX_ERROR_DEVICE_ID,
  GST_CUDA_FX_ERROR_CUDA,
  GST_CUDA_FX_ERROR_MEMORY,
} GstCudaFxError;

/* Posts GST_ELEMENT_ERROR naming the CUDA error and what was being done
 * (a printf format) when @err is not cudaSuccess; returns @err == success. */
gboolean _gst_cuda_fx_check (GstElement * element, cudaError_t err,
    const gchar * file, const gchar * function, gint line,
    const gchar * format, ...) G_GNUC_PRINTF (6, 7);
#define gst_cuda_fx_check(element, err, ...) \
  _gst_cuda_fx_check (GST_ELEMENT_CAST (element), (err), __FILE__, \
      GST_FUNCTION, __LINE__, __VA_ARGS__)

G_END_DECLS

#endif
