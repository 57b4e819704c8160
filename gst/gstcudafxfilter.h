/* gst-cudafx: base class of every element. Context, stream, device-id,
 * caps features, allocation queries and the event protocol, done once. */
#ifndef __GST_CUDA_FX_FILTER_H__
#define __GST_CUDA_FX_FILTER_H__

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

/* The formats every element handles */
#define GST_CUDA_FX_FORMATS "{ UYVY, YUY2, I420, YV12, NV12, Y42B, Y444, GRAY8 }"

#define GST_CUDA_FX_VIDEO_CAPS(formats) \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CUDA_FX, formats)

#define GST_TYPE_CUDA_FX_FILTER (gst_cuda_fx_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaFxFilter, gst_cuda_fx_filter, GST,
    CUDA_FX_FILTER, GstBaseTransform);

struct _GstCudaFxFilterClass
{
  GstBaseTransformClass parent_class;

  /* Input frames the element keeps besides the one in flight (temporal
   * filters); sizes the pool proposed upstream. */
  guint history;

  /* New caps. Refuse what the element cannot process (return FALSE with a
   * GST_ELEMENT_ERROR or a warning saying why). Optional. */
    gboolean (*set_info) (GstCudaFxFilter * filter, GstCaps * incaps,
      const GstVideoInfo * in_info, GstCaps * outcaps,
      const GstVideoInfo * out_info);

  /* One frame: @in and @out are mapped with GST_MAP_CUDA_FX (device
   * addresses) and the stream already waits for their last users. Enqueue
   * the work on @stream; never wait on the host. */
    GstFlowReturn (*process) (GstCudaFxFilter * filter, GstVideoFrame * in,
      GstVideoFrame * out, cudaStream_t stream);
};

GstCudaFxContext *gst_cuda_fx_filter_get_context (GstCudaFxFilter * filter);
cudaStream_t gst_cuda_fx_filter_get_stream (GstCudaFxFilter * filter);
const GstVideoInfo *gst_cuda_fx_filter_get_in_info (GstCudaFxFilter * filter);
const GstVideoInfo *gst_cuda_fx_filter_get_out_info (GstCudaFxFilter *
    filter);

/* Controlled properties take their value for @buf's stream time; nothing
 * changes without a time segment or a timestamp. The default
 * before_transform calls it; a subclass that makes its outputs elsewhere
 * calls it before reading its properties for a frame. */
void gst_cuda_fx_filter_sync_values (GstCudaFxFilter * filter,
    GstBuffer * buf);

/* Maps a device buffer's frame (device addresses) after checking that it is
 * device memory of this element's device; posts an error otherwise. */
gboolean gst_cuda_fx_filter_map_device_frame (GstCudaFxFilter * filter,
    GstVideoFrame * frame, const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags);

/* Helpers for subclasses that override the allocation queries */
GstBufferPool *gst_cuda_fx_filter_new_device_pool (GstCudaFxFilter * filter,
    GstCaps * caps, guint min_buffers, guint max_buffers);
gboolean gst_cuda_fx_filter_propose_device_pool (GstCudaFxFilter * filter,
    GstQuery * query, guint min_buffers);
gboolean gst_cuda_fx_filter_decide_device_pool (GstCudaFxFilter * filter,
    GstQuery * query);

/* Caps helpers: the same caps with every structure's features replaced */
GstCaps *gst_cuda_fx_caps_set_features (const GstCaps * caps,
    const gchar * feature);
/* @caps in memory @feature first, then (if @keep) @caps as they are, as
 * for an element that changes memory or passes through */
GstCaps *gst_cuda_fx_caps_to_memory (GstCaps * caps, const gchar * feature,
    gboolean keep);
/* Takes @caps; returns them intersected with @filter (if any), @filter's
 * order first, as transform_caps must */
GstCaps *gst_cuda_fx_caps_apply_filter (GstCaps * caps, GstCaps * filter);

G_END_DECLS

#endif
