/* gst-cudafx: formats, described once from GstVideoFormatInfo
 * (gstcudafxformat.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxformat.h"

static gint
sample_bytes (const GstVideoFormatInfo * finfo, guint comp)
{
  return (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp) +
      GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp) + 7) / 8;
}

/* Bytes from the start of a pixel group of @comp's plane to @comp's
 * sample. GStreamer (1.22) gives P010_10LE, P012_LE and P016_LE the
 * second chroma offset of NV12, 1, though their samples are 2 bytes (the
 * pair is U in bytes 0-1, V in 2-3): a component sharing a plane starts
 * at a whole sample, so an offset inside the first one counts samples. */
static gint
comp_offset (const GstVideoFormatInfo * finfo, guint comp)
{
  gint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, comp);
  gint bytes = sample_bytes (finfo, comp);

  return offset % bytes ? offset * bytes : offset;
}

/* Samples of @comp in a row @width pixels wide */
static gint
comp_width (const GstVideoFormatInfo * finfo, guint comp, gint width)
{
  return GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, comp, width);
}

/* Pixels a row of @plane covers: @width rounded up to the plane's
 * horizontal subsampling, so that packed pixel groups are whole */
static gint
group_width (const GstVideoFormatInfo * finfo, guint plane, gint width)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS], group = 1;
  guint i;

  gst_video_format_info_component (finfo, plane, comp);
  for (i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++)
    group = MAX (group, 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp[i]));
  return GST_ROUND_UP_N (width, group);
}

gint
gst_cuda_fx_video_format_padded_samples (const GstVideoFormatInfo * finfo,
    guint comp, gint width)
{
  return comp_width (finfo, comp, group_width (finfo,
          GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp), width));
}

gsize
gst_cuda_fx_video_format_row_bytes (const GstVideoFormatInfo * finfo,
    guint plane, gint width)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS], padded;
  gsize bytes = 0;
  guint i;

  padded = group_width (finfo, plane, width);
  gst_video_format_info_component (finfo, plane, comp);
  for (i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++) {
    gint c = comp[i], n = comp_width (finfo, c, padded);

    if (n > 0)
      bytes = MAX (bytes, (gsize) comp_offset (finfo, c) +
          (gsize) (n - 1) * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) +
          sample_bytes (finfo, c));
  }
  return bytes;
}

gint
gst_cuda_fx_video_info_plane_height (const GstVideoInfo * info, guint plane)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  return GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, comp[0],
      GST_VIDEO_INFO_HEIGHT (info));
}

/**
 * gst_cuda_fx_video_frame_component: (skip)
 *
 * For C: takes or gives CUDA types.
 */
GstCudaFxPlane
gst_cuda_fx_video_frame_component (const GstVideoFrame * frame, guint comp)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp);
  gint poffset = comp_offset (finfo, comp);
  GstCudaFxPlane p = {
    (uint8_t *) frame->data[plane] + poffset,
    GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane),
    GST_VIDEO_FRAME_COMP_WIDTH (frame, comp),
    GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp),
    sample_bytes (finfo, comp),
    GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp),
    GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp),
    GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp),
    poffset,
  };
  return p;
}
