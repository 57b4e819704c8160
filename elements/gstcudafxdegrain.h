#ifndef __GST_CUDA_FX_DEGRAIN_H__
#define __GST_CUDA_FX_DEGRAIN_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_FX_DEGRAIN_SHRINK_WIENER,
  GST_CUDA_FX_DEGRAIN_SHRINK_SOFT,
} GstCudaFxDegrainShrink;

typedef enum
{
  GST_CUDA_FX_DEGRAIN_OUTPUT_RESULT,
  GST_CUDA_FX_DEGRAIN_OUTPUT_NOISE,
} GstCudaFxDegrainOutput;

#define GST_TYPE_CUDA_FX_DEGRAIN_SHRINK (gst_cuda_fx_degrain_shrink_get_type ())
GType gst_cuda_fx_degrain_shrink_get_type (void);
#define GST_TYPE_CUDA_FX_DEGRAIN_OUTPUT (gst_cuda_fx_degrain_output_get_type ())
GType gst_cuda_fx_degrain_output_get_type (void);

#define GST_TYPE_CUDA_FX_DEGRAIN (gst_cuda_fx_degrain_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxDegrain, gst_cuda_fx_degrain, GST,
    CUDA_FX_DEGRAIN, GstCudaFxFilter);

G_END_DECLS

#endif
