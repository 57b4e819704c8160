/* gst-cudafx: one component of a device frame as a DLPack tensor, the
 * form PyTorch, CuPy, JAX and TensorFlow take GPU arrays in without a
 * copy. The structs below have the layout of the DLPack specification's
 * DLDevice, DLDataType, DLTensor and DLManagedTensor (version 0.8, whose
 * layout is the ABI): a pointer to a GstCudaFxDLManagedTensor is a
 * DLManagedTensor * for any consumer. */
#ifndef __GST_CUDA_FX_DLPACK_H__
#define __GST_CUDA_FX_DLPACK_H__

#include <stdint.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* DLPack's kDLCUDA and kDLUInt */
#define GST_CUDA_FX_DL_DEVICE_CUDA 2
#define GST_CUDA_FX_DL_UINT 1

typedef struct
{
  int32_t device_type;
  int32_t device_id;
} GstCudaFxDLDevice;

typedef struct
{
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} GstCudaFxDLDataType;

typedef struct
{
  void *data;
  GstCudaFxDLDevice device;
  int32_t ndim;
  GstCudaFxDLDataType dtype;
  int64_t *shape;
  int64_t *strides;             /* in elements */
  uint64_t byte_offset;
} GstCudaFxDLTensor;

typedef struct _GstCudaFxDLManagedTensor GstCudaFxDLManagedTensor;
struct _GstCudaFxDLManagedTensor
{
  GstCudaFxDLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter) (GstCudaFxDLManagedTensor * self);
};

GstCudaFxDLManagedTensor *gst_cuda_fx_buffer_export_dlpack (GstBuffer *
    buffer, const GstVideoInfo * info, guint component, cudaStream_t stream,
    GError ** error);
/* the same for reading or writing; @stream is a cudaStream_t (a pointer,
 * for bindings) */
GstCudaFxDLManagedTensor *gst_cuda_fx_buffer_export_dlpack_full (GstBuffer *
    buffer, const GstVideoInfo * info, guint component, GstMapFlags flags,
    gpointer stream, GError ** error);

G_END_DECLS

#endif
