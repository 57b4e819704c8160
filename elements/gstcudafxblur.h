#ifndef __GST_CUDA_FX_BLUR_H__
#define __GST_CUDA_FX_BLUR_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_FX_BLUR_METHOD_GAUSSIAN,
  GST_CUDA_FX_BLUR_METHOD_BOX,
} GstCudaFxBlurMethod;

typedef enum
{
  GST_CUDA_FX_BLUR_PLANES_ALL,
  GST_CUDA_FX_BLUR_PLANES_LUMA,
  GST_CUDA_FX_BLUR_PLANES_CHROMA,
} GstCudaFxBlurPlanes;

typedef enum
{
  GST_CUDA_FX_BLUR_FIELDS_AUTO,
  GST_CUDA_FX_BLUR_FIELDS_FRAME,
} GstCudaFxBlurFields;

#define GST_TYPE_CUDA_FX_BLUR_METHOD (gst_cuda_fx_blur_method_get_type ())
#define GST_TYPE_CUDA_FX_BLUR_PLANES (gst_cuda_fx_blur_planes_get_type ())
#define GST_TYPE_CUDA_FX_BLUR_FIELDS (gst_cuda_fx_blur_fields_get_type ())
GType gst_cuda_fx_blur_method_get_type (void);
GType gst_cuda_fx_blur_planes_get_type (void);
GType gst_cuda_fx_blur_fields_get_type (void);

#define GST_TYPE_CUDA_FX_BLUR (gst_cuda_fx_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxBlur, gst_cuda_fx_blur, GST,
    CUDA_FX_BLUR, GstCudaFxFilter);

G_END_DECLS

#endif
