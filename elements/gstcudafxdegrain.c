/**
 * SECTION:element-cudadegrain
 * @title: cudadegrain
 *
 * Removes noise and film grain from device frames with an undecimated
 * ("a trous") wavelet: every level splits the picture into a low band and
 * three detail bands, shrinks the details by how much of them is noise and
 * sums everything back (kernels/degrain.md). Each plane (each
 * component of packed formats) gets its own noise estimate, measured on the
 * GPU from the finest diagonal band of every frame, so the defaults need no
 * tuning.
 *
 * `shrink=wiener` (the default) applies a local Wiener gain from a 9x9
 * window; `shrink=soft` is the soft threshold of the original paper's
 * effect. `strength` scales the noise level, with `luma-strength` and
 * `chroma-strength` on top; `sigma` replaces the estimate with a fixed
 * level. `amount` blends the result with the input (to keep some grain),
 * and `output=noise` gives what was removed (input - result + 128), for
 * regraining and quality control. All of them may change while playing and
 * take effect at the next frame.
 *
 * 10- to 16-bit formats (P010_10LE, I420_10LE, I422_10LE, Y444_16LE ...)
 * are degrained at their full depth. Noise levels (`sigma`, the estimates
 * and the messages) stay in 8-bit units at every depth: sigma 2 is 8 codes
 * of 10-bit video, and `output=noise` centres on half the range (512 at 10
 * bits). Unused bits of the input are ignored and written as 0.
 *
 * `temporal-radius` (1 to 3) adds the frames around each one as evidence:
 * the motion from each neighbour is searched on the GPU (8x8 blocks, coarse
 * to fine over three levels, sub-pixel), the neighbours are warped onto
 * the frame (Catmull-Rom), weighted per pixel by how well they match
 * (occlusions and failed vectors drop out; a neighbour that is another
 * shot ends its side of the window: a scene cut never blends two shots),
 * averaged, and the wavelet above then removes the noise the mean left.
 * Chroma follows luma's vectors and weights. It delays the stream by
 * `temporal-radius` frames (reported as latency); the stream's first and
 * last frames use the neighbours they have. docs/performance.md has the
 * quality and the time of each radius; 0, the
 * default, is the spatial filter alone, with no delay. With a radius,
 * `amount` and `output=noise` compare with the temporal mean, not the
 * input.
 *
 * The automatic estimate of a frame is read back asynchronously and used
 * four frames later, smoothed by an exponential moving average (weight 1/8
 * per new frame): frame k applies the estimates of frames 0 to k - 4, so
 * the output depends on the input alone, never on how fast the GPU or the
 * host ran. The first frame after a caps change or a flush waits for its
 * own estimate, once, and frames 1 to 3 apply it too; later frames wait
 * only when the GPU is 4 frames behind the host.
 *
 * Every second of stream time the element posts an element message named
 * `cudadegrain`:
 *
 * * `timestamp`, `stream-time`, `running-time` (guint64): of the frame;
 * * `sigma` (GstValueArray of gdouble): the smoothed estimated noise sigma
 *   of each plane, Y U V order (one value for GRAY8), 8-bit units, 0 while
 *   unknown;
 * * `sigma-used` (GstValueArray of gdouble): the sigma applied (the estimate
 *   or the `sigma` property), before the strengths;
 * * `automatic` (gboolean): whether the estimate is applied;
 * * `levels` (gint): the wavelet levels used.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=grainy.mov ! decodebin ! videoconvert ! \
 *     video/x-raw,format=I420 ! cudafxupload ! cudadegrain ! cudafxdownload ! \
 *     videoconvert ! autovideosink
 * ]| Degrains with the automatic noise estimate.
 * |[
 * gst-launch-1.0 filesrc location=grainy.mov ! decodebin ! \
 *     cudafxupload ! cudadegrain temporal-radius=2 ! cudafxdownload ! \
 *     videoconvert ! autovideosink
 * ]| Degrains with two frames on each side, motion compensated.
 * |[
 * gst-launch-1.0 -m videotestsrc pattern=snow ! video/x-raw,format=UYVY ! \
 *     cudafxupload ! cudadegrain output=noise ! cudafxdownload ! fakesink
 * ]| Shows the removed noise and prints the estimates posted every second.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxdegrain.h"
#include "gstcudafxestimate.h"
#include "cudafx-kernels.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_degrain_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_degrain_debug

#define DEFAULT_SHRINK GST_CUDA_FX_DEGRAIN_SHRINK_WIENER
#define DEFAULT_STRENGTH 1.0
#define DEFAULT_LUMA_STRENGTH 1.0
#define DEFAULT_CHROMA_STRENGTH 1.5
#define DEFAULT_SIGMA 0.0
#define DEFAULT_LEVELS 0
#define DEFAULT_AMOUNT 1.0
#define DEFAULT_OUTPUT GST_CUDA_FX_DEGRAIN_OUTPUT_RESULT
#define DEFAULT_TEMPORAL_RADIUS 0

/* weight of a new frame's estimate in the moving average */
#define EST_SMOOTHING (1.0 / 8.0)
/* a frame's estimate is folded in this many frames later (its readback
 * has had that long to finish; a late one is waited for) */
#define EST_LAG 4
#define MAX_CH CFX_DEGRAIN_MAX_CHANNELS

enum
{
  PROP_0,
  PROP_SHRINK,
  PROP_STRENGTH,
  PROP_LUMA_STRENGTH,
  PROP_CHROMA_STRENGTH,
  PROP_SIGMA,
  PROP_LEVELS,
  PROP_AMOUNT,
  PROP_OUTPUT,
  PROP_TEMPORAL_RADIUS,
};

struct _GstCudaFxDegrain
{
  GstCudaFxFilter parent;

  /* properties, under the object lock (the base class's fields) */
  GstCudaFxDegrainShrink shrink;
  gdouble strength;
  gdouble luma_strength;
  gdouble chroma_strength;
  gdouble sigma;
  gint levels;
  gdouble amount;
  GstCudaFxDegrainOutput output;
  gint temporal_radius;

  /* streaming thread only */
  gint radius;                  /* temporal-radius since start () */
  CfxTemporalScratch *temporal;
  CfxDegrainScratch *scratch;
  gint n_channels;
  gint size[2][MAX_CH];         /* the scratch's widths and heights */
  GstCudaFxEstimate *estimate;  /* each plane's noise sigma */
  GstClockTime next_post;       /* stream time of the next message */
};

G_DEFINE_TYPE (GstCudaFxDegrain, gst_cuda_fx_degrain, GST_TYPE_CUDA_FX_FILTER);

GType
gst_cuda_fx_degrain_shrink_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEGRAIN_SHRINK_WIENER,
        "Local Wiener gain over a 9x9 window (best quality)", "wiener"},
    {GST_CUDA_FX_DEGRAIN_SHRINK_SOFT,
        "Soft threshold (the original paper's effect)", "soft"},
    {0, NULL, NULL},
  };

  return gst_cuda_fx_enum_register (&type, "GstCudaFxDegrainShrink", values);
}

GType
gst_cuda_fx_degrain_output_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEGRAIN_OUTPUT_RESULT, "The degrained picture", "result"},
    {GST_CUDA_FX_DEGRAIN_OUTPUT_NOISE,
        "What was removed: input - result + 128", "noise"},
    {0, NULL, NULL},
  };

  return gst_cuda_fx_enum_register (&type, "GstCudaFxDegrainOutput", values);
}

/* 8-bit formats and 16-bit words of 10 to 16 bits: the kernel works in
 * 8-bit units at every depth (kernels/degrain.cu) */
#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)
#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)

/* ---- state ----------------------------------------------------------- */

static void
reset_estimates (GstCudaFxDegrain * self)
{
  if (self->estimate)
    gst_cuda_fx_estimate_reset (self->estimate);
  self->next_post = GST_CLOCK_TIME_NONE;
}

/* Frees the scratch and the estimate (cudaFree and cudaFreeHost wait for
 * the work that still uses them) */
static void
free_resources (GstCudaFxDegrain * self)
{
  g_clear_pointer (&self->scratch, cfx_degrain_scratch_free);
  g_clear_pointer (&self->temporal, cfx_temporal_scratch_free);
  g_clear_pointer (&self->estimate, gst_cuda_fx_estimate_free);
  self->n_channels = 0;
  reset_estimates (self);
}

static gboolean
gst_cuda_fx_degrain_set_info (GstCudaFxFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaFxDegrain *self = GST_CUDA_FX_DEGRAIN (filter);
  gint n = GST_VIDEO_INFO_N_COMPONENTS (in_info), c;
  gint size[2][MAX_CH] = { {0} };
  cudaError_t err;

  if (n < 1 || n > MAX_CH) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("%d components are not supported", n));
    return FALSE;
  }
  for (c = 0; c < n; c++) {
    size[0][c] = GST_VIDEO_INFO_COMP_WIDTH (in_info, c);
    size[1][c] = GST_VIDEO_INFO_COMP_HEIGHT (in_info, c);
  }

  if (self->scratch && n == self->n_channels
      && memcmp (size, self->size, sizeof (size)) == 0
      && (self->radius == 0) == (self->temporal == NULL)) {
    reset_estimates (self);
    return TRUE;
  }

  err = gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
      (filter));
  if (!gst_cuda_fx_check (self, err, "Making the CUDA context current"))
    return FALSE;
  free_resources (self);

  err = cfx_degrain_scratch_new (&self->scratch, n, size[0], size[1]);
  if (!gst_cuda_fx_check (self, err, "Allocating the degrain scratch for "
          "%dx%d %s frames on CUDA device %d", GST_VIDEO_INFO_WIDTH (in_info),
          GST_VIDEO_INFO_HEIGHT (in_info),
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
          gst_cuda_fx_context_get_device_id (gst_cuda_fx_filter_get_context
              (filter))))
    goto fail;
  if (self->radius > 0) {
    err = cfx_temporal_scratch_new (&self->temporal, n, size[0], size[1],
        self->radius);
    if (!gst_cuda_fx_check (self, err, "Allocating the temporal scratch "
            "(radius %d) for %dx%d frames", self->radius,
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info)))
      goto fail;
  }
  self->estimate = gst_cuda_fx_estimate_new (gst_cuda_fx_filter_get_context
      (filter), n, EST_LAG, EST_SMOOTHING, cfx_degrain_sigma_from_median, &err);
  if (!gst_cuda_fx_check (self, err, "Allocating pinned memory for the "
          "noise estimates"))
    goto fail;
  self->n_channels = n;
  memcpy (self->size, size, sizeof (size));
  GST_DEBUG_OBJECT (self, "%d channels, %" G_GSIZE_FORMAT " bytes of scratch"
      " and %" G_GSIZE_FORMAT " for the temporal radius %d", n,
      cfx_degrain_scratch_bytes (self->scratch),
      cfx_temporal_scratch_bytes (self->temporal), self->radius);
  return TRUE;

fail:
  free_resources (self);
  return FALSE;
}

static gboolean
gst_cuda_fx_degrain_stop (GstBaseTransform * trans)
{
  GstCudaFxDegrain *self = GST_CUDA_FX_DEGRAIN (trans);
  GstCudaFxContext *ctx = gst_cuda_fx_filter_get_context
      (GST_CUDA_FX_FILTER (trans));

  if (ctx)
    gst_cuda_fx_context_make_current (ctx);
  free_resources (self);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_degrain_parent_class)->stop
      (trans);
}

/* ---- messages -------------------------------------------------------- */

static void
post_message (GstCudaFxDegrain * self, GstBuffer * buf,
    const gdouble * used, gboolean automatic, gint levels)
{
  GstClockTime pts = GST_BUFFER_PTS (buf), stream_time, running_time;
  GValue est = G_VALUE_INIT, app = G_VALUE_INIT, v = G_VALUE_INIT;
  GstStructure *s;
  gint c;

  stream_time = gst_cuda_fx_filter_get_stream_time (GST_CUDA_FX_FILTER (self),
      buf, &running_time);

  if (GST_CLOCK_TIME_IS_VALID (stream_time)) {
    /* the first frame, one second later, or after a jump back */
    if (GST_CLOCK_TIME_IS_VALID (self->next_post)
        && stream_time < self->next_post
        && stream_time + GST_SECOND >= self->next_post)
      return;
    self->next_post = stream_time + GST_SECOND;
  } else {
    /* no timestamps (or no time segment): every 25th frame (the count
     * includes this one) */
    if ((gst_cuda_fx_estimate_get_frames (self->estimate) - 1) % 25 != 0)
      return;
  }

  gst_value_array_init (&est, self->n_channels);
  gst_value_array_init (&app, self->n_channels);
  g_value_init (&v, G_TYPE_DOUBLE);
  for (c = 0; c < self->n_channels; c++) {
    g_value_set_double (&v, gst_cuda_fx_estimate_get (self->estimate, c));
    gst_value_array_append_value (&est, &v);
    g_value_set_double (&v, used[c]);
    gst_value_array_append_value (&app, &v);
  }
  g_value_unset (&v);

  s = gst_structure_new ("cudadegrain",
      "timestamp", G_TYPE_UINT64, pts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "automatic", G_TYPE_BOOLEAN, automatic,
      "levels", G_TYPE_INT, levels, NULL);
  gst_structure_take_value (s, "sigma", &est);
  gst_structure_take_value (s, "sigma-used", &app);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* ---- temporal -------------------------------------------------------- */

/* The temporal mean of @window's frame into the temporal scratch; @src
 * becomes its planes */
static gboolean
temporal_mean (GstCudaFxDegrain * self, const GstCudaFxFrameWindow * window,
    gdouble sigma, CfxPlane * src, cudaStream_t stream)
{
  GstCudaFxFrame *cur = window->frames[window->past];
  CfxTemporalParams params = { 0 };
  const CfxPlane *lumas[GST_CUDA_FX_HISTORY_MAX_WINDOW];
  gint slot_of[GST_CUDA_FX_HISTORY_MAX_WINDOW], k, first, n;
  cudaError_t err;

  params.n_past = MIN ((gint) window->n_before, self->radius);
  params.n_future = MIN ((gint) window->n_after, self->radius);
  params.sigma = (gfloat) sigma;
  /* the search images of the frames the stream has, kept from window to
   * window (a new stream: none from before counts) */
  first = window->past - params.n_past;
  n = params.n_past + 1 + params.n_future;
  for (k = 0; k < n; k++)
    lumas[k] = &window->frames[first + k]->comp[0];
  err = cfx_temporal_search_images (self->temporal, &window->serials[first],
      lumas, n, window->n_before == 0, slot_of, stream);
  if (!gst_cuda_fx_check (self, err, "Making a frame's motion search image"))
    return FALSE;
  /* slot_of[k]: of window position first + k */
  for (k = 1; k <= params.n_past; k++) {
    params.past[k - 1].frame = window->frames[window->past - k]->comp;
    params.past[k - 1].slot = slot_of[params.n_past - k];
  }
  for (k = 1; k <= params.n_future; k++) {
    params.future[k - 1].frame = window->frames[window->past + k]->comp;
    params.future[k - 1].slot = slot_of[params.n_past + k];
  }

  err = cfx_temporal_mean (cur->comp, slot_of[params.n_past],
      self->n_channels, &params, self->temporal, stream);
  if (!gst_cuda_fx_check (self, err, "Averaging a %dx%d frame with its "
          "%d + %d neighbours", GST_VIDEO_FRAME_WIDTH (&cur->video),
          GST_VIDEO_FRAME_HEIGHT (&cur->video), params.n_past,
          params.n_future))
    return FALSE;
  cfx_temporal_mean_planes (self->temporal, cur->comp, self->n_channels, src);
  return TRUE;
}

/* ---- processing ------------------------------------------------------ */

/* One output: @window NULL for the spatial filter of @in */
static GstFlowReturn
degrain_frame (GstCudaFxDegrain * self, GstCudaFxFrame * in,
    const GstCudaFxFrameWindow * window, GstCudaFxFrame * out, cudaStream_t stream)
{
  gint width = GST_VIDEO_FRAME_WIDTH (&in->video);
  gint height = GST_VIDEO_FRAME_HEIGHT (&in->video);
  CfxPlane mean[MAX_CH];
  const CfxPlane *src = in->comp, *dst = out->comp;
  const gint *estimate_device;
  CfxDegrainParams params = { 0 };
  gdouble strength, luma_strength, chroma_strength, sigma, used[MAX_CH];
  gboolean automatic;
  cudaError_t err;
  gint c, n = self->n_channels;

  if (!self->scratch || (window && !self->temporal))
    return GST_FLOW_NOT_NEGOTIATED;
  estimate_device = cfx_degrain_estimate_device (self->scratch);

  GST_OBJECT_LOCK (self);
  params.shrink = self->shrink == GST_CUDA_FX_DEGRAIN_SHRINK_SOFT ?
      CFX_DEGRAIN_SOFT : CFX_DEGRAIN_WIENER;
  params.levels = self->levels;
  params.amount = (gfloat) self->amount;
  params.output_noise = self->output == GST_CUDA_FX_DEGRAIN_OUTPUT_NOISE;
  strength = self->strength;
  luma_strength = self->luma_strength;
  chroma_strength = self->chroma_strength;
  sigma = self->sigma;
  GST_OBJECT_UNLOCK (self);

  /* 4 levels up to 1080p, 5 above */
  if (params.levels <= 0)
    params.levels = width > 1920 || height > 1080 ? 5 : 4;
  automatic = sigma <= 0.0;

  err = gst_cuda_fx_estimate_collect (self->estimate);
  if (!gst_cuda_fx_check (self, err, "Reading the noise estimate back"))
    return GST_FLOW_ERROR;
  /* automatic with a plane not estimated yet (the first frame): wait for
   * this frame's own estimate, once */
  if (automatic && gst_cuda_fx_estimate_needs_now (self->estimate)) {
    const gchar *step = "launching the estimate";

    err = cfx_degrain_estimate (src, n, self->scratch, stream);
    if (err == cudaSuccess) {
      step = "reading it back";
      err = gst_cuda_fx_estimate_now (self->estimate, estimate_device, stream);
    }
    if (!gst_cuda_fx_check (self, err, "Estimating the first frame's noise "
            "(%s)", step))
      return GST_FLOW_ERROR;
  }

  for (c = 0; c < n; c++) {
    used[c] = automatic ? gst_cuda_fx_estimate_get (self->estimate, c) : sigma;
    params.sigma[c] = (gfloat) used[c];
    params.strength[c] = (gfloat) (strength * (c == 0 ? luma_strength :
            chroma_strength));
  }

  if (window) {
    /* the estimate is of the input's noise, measured on the input; the
     * spatial stage gets the mean, and the noise the mean left */
    if (!temporal_mean (self, window, used[0], mean, stream))
      return GST_FLOW_ERROR;
    err = cfx_degrain_estimate (src, n, self->scratch, stream);
    if (!gst_cuda_fx_check (self, err, "Estimating the noise of a %dx%d %s "
            "frame", width, height, GST_VIDEO_INFO_NAME (&in->video.info)))
      return GST_FLOW_ERROR;
    params.sigma_scale = cfx_temporal_noise_scale_device (self->temporal);
    src = mean;
  } else {
    /* always estimate: it is nearly free, and the message reports it */
    params.estimate = 1;
  }

  err = cfx_degrain (dst, src, n, &params, self->scratch, stream);
  if (!gst_cuda_fx_check (self, err, "Degraining a %dx%d %s frame", width,
          height, GST_VIDEO_INFO_NAME (&in->video.info)))
    return GST_FLOW_ERROR;

  /* (the estimate, of the input in both modes, is not touched by a
   * degrain that does not estimate) */
  err = gst_cuda_fx_estimate_queue (self->estimate, estimate_device, stream);
  if (!gst_cuda_fx_check (self, err, "Queueing the noise estimate readback"))
    return GST_FLOW_ERROR;

  post_message (self, in->video.buffer, used, automatic, params.levels);
  return GST_FLOW_OK;
}

/* temporal-radius 0: the window is empty and the base class transforms
 * each frame as it comes */
static GstFlowReturn
gst_cuda_fx_degrain_process (GstCudaFxFilter * filter, GstCudaFxFrame * in,
    GstCudaFxFrame * out, cudaStream_t stream)
{
  return degrain_frame (GST_CUDA_FX_DEGRAIN (filter), in, NULL, out, stream);
}

static GstFlowReturn
gst_cuda_fx_degrain_process_window (GstCudaFxFilter * filter,
    const GstCudaFxFrameWindow * window, GstCudaFxFrame * out, cudaStream_t stream)
{
  /* (radius 0 has no window: process () makes its frames) */
  return degrain_frame (GST_CUDA_FX_DEGRAIN (filter),
      window->frames[window->past], window, out, stream);
}

/* The window is the radius: fixed from start to stop */
static gboolean
gst_cuda_fx_degrain_start (GstBaseTransform * trans)
{
  GstCudaFxDegrain *self = GST_CUDA_FX_DEGRAIN (trans);

  GST_OBJECT_LOCK (self);
  self->radius = self->temporal_radius;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_fx_filter_set_window (GST_CUDA_FX_FILTER (trans), self->radius,
      self->radius);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_degrain_parent_class)->start
      (trans);
}

/* After a flush the stream starts again: so do the estimates, so that a
 * seek gives the bytes a fresh run from there gives */
static gboolean
gst_cuda_fx_degrain_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    reset_estimates (GST_CUDA_FX_DEGRAIN (trans));
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_degrain_parent_class)
      ->sink_event (trans, event);
}

/* ---- properties ------------------------------------------------------ */

#define FIELD(f) G_STRUCT_OFFSET (GstCudaFxDegrain, f)
#define LIVE_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

static void
gst_cuda_fx_degrain_class_init (GstCudaFxDegrainClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gst_cuda_fx_filter_class_install_property (filter_class, PROP_SHRINK,
      FIELD (shrink), g_param_spec_enum ("shrink", "Shrink",
          "How detail coefficients are reduced: wiener (local Wiener gain "
          "over a 9x9 window, the best quality) or soft (soft threshold, the "
          "original paper's effect)",
          GST_TYPE_CUDA_FX_DEGRAIN_SHRINK, DEFAULT_SHRINK, LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_STRENGTH,
      FIELD (strength), g_param_spec_double ("strength", "Strength",
          "Multiplies the noise level (estimated or fixed): above 1 removes "
          "more, below 1 keeps more", 0.0, 4.0, DEFAULT_STRENGTH, LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class,
      PROP_LUMA_STRENGTH, FIELD (luma_strength),
      g_param_spec_double ("luma-strength", "Luma strength",
          "Extra multiplier of the noise level of the luma plane",
          0.0, 4.0, DEFAULT_LUMA_STRENGTH, LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class,
      PROP_CHROMA_STRENGTH, FIELD (chroma_strength),
      g_param_spec_double ("chroma-strength", "Chroma strength",
          "Extra multiplier of the noise level of the chroma planes "
          "(1.5 measured best on natural colour images)",
          0.0, 4.0, DEFAULT_CHROMA_STRENGTH, LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_SIGMA,
      FIELD (sigma), g_param_spec_double ("sigma", "Sigma",
          "Noise standard deviation in 8-bit units (at 10 bits, 4 codes "
          "per unit), the same for every plane; 0 estimates it per plane "
          "from the video (automatic)",
          0.0, 255.0, DEFAULT_SIGMA, LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_LEVELS,
      FIELD (levels), g_param_spec_int ("levels", "Levels",
          "Wavelet levels: coarser levels remove coarser grain; 0 chooses "
          "(4 up to 1920x1080, 5 above)", 0, CFX_DEGRAIN_MAX_LEVELS,
          DEFAULT_LEVELS, LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_AMOUNT,
      FIELD (amount), g_param_spec_double ("amount", "Amount",
          "Blend of result and input: 1 the full result, 0 the input "
          "(keeps some grain in between)", 0.0, 1.0, DEFAULT_AMOUNT,
          LIVE_FLAGS));
  gst_cuda_fx_filter_class_install_property (filter_class, PROP_OUTPUT,
      FIELD (output), g_param_spec_enum ("output", "Output",
          "result: the degrained picture; noise: what was removed, "
          "input - result + 128 (for regraining and quality control)",
          GST_TYPE_CUDA_FX_DEGRAIN_OUTPUT, DEFAULT_OUTPUT, LIVE_FLAGS));
  /* (refused while running: GST_PARAM_MUTABLE_READY) */
  gst_cuda_fx_filter_class_install_property (filter_class,
      PROP_TEMPORAL_RADIUS, FIELD (temporal_radius),
      g_param_spec_int ("temporal-radius", "Temporal radius",
          "Neighbouring frames on each side averaged in, motion compensated, "
          "before the wavelet: 0 the spatial filter alone; each frame "
          "delays the stream by one frame (takes effect at the next start)",
          0, CFX_TEMPORAL_MAX_RADIUS, DEFAULT_TEMPORAL_RADIUS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_cuda_fx_element_class_add_pad_templates (element_class, SINK_CAPS,
      SRC_CAPS);
  gst_element_class_set_static_metadata (element_class,
      "CUDA FX degrain", "Filter/Effect/Video/Hardware",
      "Removes noise and grain with a wavelet and an automatic noise "
      "estimate, on the GPU", "gst-cudafx developers");

  trans_class->start = gst_cuda_fx_degrain_start;
  trans_class->stop = gst_cuda_fx_degrain_stop;
  trans_class->sink_event = gst_cuda_fx_degrain_sink_event;
  filter_class->set_info = gst_cuda_fx_degrain_set_info;
  filter_class->process = gst_cuda_fx_degrain_process;
  filter_class->process_window = gst_cuda_fx_degrain_process_window;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEGRAIN_SHRINK, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEGRAIN_OUTPUT, 0);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_degrain_debug, "cudadegrain", 0,
      "cudadegrain element");
}

static void
gst_cuda_fx_degrain_init (GstCudaFxDegrain * self)
{
  /* (the properties start at their defaults: the base class sets them) */
  reset_estimates (self);
}
