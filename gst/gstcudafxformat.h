/* gst-cudafx: formats, described once from GstVideoFormatInfo. Elements
 * and kernels ask these instead of switching on format names. */
#ifndef __GST_CUDA_FX_FORMAT_H__
#define __GST_CUDA_FX_FORMAT_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcudafxplane.h"

G_BEGIN_DECLS

/* The description of component @comp of a mapped frame (what @comp of a
 * GstCudaFxFrame holds) */
GstCudaFxPlane gst_cuda_fx_video_frame_component (const GstVideoFrame * frame,
    guint comp);

/* Bytes a row of plane @plane holds for a frame @width pixels wide,
 * whatever its stride: every component's samples, and the padding
 * samples of packed pixel groups */
gsize gst_cuda_fx_video_format_row_bytes (const GstVideoFormatInfo * finfo,
    guint plane, gint width);
/* Samples of component @comp in a row @width pixels wide rounded up to
 * whole pixel groups of its plane: more than the picture's only where a
 * packed group is cut (the last pair's second luma of odd-width UYVY) */
gint gst_cuda_fx_video_format_padded_samples (const GstVideoFormatInfo *
    finfo, guint comp, gint width);
/* Rows of plane @plane of a frame of @info */
gint gst_cuda_fx_video_info_plane_height (const GstVideoInfo * info,
    guint plane);

G_END_DECLS

#endif
