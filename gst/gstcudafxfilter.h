/* gst-cudafx: base class of every element. Context, stream, device-id,
 * caps features, allocation queries, frame access around process(), and
 * for window filters the input history, done once. */
#ifndef __GST_CUDA_FX_FILTER_H__
#define __GST_CUDA_FX_FILTER_H__

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "gstcudafxcontext.h"
#include "gstcudafxframe.h"
#include "gstcudafxhistory.h"
#include "gstcudafxcaps.h"
#include "gstcudafxinterop.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_FILTER (gst_cuda_fx_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaFxFilter, gst_cuda_fx_filter, GST,
    CUDA_FX_FILTER, GstBaseTransform);

/**
 * GstCudaFxFrameWindow:
 * @frames: the input frames around the one being processed, mapped for
 *   reading: frames[@past] is that input, frames[@past - i] the i-th
 *   before it, frames[@past + i] the i-th after; where the stream has
 *   fewer (at its start and end) the nearest one stands in
 * @past: frames before (the class's past)
 * @future: frames after (the class's future)
 * @n_before: frames before that the stream really has
 * @n_after: frames after that the stream really has
 * @output: which output of the input this is, 0 .. @n_outputs - 1
 * @n_outputs: outputs the input gives
 * @serials: each frame's input number (GstCudaFxBufferWindow): what
 *   results kept from one window to the next are keyed on
 */
typedef struct
{
  GstCudaFxFrame *frames[GST_CUDA_FX_HISTORY_MAX_WINDOW];
  guint64 serials[GST_CUDA_FX_HISTORY_MAX_WINDOW];
  guint past, future;
  guint n_before, n_after;
  guint output, n_outputs;
} GstCudaFxFrameWindow;

struct _GstCudaFxFilterClass
{
  GstBaseTransformClass parent_class;

  /* New caps. Refuse what the element cannot process (return FALSE with a
   * GST_ELEMENT_ERROR or a warning saying why). Optional. */
    gboolean (*set_info) (GstCudaFxFilter * filter, GstCaps * incaps,
      const GstVideoInfo * in_info, GstCaps * outcaps,
      const GstVideoInfo * out_info);

  /* One frame: @in and @out are mapped for @stream, which already waits
   * for their last users. Enqueue the work on @stream; never wait on the
   * host. Bytes of packed rows outside the picture are copied from @in
   * afterwards when the formats are equal. */
    GstFlowReturn (*process) (GstCudaFxFilter * filter, GstCudaFxFrame * in,
      GstCudaFxFrame * out, cudaStream_t stream);

  /* Temporal filters set these instead of process: @past and @future input
   * frames around the one processed (the look-ahead @future is reported
   * as latency). The base class keeps the history (gstcudafxhistory.h):
   * drains it at EOS, a caps change, a new segment, a gap or a DISCONT
   * buffer, forgets it at a flush, and gives the outputs their
   * timestamps, flags and metas. */
  guint past, future;
  /* How many outputs @input gives (0: it goes out as it is, and stays in
   * the history as a neighbour). NULL: one for each input. */
    guint (*outputs_for) (GstCudaFxFilter * filter, GstBuffer * input);
  /* Output window->output of the input window->frames[window->past] */
    GstFlowReturn (*process_window) (GstCudaFxFilter * filter,
      const GstCudaFxFrameWindow * window, GstCudaFxFrame * out,
      cudaStream_t stream);
};

/* Properties whose values are fields of the instance, read and written
 * by the base class under the object lock */
void gst_cuda_fx_filter_class_install_property (GstCudaFxFilterClass *
    klass, guint prop_id, gsize offset, GParamSpec * pspec);
/* An element's enum type @name of @values, registered once into @type */
GType gst_cuda_fx_enum_register (gsize * type, const gchar * name,
    const GEnumValue * values);

GstCudaFxContext *gst_cuda_fx_filter_get_context (GstCudaFxFilter * filter);
cudaStream_t gst_cuda_fx_filter_get_stream (GstCudaFxFilter * filter);
const GstVideoInfo *gst_cuda_fx_filter_get_in_info (GstCudaFxFilter * filter);
const GstVideoInfo *gst_cuda_fx_filter_get_out_info (GstCudaFxFilter *
    filter);

/* The stream time of @buf's timestamp in the input segment, and its
 * running time in @running_time if not NULL: GST_CLOCK_TIME_NONE without
 * a time segment or a timestamp */
GstClockTime gst_cuda_fx_filter_get_stream_time (GstCudaFxFilter * filter,
    GstBuffer * buf, GstClockTime * running_time);

/* Whether the element is started (NULL/READY-only properties refuse
 * changes then) */
gboolean gst_cuda_fx_filter_is_running (GstCudaFxFilter * filter);
/* For a property that changes only in NULL or READY: TRUE (after posting
 * a warning that names it, @wanted and the value in effect) when the
 * element is running and @wanted differs from the value in effect; the
 * caller then ignores it */
gboolean gst_cuda_fx_filter_refuse_change (GstCudaFxFilter * filter,
    GParamSpec * pspec, const GValue * wanted);

/* Temporal filters whose window is a property: this element's window
 * instead of the class's (before it starts) */
void gst_cuda_fx_filter_set_window (GstCudaFxFilter * filter, guint past,
    guint future);

/* Before a frame's work: the device current, stale CUDA errors cleared;
 * posts an error when it fails */
gboolean gst_cuda_fx_filter_make_current (GstCudaFxFilter * filter);
/* Maps a device buffer's frame for the element's stream
 * (gst_cuda_fx_frame_map); posts an element error when it cannot */
gboolean gst_cuda_fx_filter_map_frame (GstCudaFxFilter * filter,
    GstCudaFxFrame * frame, const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags);
/* Unmaps it (recording the stream's use); posts an error if that fails */
gboolean gst_cuda_fx_filter_unmap_frame (GstCudaFxFilter * filter,
    GstCudaFxFrame * frame);

/* Helpers for subclasses that override the allocation queries */
GstBufferPool *gst_cuda_fx_filter_new_device_pool (GstCudaFxFilter * filter,
    GstCaps * caps, guint min_buffers, guint max_buffers);
gboolean gst_cuda_fx_filter_propose_device_pool (GstCudaFxFilter * filter,
    GstQuery * query, guint min_buffers);
gboolean gst_cuda_fx_filter_decide_device_pool (GstCudaFxFilter * filter,
    GstQuery * query);

G_END_DECLS

#endif
