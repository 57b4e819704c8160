/* gst-cudafx: device memory internals for the frame layer. Internal to
 * libgstcudafx-1.0 (not installed). */
#ifndef __GST_CUDA_FX_MEMORY_PRIVATE_H__
#define __GST_CUDA_FX_MEMORY_PRIVATE_H__

#include "gstcudafxmemory.h"
#include "gstcudafxsync.h"

G_BEGIN_DECLS

/* The event protocol of @mem's allocation (shares have their root's) */
GstCudaFxSync *gst_cuda_fx_memory_get_sync (GstMemory * mem);

G_END_DECLS

#endif
