/* gst-cudafx: the input history of a window filter. Which input is ready
 * to be output, with which neighbours, when the stream ends; and the
 * timestamps, flags and metas of its outputs. It holds buffers and knows
 * nothing of the GPU: GstCudaFxFilter maps the frames and launches. */
#ifndef __GST_CUDA_FX_HISTORY_H__
#define __GST_CUDA_FX_HISTORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Most frames a window holds: past + 1 + future */
#define GST_CUDA_FX_HISTORY_MAX_WINDOW 9

typedef struct _GstCudaFxHistory GstCudaFxHistory;

/**
 * GstCudaFxBufferWindow:
 * @frames: frames[@past] is the input to output; frames[@past - i] the
 *   i-th before it and frames[@past + i] the i-th after it. Where the
 *   stream has fewer (its first and last frames), the nearest present
 *   frame stands in, so every entry is a valid buffer.
 * @past: frames before the input that the filter asked for
 * @future: frames after it
 * @n_before: frames before the input the stream really has (<= @past)
 * @n_after: frames after it the stream really has (<= @future)
 * @n_outputs: outputs to make from the input; 0: it goes out as it is
 * @duration: the input's duration (GST_CLOCK_TIME_NONE if unknown)
 * @serials: each frame's input number since the history was made: equal
 *   serials are the same input, whatever buffer holds it (pools recycle
 *   buffers), so results derived from a frame can be kept by serial
 */
typedef struct
{
  GstBuffer *frames[GST_CUDA_FX_HISTORY_MAX_WINDOW];
  guint64 serials[GST_CUDA_FX_HISTORY_MAX_WINDOW];
  guint past, future;
  guint n_before, n_after;
  guint n_outputs;
  GstClockTime duration;
} GstCudaFxBufferWindow;

GstCudaFxHistory *gst_cuda_fx_history_new (guint past, guint future);
void gst_cuda_fx_history_free (GstCudaFxHistory * history);

/* The stream's input and output layout: frame rate (for durations and
 * latency) and whether outputs are progressive (their interlacing flags
 * are cleared) */
void gst_cuda_fx_history_set_info (GstCudaFxHistory * history,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info);

/* Takes @input, which gives @n_outputs outputs (0: it goes out as it is,
 * in order, and stays in the history as a neighbour of the others) */
void gst_cuda_fx_history_push (GstCudaFxHistory * history, GstBuffer * input,
    guint n_outputs);

/* The oldest input not yet output, if it is ready: its outputs need
 * @future frames after it, unless @draining (the stream ends: the last
 * frames are their own neighbours). Make its outputs, then call
 * gst_cuda_fx_history_advance(). */
gboolean gst_cuda_fx_history_next (GstCudaFxHistory * history,
    gboolean draining, GstCudaFxBufferWindow * window);
void gst_cuda_fx_history_advance (GstCudaFxHistory * history);

/* Flags, timestamps (output k of n spans the k-th n-th of the input's
 * duration), offsets and, on output 0 only, the input's metas (those
 * describing content, not memory) */
void gst_cuda_fx_history_set_output_metadata (GstCudaFxHistory * history,
    const GstCudaFxBufferWindow * window, GstBuffer * output, guint k);

/* Forgets every input (flush; after a drain: a new stream starts) */
void gst_cuda_fx_history_clear (GstCudaFxHistory * history);
gboolean gst_cuda_fx_history_is_empty (GstCudaFxHistory * history);

/* Latency the look-ahead adds: @future input frames */
GstClockTime gst_cuda_fx_history_get_latency (GstCudaFxHistory * history);

G_END_DECLS

#endif
