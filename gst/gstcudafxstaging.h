/* gst-cudafx: pinned staging for frames in pageable memory.
 *
 * A copy engine reads only page-locked memory at full speed: from pageable
 * memory the driver stages the bytes itself, through one thread and a
 * small buffer (about 12 GB/s measured on the H100 host, a quarter of
 * what the link carries). A staging copies such a frame into a pinned
 * frame from its own pool, with the rows split over a few threads, and
 * gives it back for the element to upload from; the pool gets the frame
 * back once the upload's copy is done, so the next frames' host copies
 * overlap the earlier frames' copies on the link. */
#ifndef __GST_CUDA_FX_STAGING_H__
#define __GST_CUDA_FX_STAGING_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

typedef struct _GstCudaFxStaging GstCudaFxStaging;

/* A staging for frames of @caps whose host copies use @threads threads
 * (the caller's included; 0: half the CPU cores, at most 6); %NULL if no
 * pinned pool could be made */
GstCudaFxStaging *gst_cuda_fx_staging_new (GstCaps * caps, guint threads);
void gst_cuda_fx_staging_free (GstCudaFxStaging * staging);

/* The threads a staging of @threads uses on this machine */
guint gst_cuda_fx_staging_threads (guint threads);

/* Copies the rows of @src (a frame of the staging's caps) into a pinned
 * frame and returns its buffer, mapped into @staged for reading; unmap it
 * and drop the buffer once the copy from it is done (e.g. through
 * gst_cuda_fx_context_release_after()). %NULL when the pool is flushing. */
GstBuffer *gst_cuda_fx_staging_copy (GstCudaFxStaging * staging,
    const GstVideoFrame * src, GstVideoFrame * staged);

G_END_DECLS

#endif
