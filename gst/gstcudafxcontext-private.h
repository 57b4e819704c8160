/* gst-cudafx: context internals for the interop with GStreamer's CUDA
 * library. Internal to libgstcudafx-1.0 (not installed). */
#ifndef __GST_CUDA_FX_CONTEXT_PRIVATE_H__
#define __GST_CUDA_FX_CONTEXT_PRIVATE_H__

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

/* The context whose work runs in @cu_context (a CUcontext of @device_id
 * that GStreamer's CUDA library made), made on first use. (transfer full) */
GstCudaFxContext *gst_cuda_fx_context_adopt (gpointer cu_context,
    gint device_id, GstObject * interop_context, GError ** error);
/* gst-plugins-bad's GstCudaContext for the same CUDA context, kept for the
 * context's life (transfer none; NULL until set) */
GstObject *gst_cuda_fx_context_get_interop (GstCudaFxContext * context);
void gst_cuda_fx_context_set_interop (GstCudaFxContext * context,
    GstObject * interop_context);

G_END_DECLS

#endif
