/* gst-cudafx: the single public include of libgstcudafx-1.0 */
#ifndef __GST_CUDA_FX_H__
#define __GST_CUDA_FX_H__

#include <gst/gstcudafxcontext.h>
#include <gst/gstcudafxplane.h>
#include <gst/gstcudafxformat.h>
#include <gst/gstcudafxmemory.h>
#include <gst/gstcudafxsharing.h>
#include <gst/gstcudafxframe.h>
#include <gst/gstcudafxhistory.h>
#include <gst/gstcudafxcaps.h>
#include <gst/gstcudafxinterop.h>
#include <gst/gstcudafxbufferpool.h>
#include <gst/gstcudafxhostmemory.h>
#include <gst/gstcudafxfilter.h>
#include <gst/gstcudafxdlpack.h>
#include <gst/gstcudafxreadback.h>

#endif
