#ifndef __GST_CUDA_FX_DEINTERLACE_H__
#define __GST_CUDA_FX_DEINTERLACE_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_DEINTERLACE (gst_cuda_fx_deinterlace_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxDeinterlace, gst_cuda_fx_deinterlace, GST,
    CUDA_FX_DEINTERLACE, GstCudaFxFilter);

G_END_DECLS

#endif
