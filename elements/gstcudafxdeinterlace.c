/* cudadeinterlace element (in progress) */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxdeinterlace.h"

struct _GstCudaFxDeinterlace
{
  GstCudaFxFilter parent;
};

G_DEFINE_TYPE (GstCudaFxDeinterlace, gst_cuda_fx_deinterlace, GST_TYPE_CUDA_FX_FILTER);

static void
gst_cuda_fx_deinterlace_class_init (GstCudaFxDeinterlaceClass * klass)
{
}

static void
gst_cuda_fx_deinterlace_init (GstCudaFxDeinterlace * self)
{
}
