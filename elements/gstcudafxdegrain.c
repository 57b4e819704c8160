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
#include "cudafx-kernels.h"

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

  /* properties, under the object lock */
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
  gint width[MAX_CH], height[MAX_CH];
  gdouble est[MAX_CH];          /* smoothed estimate, < 0: none yet */
  gboolean synced;              /* the one synchronous estimate is done */
  GstCudaFxReadback *readback;  /* each frame's estimate, MAX_CH ints */
  GstClockTime next_post;       /* stream time of the next message */
  guint64 frames;               /* since the last reset */
};

G_DEFINE_TYPE (GstCudaFxDegrain, gst_cuda_fx_degrain, GST_TYPE_CUDA_FX_FILTER);

GType
gst_cuda_fx_degrain_shrink_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEGRAIN_SHRINK_WIENER,
        "Local Wiener gain over a 9x9 window (best quality)", "wiener"},
    {GST_CUDA_FX_DEGRAIN_SHRINK_SOFT,
        "Soft threshold (the original paper's effect)", "soft"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFxDegrainShrink", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_fx_degrain_output_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_FX_DEGRAIN_OUTPUT_RESULT, "The degrained picture", "result"},
    {GST_CUDA_FX_DEGRAIN_OUTPUT_NOISE,
        "What was removed: input - result + 128", "noise"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFxDegrainOutput", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* 8-bit formats and 16-bit words of 10 to 16 bits: the kernel works in
 * 8-bit units at every depth (kernels/degrain.cu) */
#define SINK_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)
#define SRC_CAPS GST_CUDA_FX_VIDEO_CAPS (GST_CUDA_FX_FORMATS_WITH_16BIT)

/* ---- state ----------------------------------------------------------- */

static void
reset_estimates (GstCudaFxDegrain * self)
{
  guint i;

  for (i = 0; i < MAX_CH; i++)
    self->est[i] = -1.0;
  if (self->readback)
    gst_cuda_fx_readback_reset (self->readback);
  self->synced = FALSE;
  self->next_post = GST_CLOCK_TIME_NONE;
  self->frames = 0;
}

/* Frees the scratch and the readbacks (cudaFree and cudaFreeHost wait for
 * the work that still uses them) */
static void
free_resources (GstCudaFxDegrain * self)
{
  if (self->scratch) {
    cfx_degrain_scratch_free (self->scratch);
    self->scratch = NULL;
  }
  if (self->temporal) {
    cfx_temporal_scratch_free (self->temporal);
    self->temporal = NULL;
  }
  gst_cuda_fx_readback_free (self->readback);
  self->readback = NULL;
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
  gint width[MAX_CH] = { 0 }, height[MAX_CH] = { 0 };
  gboolean same;
  cudaError_t err;

  if (n < 1 || n > MAX_CH) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("%d components are not supported", n));
    return FALSE;
  }
  for (c = 0; c < n; c++) {
    width[c] = GST_VIDEO_INFO_COMP_WIDTH (in_info, c);
    height[c] = GST_VIDEO_INFO_COMP_HEIGHT (in_info, c);
  }

  same = self->scratch && n == self->n_channels;
  for (c = 0; same && c < n; c++)
    same = width[c] == self->width[c] && height[c] == self->height[c];
  same = same && (self->radius == 0) == (self->temporal == NULL);
  if (same) {
    reset_estimates (self);
    return TRUE;
  }

  err = gst_cuda_fx_context_make_current (gst_cuda_fx_filter_get_context
      (filter));
  if (!gst_cuda_fx_check (self, err, "Making the CUDA context current"))
    return FALSE;
  free_resources (self);

  err = cfx_degrain_scratch_new (&self->scratch, n, width, height);
  if (!gst_cuda_fx_check (self, err, "Allocating the degrain scratch for "
          "%dx%d %s frames on CUDA device %d", GST_VIDEO_INFO_WIDTH (in_info),
          GST_VIDEO_INFO_HEIGHT (in_info),
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)),
          gst_cuda_fx_context_get_device_id (gst_cuda_fx_filter_get_context
              (filter))))
    goto fail;
  if (self->radius > 0) {
    err = cfx_temporal_scratch_new (&self->temporal, n, width, height,
        self->radius);
    if (!gst_cuda_fx_check (self, err, "Allocating the temporal scratch "
            "(radius %d) for %dx%d frames", self->radius,
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info)))
      goto fail;
  }
  self->readback = gst_cuda_fx_readback_new (gst_cuda_fx_filter_get_context
      (filter), MAX_CH * sizeof (gint), EST_LAG, &err);
  if (!gst_cuda_fx_check (self, err, "Allocating pinned memory for the "
          "noise estimates"))
    goto fail;
  self->n_channels = n;
  for (c = 0; c < MAX_CH; c++) {
    self->width[c] = width[c];
    self->height[c] = height[c];
  }
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

/* ---- noise estimates ------------------------------------------------- */

static void
fold_estimate (GstCudaFxDegrain * self, const gint * medians, gboolean first)
{
  gint c;

  for (c = 0; c < self->n_channels; c++) {
    gdouble s;

    if (medians[c] < 0)
      continue;                 /* no tile counted: keep what we had */
    s = cfx_degrain_sigma_from_median (medians[c]);
    if (first || self->est[c] < 0.0)
      self->est[c] = s;
    else
      self->est[c] += EST_SMOOTHING * (s - self->est[c]);
  }
}

/* Folds in the estimate of the frame EST_LAG before this one, read back
 * long ago: which estimates a frame applies depends on its index alone.
 * Waits only if that readback is late. */
static gboolean
collect_estimate (GstCudaFxDegrain * self)
{
  gconstpointer medians;
  cudaError_t err;

  err = gst_cuda_fx_readback_collect (self->readback, self->frames, &medians);
  if (!gst_cuda_fx_check (self, err, "Reading the noise estimate back"))
    return FALSE;
  if (medians)
    fold_estimate (self, medians, FALSE);
  return TRUE;
}

/* Enqueues the copy of this frame's estimate, which the frame EST_LAG
 * later folds in */
static gboolean
queue_readback (GstCudaFxDegrain * self, cudaStream_t stream)
{
  cudaError_t err;

  err = gst_cuda_fx_readback_queue (self->readback, self->frames,
      cfx_degrain_estimate_device (self->scratch),
      self->n_channels * sizeof (gint), stream);
  return gst_cuda_fx_check (self, err, "Queueing the noise estimate readback");
}

/* The first frame's own estimate, waited for */
static gboolean
estimate_now (GstCudaFxDegrain * self, const CfxPlane * src,
    cudaStream_t stream)
{
  gconstpointer medians = NULL;
  const gchar *step = "launching the estimate";
  cudaError_t err;

  err = cfx_degrain_estimate (src, self->n_channels, self->scratch, stream);
  if (err == cudaSuccess) {
    step = "reading it back";
    err = gst_cuda_fx_readback_now (self->readback,
        cfx_degrain_estimate_device (self->scratch),
        self->n_channels * sizeof (gint), stream, &medians);
  }
  if (!gst_cuda_fx_check (self, err, "Estimating the first frame's noise "
          "(%s)", step))
    return FALSE;
  fold_estimate (self, medians, TRUE);
  return TRUE;
}

/* ---- messages -------------------------------------------------------- */

/* Stream time of a buffer and its running time in @rt, NONE without a
 * timestamp or a time segment */
static GstClockTime
stream_time_of (GstBaseTransform * trans, GstBuffer * buf, GstClockTime * rt)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);

  *rt = GST_CLOCK_TIME_NONE;
  if (trans->segment.format != GST_FORMAT_TIME
      || !GST_CLOCK_TIME_IS_VALID (pts))
    return GST_CLOCK_TIME_NONE;
  *rt = gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME, pts);
  return gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME, pts);
}

static void
post_message (GstCudaFxDegrain * self, GstBuffer * buf,
    const gdouble * used, gboolean automatic, gint levels)
{
  GstClockTime pts = GST_BUFFER_PTS (buf), stream_time, running_time;
  GValue est = G_VALUE_INIT, app = G_VALUE_INIT, v = G_VALUE_INIT;
  GstStructure *s;
  gint c;

  stream_time = stream_time_of (GST_BASE_TRANSFORM (self), buf, &running_time);

  if (GST_CLOCK_TIME_IS_VALID (stream_time)) {
    /* the first frame, one second later, or after a jump back */
    if (GST_CLOCK_TIME_IS_VALID (self->next_post)
        && stream_time < self->next_post
        && stream_time + GST_SECOND >= self->next_post)
      return;
    self->next_post = stream_time + GST_SECOND;
  } else {
    /* no timestamps (or no time segment): every 25th frame */
    if (self->frames % 25 != 0)
      return;
  }

  gst_value_array_init (&est, self->n_channels);
  gst_value_array_init (&app, self->n_channels);
  g_value_init (&v, G_TYPE_DOUBLE);
  for (c = 0; c < self->n_channels; c++) {
    g_value_set_double (&v, MAX (self->est[c], 0.0));
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
  CfxDegrainParams params = { 0 };
  gdouble strength, luma_strength, chroma_strength, sigma, used[MAX_CH];
  gboolean automatic;
  cudaError_t err;
  gint c, n = self->n_channels;

  if (!self->scratch || (window && !self->temporal))
    return GST_FLOW_NOT_NEGOTIATED;

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

  if (!collect_estimate (self))
    return GST_FLOW_ERROR;
  /* automatic with a plane not estimated yet (the first frame): wait for
   * this frame's own estimate, once */
  if (automatic && !self->synced) {
    gboolean missing = FALSE;

    for (c = 0; c < n; c++)
      missing |= self->est[c] < 0.0;
    if (missing && !estimate_now (self, src, stream))
      return GST_FLOW_ERROR;
    self->synced = TRUE;
  }

  for (c = 0; c < n; c++) {
    used[c] = automatic ? MAX (self->est[c], 0.0) : sigma;
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
  if (!queue_readback (self, stream))
    return GST_FLOW_ERROR;

  post_message (self, in->video.buffer, used, automatic, params.levels);
  self->frames++;
  return GST_FLOW_OK;
}

static guint
gst_cuda_fx_degrain_outputs_for (GstCudaFxFilter * filter, GstBuffer * input)
{
  return 1;
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

static void
gst_cuda_fx_degrain_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxDegrain *self = GST_CUDA_FX_DEGRAIN (object);

  /* the window, the latency and the pool are the radius's until the
   * element stops (a restart on another device keeps them too) */
  if (prop_id == PROP_TEMPORAL_RADIUS
      && gst_cuda_fx_filter_refuse_change (GST_CUDA_FX_FILTER (self), pspec,
          value))
    return;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SHRINK:
      self->shrink = g_value_get_enum (value);
      break;
    case PROP_STRENGTH:
      self->strength = g_value_get_double (value);
      break;
    case PROP_LUMA_STRENGTH:
      self->luma_strength = g_value_get_double (value);
      break;
    case PROP_CHROMA_STRENGTH:
      self->chroma_strength = g_value_get_double (value);
      break;
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    case PROP_LEVELS:
      self->levels = g_value_get_int (value);
      break;
    case PROP_AMOUNT:
      self->amount = g_value_get_double (value);
      break;
    case PROP_OUTPUT:
      self->output = g_value_get_enum (value);
      break;
    case PROP_TEMPORAL_RADIUS:
      self->temporal_radius = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_fx_degrain_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFxDegrain *self = GST_CUDA_FX_DEGRAIN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SHRINK:
      g_value_set_enum (value, self->shrink);
      break;
    case PROP_STRENGTH:
      g_value_set_double (value, self->strength);
      break;
    case PROP_LUMA_STRENGTH:
      g_value_set_double (value, self->luma_strength);
      break;
    case PROP_CHROMA_STRENGTH:
      g_value_set_double (value, self->chroma_strength);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    case PROP_LEVELS:
      g_value_set_int (value, self->levels);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, self->amount);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->output);
      break;
    case PROP_TEMPORAL_RADIUS:
      g_value_set_int (value, self->temporal_radius);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

#define LIVE_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

static void
gst_cuda_fx_degrain_class_init (GstCudaFxDegrainClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaFxFilterClass *filter_class = GST_CUDA_FX_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_fx_degrain_set_property;
  gobject_class->get_property = gst_cuda_fx_degrain_get_property;

  g_object_class_install_property (gobject_class, PROP_SHRINK,
      g_param_spec_enum ("shrink", "Shrink",
          "How detail coefficients are reduced: wiener (local Wiener gain "
          "over a 9x9 window, the best quality) or soft (soft threshold, the "
          "original paper's effect)",
          GST_TYPE_CUDA_FX_DEGRAIN_SHRINK, DEFAULT_SHRINK, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_STRENGTH,
      g_param_spec_double ("strength", "Strength",
          "Multiplies the noise level (estimated or fixed): above 1 removes "
          "more, below 1 keeps more", 0.0, 4.0, DEFAULT_STRENGTH, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_LUMA_STRENGTH,
      g_param_spec_double ("luma-strength", "Luma strength",
          "Extra multiplier of the noise level of the luma plane",
          0.0, 4.0, DEFAULT_LUMA_STRENGTH, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_CHROMA_STRENGTH,
      g_param_spec_double ("chroma-strength", "Chroma strength",
          "Extra multiplier of the noise level of the chroma planes "
          "(1.5 measured best on natural colour images)",
          0.0, 4.0, DEFAULT_CHROMA_STRENGTH, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Noise standard deviation in 8-bit units (at 10 bits, 4 codes "
          "per unit), the same for every plane; 0 estimates it per plane "
          "from the video (automatic)",
          0.0, 255.0, DEFAULT_SIGMA, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_LEVELS,
      g_param_spec_int ("levels", "Levels",
          "Wavelet levels: coarser levels remove coarser grain; 0 chooses "
          "(4 up to 1920x1080, 5 above)", 0, CFX_DEGRAIN_MAX_LEVELS,
          DEFAULT_LEVELS, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount",
          "Blend of result and input: 1 the full result, 0 the input "
          "(keeps some grain in between)", 0.0, 1.0, DEFAULT_AMOUNT,
          LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "result: the degrained picture; noise: what was removed, "
          "input - result + 128 (for regraining and quality control)",
          GST_TYPE_CUDA_FX_DEGRAIN_OUTPUT, DEFAULT_OUTPUT, LIVE_FLAGS));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_RADIUS,
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
  filter_class->outputs_for = gst_cuda_fx_degrain_outputs_for;
  filter_class->process_window = gst_cuda_fx_degrain_process_window;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEGRAIN_SHRINK, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_DEGRAIN_OUTPUT, 0);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_degrain_debug, "cudadegrain", 0,
      "cudadegrain element");
}

static void
gst_cuda_fx_degrain_init (GstCudaFxDegrain * self)
{
  self->shrink = DEFAULT_SHRINK;
  self->strength = DEFAULT_STRENGTH;
  self->luma_strength = DEFAULT_LUMA_STRENGTH;
  self->chroma_strength = DEFAULT_CHROMA_STRENGTH;
  self->sigma = DEFAULT_SIGMA;
  self->levels = DEFAULT_LEVELS;
  self->amount = DEFAULT_AMOUNT;
  self->output = DEFAULT_OUTPUT;
  self->temporal_radius = DEFAULT_TEMPORAL_RADIUS;
  reset_estimates (self);
}
