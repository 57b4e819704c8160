#ifndef __GST_CUDA_FX_LUMA_H__
#define __GST_CUDA_FX_LUMA_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_LUMA (gst_cuda_fx_luma_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxLuma, gst_cuda_fx_luma, GST,
    CUDA_FX_LUMA, GstCudaFxFilter);

G_END_DECLS

#endif
