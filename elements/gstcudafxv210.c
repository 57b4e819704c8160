/* gst-cudafx: v210 through cudaupload and cudadownload (see the header).
 * The filters never see v210: upload unpacks it into I422_10LE, the
 * planar 4:2:2 10-bit format they work on, and download packs it back;
 * the round trip gives the same bytes for v210 as the format defines it
 * (unused bits, slots and row padding 0). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxv210.h"
#include "cudafx-kernels.h"

static void
free_staging (GstCudaFxV210 * v210)
{
  if (v210->staging)
    cudaFree (v210->staging);
  v210->staging = NULL;
  v210->width = v210->height = v210->pitch = 0;
}

static cudaError_t
prepare (GstCudaFxV210 * v210, GstCudaFxContext * context, gint width,
    gint height)
{
  cudaError_t err = gst_cuda_fx_context_make_current (context);

  if (err != cudaSuccess)
    return err;
  if (v210->staging && v210->width == width && v210->height == height)
    return cudaSuccess;
  free_staging (v210);
  err = cudaMalloc ((void **) &v210->staging,
      (gsize) cfx_v210_pitch (width) * height);
  if (err != cudaSuccess) {
    v210->staging = NULL;
    return err;
  }
  v210->pitch = cfx_v210_pitch (width);
  v210->width = width;
  v210->height = height;
  return cudaSuccess;
}

gboolean
gst_cuda_fx_v210_set_info (GstCudaFxV210 * v210, GstCudaFxFilter * filter,
    const GstVideoInfo * system, const GstVideoInfo * device)
{
  gint width = GST_VIDEO_INFO_WIDTH (system);
  gint height = GST_VIDEO_INFO_HEIGHT (system);

  v210->active = GST_VIDEO_INFO_FORMAT (system) == GST_VIDEO_FORMAT_v210
      && GST_VIDEO_INFO_FORMAT (device) == GST_VIDEO_FORMAT_I422_10LE;
  if (!v210->active)
    return TRUE;
  return gst_cuda_fx_check (filter, prepare (v210,
          gst_cuda_fx_filter_get_context (filter), width, height),
      "Allocating a %dx%d v210 staging frame", width, height);
}

void
gst_cuda_fx_v210_stop (GstCudaFxV210 * v210, GstCudaFxFilter * filter)
{
  GstCudaFxContext *context = gst_cuda_fx_filter_get_context (filter);

  if (context && v210->staging) {
    gst_cuda_fx_context_make_current (context);
    free_staging (v210);
  }
  v210->active = FALSE;
}

/* Bytes of a row both sides hold: the groups, and the padding as far as
 * both strides reach */
static gsize
row_bytes (const GstCudaFxV210 * v210, gint stride)
{
  return MIN (v210->pitch, stride);
}

cudaError_t
gst_cuda_fx_v210_upload (GstCudaFxV210 * v210, GstCudaFxFrame * dst,
    const GstVideoFrame * src)
{
  gint width = GST_VIDEO_FRAME_WIDTH (src), height =
      GST_VIDEO_FRAME_HEIGHT (src);
  cudaError_t err;

  if (!v210->staging || v210->width != width || v210->height != height
      || row_bytes (v210, GST_VIDEO_FRAME_PLANE_STRIDE (src, 0)) <
      (gsize) ((width + 5) / 6) * 16)
    return cudaErrorInvalidValue;
  err = cudaMemcpy2DAsync (v210->staging, v210->pitch,
      GST_VIDEO_FRAME_PLANE_DATA (src, 0), GST_VIDEO_FRAME_PLANE_STRIDE (src,
          0), row_bytes (v210, GST_VIDEO_FRAME_PLANE_STRIDE (src, 0)), height,
      cudaMemcpyHostToDevice, dst->stream);
  if (err != cudaSuccess)
    return err;
  return cfx_v210_unpack (dst->comp[0], dst->comp[1], dst->comp[2],
      v210->staging, v210->pitch, width, height, dst->stream);
}

cudaError_t
gst_cuda_fx_v210_download (GstCudaFxV210 * v210, GstVideoFrame * dst,
    const GstCudaFxFrame * src)
{
  gint width = GST_VIDEO_FRAME_WIDTH (dst), height =
      GST_VIDEO_FRAME_HEIGHT (dst);
  cudaError_t err;

  if (!v210->staging || v210->width != width || v210->height != height
      || row_bytes (v210, GST_VIDEO_FRAME_PLANE_STRIDE (dst, 0)) <
      (gsize) ((width + 5) / 6) * 16)
    return cudaErrorInvalidValue;
  err = cfx_v210_pack (v210->staging, v210->pitch, src->comp[0],
      src->comp[1], src->comp[2], width, height, src->stream);
  if (err != cudaSuccess)
    return err;
  return cudaMemcpy2DAsync (GST_VIDEO_FRAME_PLANE_DATA (dst, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (dst, 0), v210->staging, v210->pitch,
      row_bytes (v210, GST_VIDEO_FRAME_PLANE_STRIDE (dst, 0)), height,
      cudaMemcpyDeviceToHost, src->stream);
}
