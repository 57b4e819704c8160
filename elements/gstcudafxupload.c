/**
 * SECTION:element-cudaupload
 * @title: cudaupload
 *
 * Copies system-memory video frames into CUDA device memory
 * (`memory:CUDAFxMemory`) for the other cudafx elements. Upstream is offered
 * a pool of pinned host buffers, so a producer writes frames where the copy
 * engine reads them at full PCIe speed; the copy runs asynchronously on the
 * element's own CUDA stream and nothing waits for it on the host. Frames
 * already in device memory pass through.
 *
 * Frames in pageable memory (a producer that did not take the pool:
 * filesrc, most decoders and capture sources) are first copied into pinned
 * staging frames by #GstCudaFxUpload:copy-threads threads, whose copies
 * overlap the earlier frames' copies to the GPU: the driver's own path
 * from pageable memory runs at a quarter of the link's speed. Pageable
 * memory that comes back (an upstream pool's buffers) is page-locked
 * instead, once (#GstCudaFxUpload:pin-recurring), and copied directly.
 *
 * `cudafxupload` is the same element under a name gst-plugins-bad's nvcodec
 * plugin does not also use.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=UYVY,width=1920,height=1080 ! \
 *     cudafxupload ! "video/x-raw(memory:CUDAFxMemory)" ! cudafxdownload ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxupload.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_upload_debug);

struct _GstCudaFxUpload
{
  GstCudaFxCopy parent;
};

G_DEFINE_TYPE (GstCudaFxUpload, gst_cuda_fx_upload, GST_TYPE_CUDA_FX_COPY);

#define SINK_CAPS GST_VIDEO_CAPS_MAKE (GST_CUDA_FX_SYSTEM_FORMATS) "; " \
    GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_TRANSFER_FORMATS)

#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_TRANSFER_FORMATS)

static void
gst_cuda_fx_upload_class_init (GstCudaFxUploadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaFxCopyClass *copy_class = GST_CUDA_FX_COPY_CLASS (klass);

  /**
   * GstCudaFxUpload:copy-threads:
   *
   * Threads that copy a frame in pageable memory into a pinned staging
   * frame before its copy to the GPU (0: half the CPU cores, at most 6; 1:
   * the streaming thread alone). Read when caps are set. Frames in pinned
   * memory, ours or page-locked by someone else, are copied directly.
   */
  gst_cuda_fx_copy_class_install_property (gobject_class,
      GST_CUDA_FX_COPY_PROP_COPY_THREADS, g_param_spec_uint ("copy-threads", "Copy threads",
          "Threads copying frames from pageable memory into pinned staging "
          "frames (0: half the CPU cores, at most 6; read when caps are set)",
          0, GST_CUDA_FX_COPY_MAX_COPY_THREADS,
          GST_CUDA_FX_COPY_DEFAULT_COPY_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaFxUpload:pin-recurring:
   *
   * Page-locks (cudaHostRegister) system memory that comes back to the
   * element, such as the buffers of an upstream pool that did not take
   * ours or one frame pushed again and again, the second time it arrives,
   * for as long as that memory lives, and copies from it directly instead
   * of through a pinned staging frame: no host copy. Memory seen once (a
   * new allocation per frame, as from filesrc) is staged, which costs less
   * than registering it.
   */
  gst_cuda_fx_copy_class_install_property (gobject_class,
      GST_CUDA_FX_COPY_PROP_PIN_RECURRING, g_param_spec_boolean
      ("pin-recurring", "Pin recurring memory",
          "Page-lock upstream system memory that arrives again (pool "
          "buffers) and copy from it directly instead of staging it",
          GST_CUDA_FX_COPY_DEFAULT_PIN_RECURRING,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX upload", "Filter/Video/Hardware",
      "Copies video frames from system memory to CUDA device memory",
      "gst-cudafx developers");

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_upload_debug, "cudafxupload", 0,
      "cudaupload element");
  copy_class->to_device = TRUE;
  copy_class->debug = gst_cuda_fx_upload_debug;
}

static void
gst_cuda_fx_upload_init (GstCudaFxUpload * self)
{
}
