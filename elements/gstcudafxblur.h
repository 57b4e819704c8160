#ifndef __GST_CUDA_FX_BLUR_H__
#define __GST_CUDA_FX_BLUR_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_BLUR (gst_cuda_fx_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxBlur, gst_cuda_fx_blur, GST,
    CUDA_FX_BLUR, GstCudaFxFilter);

G_END_DECLS

#endif
