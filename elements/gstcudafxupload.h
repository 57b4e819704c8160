#ifndef __GST_CUDA_FX_UPLOAD_H__
#define __GST_CUDA_FX_UPLOAD_H__

#include "gstcudafxcopy.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_UPLOAD (gst_cuda_fx_upload_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxUpload, gst_cuda_fx_upload, GST,
    CUDA_FX_UPLOAD, GstCudaFxCopy);

G_END_DECLS

#endif
