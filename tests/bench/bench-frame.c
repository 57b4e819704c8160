/* Device frames for the kernel benchmarks: any format, laid out as the
 * element's pool lays them out (each plane's rows padded to a 256-byte
 * pitch, planes stacked), described by the frame layer's own component
 * description, so a benchmark never spells out a format's planes. */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <string.h>

#include <gst/cudafx.h>
#include "cudafx-bench.h"

/* @format at @w x @h: the planes' pitches and offsets in one allocation,
 * and its size */
static size_t
layout (GstVideoFormat format, int w, int h, GstVideoInfo * info)
{
  size_t size = 0;
  guint p;

  gst_video_info_set_format (info, format, w, h);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize row = gst_cuda_fx_video_format_row_bytes (info->finfo, p, w);

    info->stride[p] = (gint) GST_ROUND_UP_N (row, 256);
    info->offset[p] = size;
    size += (size_t) info->stride[p] *
        gst_cuda_fx_video_info_plane_height (info, p);
  }
  info->size = size;
  return size;
}

size_t
bench_frame_layout (GstVideoFormat format, int w, int h, guint8 * base,
    CfxPlane * comps, int *n_comps)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  size_t size = layout (format, w, h, &info);
  guint p, c;

  memset (&frame, 0, sizeof (frame));
  frame.info = info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
    frame.data[p] = base ? base + info.offset[p] : NULL;
  *n_comps = GST_VIDEO_INFO_N_COMPONENTS (&info);
  for (c = 0; c < (guint) * n_comps; c++) {
    comps[c] = gst_cuda_fx_video_frame_component (&frame, c);
    if (!base)
      comps[c].data = NULL;
  }
  return size;
}

double
bench_frame_bytes (GstVideoFormat format, int w, int h)
{
  GstVideoInfo info;
  double bytes = 0;
  guint p;

  layout (format, w, h, &info);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
    bytes += (double) gst_cuda_fx_video_format_row_bytes (info.finfo, p, w) *
        gst_cuda_fx_video_info_plane_height (&info, p);
  return bytes;
}

void
bench_frame_put (const CfxPlane * comp, int x, int y, double v8)
{
  guint8 *s = comp->data + (size_t) y * comp->pitch + (size_t) x * comp->step;
  double v = v8 * (double) (1 << comp->depth) / 256.0;
  guint max = (1u << comp->depth) - 1, q;

  q = v <= 0 ? 0 : v >= max ? max : (guint) (v + 0.5);
  if (comp->bytes == 1) {
    s[0] = (guint8) q;
  } else {
    q <<= comp->shift;
    s[0] = (guint8) q;
    s[1] = (guint8) (q >> 8);
  }
}
