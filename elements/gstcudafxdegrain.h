#ifndef __GST_CUDA_FX_DEGRAIN_H__
#define __GST_CUDA_FX_DEGRAIN_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_DEGRAIN (gst_cuda_fx_degrain_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxDegrain, gst_cuda_fx_degrain, GST,
    CUDA_FX_DEGRAIN, GstCudaFxFilter);

G_END_DECLS

#endif
