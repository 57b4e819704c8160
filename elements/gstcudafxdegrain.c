/* cudadegrain element (in progress) */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxdegrain.h"

struct _GstCudaFxDegrain
{
  GstCudaFxFilter parent;
};

G_DEFINE_TYPE (GstCudaFxDegrain, gst_cuda_fx_degrain, GST_TYPE_CUDA_FX_FILTER);

static void
gst_cuda_fx_degrain_class_init (GstCudaFxDegrainClass * klass)
{
}

static void
gst_cuda_fx_degrain_init (GstCudaFxDegrain * self)
{
}
