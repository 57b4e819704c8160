#ifndef __GST_CUDA_FX_DOWNLOAD_H__
#define __GST_CUDA_FX_DOWNLOAD_H__

#include "gstcudafxcopy.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_DOWNLOAD (gst_cuda_fx_download_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxDownload, gst_cuda_fx_download, GST,
    CUDA_FX_DOWNLOAD, GstCudaFxCopy);

G_END_DECLS

#endif
