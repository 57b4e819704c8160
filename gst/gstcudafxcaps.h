/* gst-cudafx: caps of the elements. The formats they handle, the caps
 * feature of device memory, and the transforms elements apply to caps
 * (features, frame rates, interlace modes). */
#ifndef __GST_CUDA_FX_CAPS_H__
#define __GST_CUDA_FX_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcudafxcontext.h"

G_BEGIN_DECLS

/* 8-bit formats: every element handles them */
#define GST_CUDA_FX_FORMATS_8BIT \
    "UYVY, YUY2, I420, YV12, NV12, Y42B, Y444, GRAY8"
/* 10 to 16 bits a sample, in 16-bit words: most significant bits used
 * (P010_10LE, P012_LE) or least (I420_10LE ...). Upload and download
 * carry them; the filters take them as their kernels learn them. */
#define GST_CUDA_FX_FORMATS_16BIT \
    "P010_10LE, P012_LE, P016_LE, I420_10LE, I420_12LE, I422_10LE, " \
    "I422_12LE, Y444_10LE, Y444_12LE, Y444_16LE, GRAY16_LE"

/* The formats every filter handles */
#define GST_CUDA_FX_FORMATS "{ " GST_CUDA_FX_FORMATS_8BIT " }"
/* Both kinds: what the filters that know 16-bit words take (cudaluma,
 * cudadeinterlace, cudadegrain) */
#define GST_CUDA_FX_FORMATS_WITH_16BIT \
    "{ " GST_CUDA_FX_FORMATS_8BIT ", " GST_CUDA_FX_FORMATS_16BIT " }"
/* The formats upload and download carry between system and device memory */
#define GST_CUDA_FX_TRANSFER_FORMATS GST_CUDA_FX_FORMATS_WITH_16BIT
/* What upload takes and download gives in system memory: those, and
 * v210 (10-bit 4:2:2 of capture cards), converted to and from I422_10LE */
#define GST_CUDA_FX_SYSTEM_FORMATS \
    "{ " GST_CUDA_FX_FORMATS_8BIT ", " GST_CUDA_FX_FORMATS_16BIT ", v210 }"

#define GST_CUDA_FX_VIDEO_CAPS(formats) \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CUDA_FX, formats)

/* The same caps with every structure's features replaced */
GstCaps *gst_cuda_fx_caps_set_features (const GstCaps * caps,
    const gchar * feature);
/* Takes @caps; returns them intersected with @filter (if any), @filter's
 * order first, as transform_caps must */
GstCaps *gst_cuda_fx_caps_apply_filter (GstCaps * caps, GstCaps * filter);
/* Whether fixed caps @caps carry @feature; whether they are device memory
 * of either kind */
gboolean gst_cuda_fx_caps_have_feature (GstCaps * caps, const gchar * feature);
gboolean gst_cuda_fx_caps_are_device (GstCaps * caps);

/* Caps across a transfer: @to_device, system memory becomes our device
 * memory (and GStreamer's CUDA memory with the library), device memory
 * stays; else device memory of either kind becomes system memory, system
 * memory stays. v210 in system memory crosses as I422_10LE (cudaupload
 * unpacks it and cudadownload packs it) */
GstCaps *gst_cuda_fx_caps_transfer (GstCaps * caps, gboolean to_device);

/* Takes @caps; where GStreamer's CUDA library is loaded, appends a copy of
 * every structure in our memory with GStreamer's CUDA memory instead
 * (after ours: ours is preferred) */
GstCaps *gst_cuda_fx_caps_add_interop (GstCaps * caps);
/* Our memory in @caps and, with the library, GStreamer's CUDA memory:
 * what every filter takes and gives */
GstCaps *gst_cuda_fx_caps_to_device (GstCaps * caps);
/* The element's "sink" and "src" pad templates from caps strings, each with
 * the interop variants */
void gst_cuda_fx_element_class_add_pad_templates (GstElementClass * klass,
    const gchar * sink_caps, const gchar * src_caps);

/* Multiplies the structure's frame rate (fixed, range or list) by
 * @num/@den. A fixed rate that no fraction holds is dropped (FALSE);
 * ranges saturate. Variable rate (0/1) stays variable. */
gboolean gst_cuda_fx_structure_scale_framerate (GstStructure * s, gint num,
    gint den);
/* Whether the structure's interlace-mode can be @mode: a fixed structure
 * without the field is progressive, an unfixed one may be anything */
gboolean gst_cuda_fx_structure_interlace_mode_possible (const GstStructure *
    s, const gchar * mode);
/* Sets interlace-mode to one of @modes (NULL-terminated) */
void gst_cuda_fx_structure_set_interlace_modes (GstStructure * s,
    const gchar * const *modes);

G_END_DECLS

#endif
