/* gst-cudafx plugin: registers the elements. No CUDA call happens here, so
 * the plugin loads and documents its elements on machines without a GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxupload.h"
#include "gstcudafxdownload.h"
#include "gstcudafxluma.h"
#include "gstcudafxdeinterlace.h"
#include "gstcudafxblur.h"
#include "gstcudafxdegrain.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = TRUE;

  /* gst-plugins-bad's nvcodec registers cudaupload/cudadownload too: the
   * cudafx* aliases always mean ours */
  ret &= gst_element_register (plugin, "cudaupload", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_UPLOAD);
  ret &= gst_element_register (plugin, "cudafxupload", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_UPLOAD);
  ret &= gst_element_register (plugin, "cudadownload", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_DOWNLOAD);
  ret &= gst_element_register (plugin, "cudafxdownload", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_DOWNLOAD);
  ret &= gst_element_register (plugin, "cudaluma", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_LUMA);
  ret &= gst_element_register (plugin, "cudadeinterlace", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_DEINTERLACE);
  ret &= gst_element_register (plugin, "cudablur", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_BLUR);
  ret &= gst_element_register (plugin, "cudadegrain", GST_RANK_NONE,
      GST_TYPE_CUDA_FX_DEGRAIN);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudafx,
    "Video filters that keep frames on the GPU (CUDA)", plugin_init, VERSION,
    "LGPL", GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
