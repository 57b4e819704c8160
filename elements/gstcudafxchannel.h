/* Between the elements and the kernels: one component of a mapped device
 * frame, as the kernels take it. */
#ifndef __GST_CUDA_FX_CHANNEL_H__
#define __GST_CUDA_FX_CHANNEL_H__

#include <gst/video/video.h>
#include "cudafx-kernels.h"

static inline CfxChannel
gst_cuda_fx_frame_channel (GstVideoFrame * frame, guint comp)
{
  CfxChannel ch = {
    (uint8_t *) GST_VIDEO_FRAME_COMP_DATA (frame, comp),
    GST_VIDEO_FRAME_COMP_STRIDE (frame, comp),
    GST_VIDEO_FRAME_COMP_WIDTH (frame, comp),
    GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp),
    GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp),
  };
  return ch;
}

#endif
