/* gst-cudafx: v210 frames in system memory to and from I422_10LE device
 * frames, for cudaupload and cudadownload. The v210 rows go through a
 * device staging buffer of the element; kernels/v210.cu converts. */
#ifndef __GST_CUDA_FX_V210_H__
#define __GST_CUDA_FX_V210_H__

#include <gst/cudafx.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean active;              /* converting (streaming thread only) */
  guint8 *staging;              /* device: the frame's v210 rows */
  gint pitch;                   /* bytes of a staging row */
  gint width, height;
} GstCudaFxV210;

/* From an element's set_info: whether caps of @system (v210) and @device
 * (I422_10LE) ask for the conversion, and if so a staging buffer of their
 * size; FALSE, with an element error posted, if it cannot be allocated */
gboolean gst_cuda_fx_v210_set_info (GstCudaFxV210 * v210,
    GstCudaFxFilter * filter, const GstVideoInfo * system,
    const GstVideoInfo * device);
/* From an element's stop: frees the staging buffer (waits for the
 * device) */
void gst_cuda_fx_v210_stop (GstCudaFxV210 * v210, GstCudaFxFilter * filter);

/* Enqueued on the frame's stream: the copy of @src's rows and the unpack
 * into @dst; the pack of @src and the copy of its rows into @dst */
cudaError_t gst_cuda_fx_v210_upload (GstCudaFxV210 * v210,
    GstCudaFxFrame * dst, const GstVideoFrame * src);
cudaError_t gst_cuda_fx_v210_download (GstCudaFxV210 * v210,
    GstVideoFrame * dst, const GstCudaFxFrame * src);

G_END_DECLS

#endif
