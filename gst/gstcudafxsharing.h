/* gst-cudafx: sharing one context between elements through GstContext, in
 * the way of GStreamer's own libraries: an element asks its neighbours
 * (context query), then the application (need-context), else makes one
 * and announces it (have-context). */
#ifndef __GST_CUDA_FX_SHARING_H__
#define __GST_CUDA_FX_SHARING_H__

#include <gst/gst.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

void gst_context_set_cuda_fx_context (GstContext * context,
    GstCudaFxContext * cuda_ctx);
gboolean gst_context_get_cuda_fx_context (GstContext * context,
    GstCudaFxContext ** cuda_ctx);

gboolean gst_cuda_fx_handle_set_context (GstElement * element,
    GstContext * context, gint device_id, GstCudaFxContext ** cuda_ctx);
gboolean gst_cuda_fx_handle_context_query (GstElement * element,
    GstQuery * query, GstCudaFxContext * cuda_ctx);
gboolean gst_cuda_fx_ensure_element_context (GstElement * element,
    gint device_id, GstCudaFxContext ** cuda_ctx, GError ** error);

/* The context of the element upstream of @sinkpad (ours, or an nvcodec
 * element's CUDA context adopted), or NULL: what a chain's frames come
 * from, for an element to follow or refuse at negotiation */
GstCudaFxContext *gst_cuda_fx_query_upstream_context (GstElement * element,
    GstPad * sinkpad);

G_END_DECLS

#endif
