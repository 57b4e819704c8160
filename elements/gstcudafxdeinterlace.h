#ifndef __GST_CUDA_FX_DEINTERLACE_H__
#define __GST_CUDA_FX_DEINTERLACE_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_FX_DEINTERLACE_METHOD_BWDIF,
  GST_CUDA_FX_DEINTERLACE_METHOD_YADIF,
  GST_CUDA_FX_DEINTERLACE_METHOD_ELA,
  GST_CUDA_FX_DEINTERLACE_METHOD_LINEAR,
  GST_CUDA_FX_DEINTERLACE_METHOD_MC,
} GstCudaFxDeinterlaceMethod;

typedef enum
{
  GST_CUDA_FX_DEINTERLACE_FIELDS_ALL,
  GST_CUDA_FX_DEINTERLACE_FIELDS_TOP,
  GST_CUDA_FX_DEINTERLACE_FIELDS_BOTTOM,
} GstCudaFxDeinterlaceFields;

typedef enum
{
  GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_AUTO,
  GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_TFF,
  GST_CUDA_FX_DEINTERLACE_FIELD_ORDER_BFF,
} GstCudaFxDeinterlaceFieldOrder;

typedef enum
{
  GST_CUDA_FX_DEINTERLACE_MODE_AUTO,
  GST_CUDA_FX_DEINTERLACE_MODE_INTERLACED,
  GST_CUDA_FX_DEINTERLACE_MODE_DISABLED,
} GstCudaFxDeinterlaceMode;

#define GST_TYPE_CUDA_FX_DEINTERLACE_METHOD \
    (gst_cuda_fx_deinterlace_method_get_type ())
#define GST_TYPE_CUDA_FX_DEINTERLACE_FIELDS \
    (gst_cuda_fx_deinterlace_fields_get_type ())
#define GST_TYPE_CUDA_FX_DEINTERLACE_FIELD_ORDER \
    (gst_cuda_fx_deinterlace_field_order_get_type ())
#define GST_TYPE_CUDA_FX_DEINTERLACE_MODE \
    (gst_cuda_fx_deinterlace_mode_get_type ())
GType gst_cuda_fx_deinterlace_method_get_type (void);
GType gst_cuda_fx_deinterlace_fields_get_type (void);
GType gst_cuda_fx_deinterlace_field_order_get_type (void);
GType gst_cuda_fx_deinterlace_mode_get_type (void);

#define GST_TYPE_CUDA_FX_DEINTERLACE (gst_cuda_fx_deinterlace_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFxDeinterlace, gst_cuda_fx_deinterlace, GST,
    CUDA_FX_DEINTERLACE, GstCudaFxFilter);

G_END_DECLS

#endif
