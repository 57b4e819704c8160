/**
 * SECTION:element-cudadownload
 * @title: cudadownload
 *
 * Copies video frames from CUDA device memory (`memory:CUDAFxMemory`) into
 * pinned system memory from its own pool. This is one of the two places
 * where the host waits for the GPU: for this frame's copy alone, on the
 * element's own stream. Frames already in system memory pass through.
 *
 * `cudafxdownload` is the same element under a name gst-plugins-bad's
 * nvcodec plugin does not also use.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=300 ! video/x-raw,format=UYVY,width=1920,height=1080 ! \
 *     cudafxupload ! "video/x-raw(memory:CUDAFxMemory)" ! cudafxdownload ! filesink location=out.uyvy
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxdownload.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_download_debug);

struct _GstCudaFxDownload
{
  GstCudaFxCopy parent;
};

G_DEFINE_TYPE (GstCudaFxDownload, gst_cuda_fx_download, GST_TYPE_CUDA_FX_COPY);

#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_TRANSFER_FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE (GST_CUDA_FX_SYSTEM_FORMATS)

#define SRC_CAPS GST_VIDEO_CAPS_MAKE (GST_CUDA_FX_SYSTEM_FORMATS)

static void
gst_cuda_fx_download_class_init (GstCudaFxDownloadClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFxCopyClass *copy_class = GST_CUDA_FX_COPY_CLASS (klass);

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX download", "Filter/Video/Hardware",
      "Copies video frames from CUDA device memory to system memory",
      "gst-cudafx developers");

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_download_debug, "cudafxdownload", 0,
      "cudadownload element");
  copy_class->to_device = FALSE;
  copy_class->debug = gst_cuda_fx_download_debug;
}

static void
gst_cuda_fx_download_init (GstCudaFxDownload * self)
{
}
