/* cudablur element (in progress) */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxblur.h"

struct _GstCudaFxBlur
{
  GstCudaFxFilter parent;
};

G_DEFINE_TYPE (GstCudaFxBlur, gst_cuda_fx_blur, GST_TYPE_CUDA_FX_FILTER);

static void
gst_cuda_fx_blur_class_init (GstCudaFxBlurClass * klass)
{
}

static void
gst_cuda_fx_blur_init (GstCudaFxBlur * self)
{
}
