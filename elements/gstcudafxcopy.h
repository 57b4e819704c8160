/* gst-cudafx: the copy of frames between system memory and device memory,
 * abstract: cudaupload and cudadownload are its two directions. */
#ifndef __GST_CUDA_FX_COPY_H__
#define __GST_CUDA_FX_COPY_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FX_COPY (gst_cuda_fx_copy_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaFxCopy, gst_cuda_fx_copy, GST, CUDA_FX_COPY,
    GstCudaFxFilter);

struct _GstCudaFxCopyClass
{
  GstCudaFxFilterClass parent_class;

  /* set by the subclass's class_init */
  gboolean to_device;           /* system memory to device memory */
  GstDebugCategory *debug;      /* the element's category */
};

#define GST_CUDA_FX_COPY_DEFAULT_COPY_THREADS 0
#define GST_CUDA_FX_COPY_MAX_COPY_THREADS 64

#define GST_CUDA_FX_COPY_DEFAULT_PIN_RECURRING TRUE

/* the upload's properties, which the copy keeps */
typedef enum
{
  GST_CUDA_FX_COPY_PROP_COPY_THREADS = 1,       /* uint: staging threads */
  GST_CUDA_FX_COPY_PROP_PIN_RECURRING,  /* boolean: register memory that comes back */
} GstCudaFxCopyProperty;

/* For the upload's class_init: installs @pspec as property @prop */
void gst_cuda_fx_copy_class_install_property (GObjectClass * klass,
    GstCudaFxCopyProperty prop, GParamSpec * pspec);

G_END_DECLS

#endif
