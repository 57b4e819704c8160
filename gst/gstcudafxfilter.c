/* gst-cudafx: GstCudaFxFilter, the base class of every element.
 *
 * Two routes from input to output, chosen by the class:
 *   - process: GstBaseTransform's transform, one output per input, the
 *     frames mapped around the call;
 *   - process_window (window filters): submit_input_buffer pushes the
 *     input into the history and renders every input that became ready
 *     into a queue that generate_output empties; events that end a stream
 *     drain the history and push the queue themselves. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxfilter.h"
#include "gstcudafxmemory.h"
#include "gstcudafxbufferpool.h"
#include "gstcudafxsharing.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_fx_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_fx_filter_debug

#define DEFAULT_DEVICE_ID -1

enum
{
  PROP_0,
  PROP_DEVICE_ID,
};

typedef struct
{
  /* under the object lock: device_id, started, and context where it is
   * replaced while not started */
  gint device_id;
  gboolean started;             /* start () to stop (): context is fixed */
  gboolean restarting;          /* following upstream: started all along */
  GstCudaFxContext *context;
  cudaStream_t stream;
  GstVideoInfo in_info;
  GstVideoInfo out_info;

  /* window filters, with the stream lock */
  GstCudaFxHistory *history;
  /* the element's own window (set_window), else the class's */
  gboolean own_window;
  guint own_past, own_future;
  guint past, future;           /* the history's */
  GQueue outputs;               /* made, not yet pushed */
} GstCudaFxFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCudaFxFilter, gst_cuda_fx_filter,
    GST_TYPE_BASE_TRANSFORM);

#define PRIV(f) ((GstCudaFxFilterPrivate *) \
    gst_cuda_fx_filter_get_instance_private (GST_CUDA_FX_FILTER (f)))

/* With the object lock: the context, taken out, if it is of another device
 * than an explicit device-id (which wins over a context set before it) */
static GstCudaFxContext *
steal_context_of_other_device (GstCudaFxFilterPrivate * priv)
{
  if (priv->context && priv->device_id >= 0 && priv->device_id !=
      gst_cuda_fx_context_get_device_id (priv->context))
    return g_steal_pointer (&priv->context);
  return NULL;
}

/* ---- properties kept in a field (class_install_property) ------------ */

static GQuark
field_quark (void)
{
  static GQuark quark = 0;

  if (!quark)
    quark = g_quark_from_static_string ("gst-cuda-fx-filter-field");
  return quark;
}

/* The instance field of @pspec's value, NULL for another property */
static gpointer
field_of (GObject * object, GParamSpec * pspec)
{
  gsize offset = GPOINTER_TO_SIZE (g_param_spec_get_qdata (pspec,
          field_quark ()));

  return offset ? G_STRUCT_MEMBER_P (object, offset) : NULL;
}

static void
store_field (gpointer field, const GValue * value)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value))) {
    case G_TYPE_INT:
      *(gint *) field = g_value_get_int (value);
      break;
    case G_TYPE_BOOLEAN:
      *(gboolean *) field = g_value_get_boolean (value);
      break;
    case G_TYPE_ENUM:
      *(gint *) field = g_value_get_enum (value);
      break;
    case G_TYPE_DOUBLE:
      *(gdouble *) field = g_value_get_double (value);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* set_property and get_property of a class whose properties are fields */
static void
set_field_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  gpointer field = field_of (object, pspec);

  if (!field) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  if ((pspec->flags & GST_PARAM_MUTABLE_READY)
      && gst_cuda_fx_filter_refuse_change (GST_CUDA_FX_FILTER (object),
          pspec, value))
    return;
  GST_OBJECT_LOCK (object);
  store_field (field, value);
  GST_OBJECT_UNLOCK (object);
}

static void
get_field_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  gconstpointer field = field_of (object, pspec);

  if (!field) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value))) {
    case G_TYPE_INT:
      g_value_set_int (value, *(const gint *) field);
      break;
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, *(const gboolean *) field);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(const gint *) field);
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(const gdouble *) field);
      break;
    default:
      g_assert_not_reached ();
  }
  GST_OBJECT_UNLOCK (object);
}

/**
 * gst_cuda_fx_filter_class_install_property:
 * @klass: a filter class
 * @prop_id: the property's id in the subclass
 * @offset: where the instance keeps the value (G_STRUCT_OFFSET), a gint,
 *   gboolean, C enum or gdouble field for an int, boolean, enum or double
 *   @pspec
 * @pspec: (transfer full): the property
 *
 * Installs @pspec on @klass with its value in a field of the instance.
 * The field starts at @pspec's default (set at construction, after the
 * instance init functions); the class's set_property and get_property,
 * which this sets, write and read it under the object lock, so every
 * property the class installs must be such a field. A property flagged
 * %GST_PARAM_MUTABLE_READY refuses changes while the element runs
 * (gst_cuda_fx_filter_refuse_change()). The subclass reads its fields
 * under the object lock.
 */
void
gst_cuda_fx_filter_class_install_property (GstCudaFxFilterClass * klass,
    guint prop_id, gsize offset, GParamSpec * pspec)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GType type = G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec));

  /* (GObject gives each class its own accessors, none inherited) */
  if (!gobject_class->set_property && !gobject_class->get_property) {
    gobject_class->set_property = set_field_property;
    gobject_class->get_property = get_field_property;
  }
  g_return_if_fail (gobject_class->set_property == set_field_property);
  g_return_if_fail (offset >= sizeof (GstCudaFxFilter));
  g_return_if_fail (type == G_TYPE_INT || type == G_TYPE_BOOLEAN
      || type == G_TYPE_ENUM || type == G_TYPE_DOUBLE);
  g_param_spec_set_qdata (pspec, field_quark (), GSIZE_TO_POINTER (offset));
  g_object_class_install_property (gobject_class, prop_id, pspec);
}

/**
 * gst_cuda_fx_enum_register: (skip)
 * @type: where the type is kept (a static gsize, 0 at first)
 * @name: the enum type's name
 * @values: (array zero-terminated=1): its values, static
 *
 * The body of an element's enum get_type function: registers the type
 * once, thread-safe.
 *
 * Returns: the type
 */
GType
gst_cuda_fx_enum_register (gsize * type, const gchar * name,
    const GEnumValue * values)
{
  if (g_once_init_enter (type)) {
    GType registered = g_enum_register_static (name, values);

    g_once_init_leave (type, registered);
  }
  return *type;
}

/* Field properties start at their defaults */
static void
gst_cuda_fx_filter_constructed (GObject * object)
{
  GParamSpec **pspecs;
  guint n, i;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  for (i = 0; i < n; i++) {
    gpointer field = field_of (object, pspecs[i]);
    GValue value = G_VALUE_INIT;

    if (!field)
      continue;
    g_value_init (&value, G_PARAM_SPEC_VALUE_TYPE (pspecs[i]));
    g_param_value_set_default (pspecs[i], &value);
    store_field (field, &value);
    g_value_unset (&value);
  }
  g_free (pspecs);
  G_OBJECT_CLASS (gst_cuda_fx_filter_parent_class)->constructed (object);
}

static void
gst_cuda_fx_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFxFilterPrivate *priv = PRIV (object);
  GstCudaFxContext *stale = NULL;

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      /* the frames, pools and kernels of a started element live on its
       * device: no change until it stops */
      if ((priv->started || priv->restarting)
          && g_value_get_int (value) != priv->device_id) {
        GST_OBJECT_UNLOCK (object);
        GST_ELEMENT_WARNING (object, CORE, STATE_CHANGE,
            ("'device-id' can only change in the NULL or READY state: "
                "ignored"), ("wanted %d, keeping %d", g_value_get_int (value),
                priv->device_id));
        break;
      }
      priv->device_id = g_value_get_int (value);
      /* dropped now, not only at start: neighbours that ask this element
       * for its context must not be handed it */
      stale = steal_context_of_other_device (priv);
      GST_OBJECT_UNLOCK (object);
      gst_clear_object (&stale);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_fx_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFxFilterPrivate *priv = PRIV (object);

  switch (prop_id) {
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      g_value_set_int (value, priv->device_id);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* A filter with a window: a class with process_window, unless the element
 * set a window of no neighbours and has a process () (then every frame is
 * a plain transform: metadata, offsets and DTS kept as GstBaseTransform
 * keeps them) */
static gboolean
has_window (gpointer filter)
{
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (filter);
  GstCudaFxFilterPrivate *priv = PRIV (filter);

  if (!klass->process_window)
    return FALSE;
  return !(klass->process && priv->own_window && priv->own_past == 0
      && priv->own_future == 0);
}

static void
clear_outputs (GstCudaFxFilterPrivate * priv)
{
  GstBuffer *buf;

  while ((buf = g_queue_pop_head (&priv->outputs)))
    gst_buffer_unref (buf);
}

static void
gst_cuda_fx_filter_dispose (GObject * object)
{
  /* a context a neighbour or the application set, never started */
  gst_clear_object (&PRIV (object)->context);

  G_OBJECT_CLASS (gst_cuda_fx_filter_parent_class)->dispose (object);
}

static void
gst_cuda_fx_filter_finalize (GObject * object)
{
  GstCudaFxFilterPrivate *priv = PRIV (object);

  clear_outputs (priv);
  if (priv->history)
    gst_cuda_fx_history_free (priv->history);

  G_OBJECT_CLASS (gst_cuda_fx_filter_parent_class)->finalize (object);
}

/* A context from a neighbour or the application is taken only while the
 * element is not started: a started element's frames, pools and stream
 * belong to the context it has. The rules, with device-id, are in
 * gst/README.md. */
static void
gst_cuda_fx_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaFxFilterPrivate *priv = PRIV (element);
  GstCudaFxContext *cuda_ctx = NULL;
  gint device_id;
  gboolean started;

  GST_OBJECT_LOCK (element);
  started = priv->started || priv->restarting;
  device_id = priv->device_id;
  if (priv->context)
    cuda_ctx = gst_object_ref (priv->context);
  GST_OBJECT_UNLOCK (element);

  if (started) {
    GST_INFO_OBJECT (element, "started: keeping CUDA context %p, ignoring "
        "a %s context", gst_cuda_fx_context_get_handle (cuda_ctx),
        gst_context_get_context_type (context));
  } else if (gst_cuda_fx_handle_set_context (element, context, device_id,
          &cuda_ctx)) {
    GST_OBJECT_LOCK (element);
    if (!priv->started && !priv->restarting)
      gst_object_replace ((GstObject **) & priv->context,
          GST_OBJECT (cuda_ctx));
    GST_OBJECT_UNLOCK (element);
  }
  gst_clear_object (&cuda_ctx);
  GST_ELEMENT_CLASS (gst_cuda_fx_filter_parent_class)->set_context (element,
      context);
}

/* Upstream's latency plus the history's look-ahead */
static gboolean
query_latency (GstBaseTransform * trans, GstQuery * query)
{
  GstClockTime min, max, extra;
  gboolean live;

  if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (trans), query))
    return FALSE;
  gst_query_parse_latency (query, &live, &min, &max);
  extra = PRIV (trans)->history ?
      gst_cuda_fx_history_get_latency (PRIV (trans)->history) : 0;
  GST_DEBUG_OBJECT (trans, "adding %" GST_TIME_FORMAT " of latency",
      GST_TIME_ARGS (extra));
  min += extra;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += extra;
  gst_query_set_latency (query, live, min, max);
  return TRUE;
}

static gboolean
gst_cuda_fx_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstCudaFxContext *context = NULL;
    gboolean answered;

    /* (another thread may drop it: device-id set in READY) */
    GST_OBJECT_LOCK (trans);
    if (PRIV (trans)->context)
      context = gst_object_ref (PRIV (trans)->context);
    GST_OBJECT_UNLOCK (trans);
    answered = context && gst_cuda_fx_handle_context_query (GST_ELEMENT_CAST
        (trans), query, context);
    gst_clear_object (&context);
    if (answered)
      return TRUE;
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY
      && direction == GST_PAD_SRC && has_window (trans)
      && !gst_base_transform_is_passthrough (trans))
    return query_latency (trans, query);

  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)->query
      (trans, direction, query);
}

/* The element's own window (set_window), else the class's */
static void
wanted_window (GstBaseTransform * trans, guint * past, guint * future)
{
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);

  *past = priv->own_window ? priv->own_past : klass->past;
  *future = priv->own_window ? priv->own_future : klass->future;
}

/* Temporal filters: the history (the class is complete only after
 * instance init) */
static void
ensure_history (GstBaseTransform * trans)
{
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  guint past, future;

  wanted_window (trans, &past, &future);

  if (priv->history && (past != priv->past || future != priv->future)) {
    gst_cuda_fx_history_free (priv->history);
    priv->history = NULL;
  }
  priv->past = past;
  priv->future = future;
  if (has_window (trans) && !priv->history)
    priv->history = gst_cuda_fx_history_new (past, future);
}

static gboolean
gst_cuda_fx_filter_start (GstBaseTransform * trans)
{
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GError *error = NULL;
  GstCudaFxContext *stale = NULL;
  cudaError_t err;
  gint device_id;

  ensure_history (trans);

  /* (a neighbour's context taken at -1 since device-id was set) */
  GST_OBJECT_LOCK (trans);
  device_id = priv->device_id;
  stale = steal_context_of_other_device (priv);
  GST_OBJECT_UNLOCK (trans);
  if (stale) {
    GST_INFO_OBJECT (trans, "device-id=%d: dropping the context of device "
        "%d", device_id, gst_cuda_fx_context_get_device_id (stale));
    gst_object_unref (stale);
  }
  if (!gst_cuda_fx_ensure_element_context (GST_ELEMENT_CAST (trans),
          device_id, &priv->context, &error)) {
    GST_ELEMENT_ERROR (trans, RESOURCE, NOT_FOUND, ("%s", error->message),
        ("device-id=%d", device_id));
    g_clear_error (&error);
    return FALSE;
  }

  err = gst_cuda_fx_context_make_current (priv->context);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags (&priv->stream, cudaStreamNonBlocking);
  if (!gst_cuda_fx_check (trans, err, "Creating a CUDA stream on device %d",
          gst_cuda_fx_context_get_device_id (priv->context))) {
    gst_clear_object (&priv->context);
    return FALSE;
  }
  GST_OBJECT_LOCK (trans);
  priv->started = TRUE;
  GST_OBJECT_UNLOCK (trans);
  return TRUE;
}

static gboolean
gst_cuda_fx_filter_stop (GstBaseTransform * trans)
{
  GstCudaFxFilterPrivate *priv = PRIV (trans);

  if (priv->history)
    gst_cuda_fx_history_clear (priv->history);
  clear_outputs (priv);

  if (priv->stream) {
    gst_cuda_fx_context_make_current (priv->context);
    /* queued work still completes; the stream goes once it has */
    cudaStreamDestroy (priv->stream);
    priv->stream = NULL;
  }
  GST_OBJECT_LOCK (trans);
  priv->started = FALSE;
  GST_OBJECT_UNLOCK (trans);
  return TRUE;
}

/* The context is looked for at NULL to READY already: elements change state
 * from the sinks up, so nvcodec's decoders upstream of ours, which look for
 * theirs at NULL to READY, find ours and share it. Without a device this
 * is not an error yet: start () says it, as before. */
static GstStateChangeReturn
gst_cuda_fx_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaFxFilterPrivate *priv = PRIV (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
    GError *error = NULL;

    if (!gst_cuda_fx_ensure_element_context (element, priv->device_id,
            &priv->context, &error)) {
      GST_INFO_OBJECT (element, "no context yet: %s", error->message);
      g_clear_error (&error);
    }
  }
  ret = GST_ELEMENT_CLASS (gst_cuda_fx_filter_parent_class)->change_state
      (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    GstCudaFxContext *old;

    GST_OBJECT_LOCK (element);
    old = g_steal_pointer (&priv->context);
    GST_OBJECT_UNLOCK (element);
    gst_clear_object (&old);
  }
  return ret;
}

static GstCaps *
gst_cuda_fx_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_cuda_fx_caps_apply_filter (gst_cuda_fx_caps_to_device (caps),
      filter);
}

static gboolean
gst_cuda_fx_filter_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  GstVideoInfo info;

  if (!GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)->accept_caps
      (trans, direction, caps))
    return FALSE;
  /* fixed caps that do not describe a frame (no width, ...) would only fail
   * later, in set_caps */
  if (gst_caps_is_fixed (caps) && !gst_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (trans, "refusing incomplete video caps %"
        GST_PTR_FORMAT, caps);
    return FALSE;
  }
  return TRUE;
}

/* The device the frames come from. Caps travel downstream, so asking the
 * upstream neighbour here makes a chain follow its first element's device:
 * an element left at device-id=-1 takes its upstream neighbour's context
 * (it may have made one of its own at NULL to READY, before its
 * neighbours had theirs); one with an explicit device-id refuses frames
 * from another device here, at negotiation, with one clear error. */
static gboolean
follow_upstream_device (GstBaseTransform * trans)
{
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GstCudaFxContext *up;
  gint up_device, device;
  gboolean ok = TRUE;

  up = gst_cuda_fx_query_upstream_context (GST_ELEMENT_CAST (trans),
      GST_BASE_TRANSFORM_SINK_PAD (trans));
  if (!up || !priv->context || up == priv->context)
    goto done;

  up_device = gst_cuda_fx_context_get_device_id (up);
  device = gst_cuda_fx_context_get_device_id (priv->context);
  if (priv->device_id >= 0 && up_device != device) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION,
        ("%s runs on CUDA device %d, but the frames it gets are on "
            "device %d", GST_OBJECT_NAME (trans), device, up_device),
        ("Elements of one chain share a device: set the same device-id, "
            "or leave it at -1 to follow the upstream element"));
    ok = FALSE;
    goto done;
  }
  /* (on the same device, another CUDA context: an nvcodec element's) */
  GST_INFO_OBJECT (trans, "following upstream to device %d (was %d), CUDA "
      "context %p", up_device, device, gst_cuda_fx_context_get_handle (up));
  /* the element's resources belong to the old context: made anew. For
   * set_property and set_context the element stays started throughout. */
  GST_OBJECT_LOCK (trans);
  priv->restarting = TRUE;
  GST_OBJECT_UNLOCK (trans);
  klass->stop (trans);
  GST_OBJECT_LOCK (trans);
  gst_object_replace ((GstObject **) & priv->context, GST_OBJECT (up));
  GST_OBJECT_UNLOCK (trans);
  ok = klass->start (trans);
  GST_OBJECT_LOCK (trans);
  priv->restarting = FALSE;
  GST_OBJECT_UNLOCK (trans);

done:
  gst_clear_object (&up);
  return ok;
}

/* Frames of 4 GiB and more (a buffer pool counts sizes in 32 bits) or with
 * rows too long for a pitch are refused here, by name */
static gboolean
frame_fits (GstBaseTransform * trans, const GstVideoInfo * info)
{
  GstVideoInfo device_info;

  if (gst_cuda_fx_video_info_to_device (info, &device_info))
    return TRUE;
  GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION,
      ("A %dx%d %s frame is too large for device memory frames: at most "
          "4 GiB a frame, %d bytes a row", GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info), G_MAXINT),
      ("%" G_GSIZE_FORMAT " bytes in system memory",
          GST_VIDEO_INFO_SIZE (info)));
  return FALSE;
}

static gboolean
gst_cuda_fx_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GstVideoInfo in_info, out_info;

  if (!follow_upstream_device (trans))
    return FALSE;

  if (!gst_video_info_from_caps (&in_info, incaps)
      || !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ELEMENT_ERROR (trans, CORE, NEGOTIATION, (NULL),
        ("Cannot parse caps %" GST_PTR_FORMAT " / %" GST_PTR_FORMAT,
            incaps, outcaps));
    return FALSE;
  }
  if (!frame_fits (trans, &in_info) || !frame_fits (trans, &out_info))
    return FALSE;
  if (klass->set_info && !klass->set_info (GST_CUDA_FX_FILTER (trans), incaps,
          &in_info, outcaps, &out_info))
    return FALSE;

  priv->in_info = in_info;
  priv->out_info = out_info;
  ensure_history (trans);
  if (priv->history)
    gst_cuda_fx_history_set_info (priv->history, &in_info, &out_info);
  return TRUE;
}

/**
 * gst_cuda_fx_filter_new_device_pool:
 *
 * Returns: (transfer full): the object
 */
GstBufferPool *
gst_cuda_fx_filter_new_device_pool (GstCudaFxFilter * filter, GstCaps * caps,
    guint min_buffers, guint max_buffers)
{
  return gst_cuda_fx_device_pool_new (PRIV (filter)->context, caps,
      min_buffers, max_buffers);
}

/**
 * gst_cuda_fx_filter_propose_device_pool:
 *
 * Offers upstream a pool of device frames for the query's caps, with
 * @min_buffers for the frames this element holds.
 */
gboolean
gst_cuda_fx_filter_propose_device_pool (GstCudaFxFilter * filter,
    GstQuery * query, guint min_buffers)
{
  return gst_cuda_fx_device_pool_propose (PRIV (filter)->context, query,
      min_buffers);
}

/* The output frame; a pool that cannot make one says why */
static GstFlowReturn
gst_cuda_fx_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstFlowReturn ret;
  GstBufferPool *pool;

  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
      ->prepare_output_buffer (trans, input, outbuf);
  if (ret == GST_FLOW_ERROR && (pool = gst_base_transform_get_buffer_pool
          (trans))) {
    GstCudaFxFilterPrivate *priv = PRIV (trans);

    gst_cuda_fx_device_pool_post_error (GST_ELEMENT_CAST (trans), pool,
        "Acquiring a frame", &priv->out_info, priv->context);
    gst_object_unref (pool);
  }
  return ret;
}

/**
 * gst_cuda_fx_filter_decide_device_pool:
 *
 * Takes downstream's device pool if it is ours on this device, else makes
 * one, and configures it for the output caps.
 */
gboolean
gst_cuda_fx_filter_decide_device_pool (GstCudaFxFilter * filter,
    GstQuery * query)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);

  return gst_cuda_fx_device_pool_decide (GST_ELEMENT_CAST (filter),
      priv->context, query, &priv->out_info);
}

static gboolean
gst_cuda_fx_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  /* passthrough: downstream answers */
  if (!decide_query)
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
        ->propose_allocation (trans, decide_query, query);

  /* the frames the history holds, and two in flight */
  ensure_history (trans);
  return gst_cuda_fx_filter_propose_device_pool (GST_CUDA_FX_FILTER (trans),
      query, PRIV (trans)->past + PRIV (trans)->future + 2);
}

static gboolean
gst_cuda_fx_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  return gst_cuda_fx_filter_decide_device_pool (GST_CUDA_FX_FILTER (trans),
      query);
}

/**
 * gst_cuda_fx_filter_map_frame:
 *
 * Maps @buffer's frame for the element's stream, after checking that it is
 * device memory of the element's device; posts an element error
 * otherwise.
 */
gboolean
gst_cuda_fx_filter_map_frame (GstCudaFxFilter * filter,
    GstCudaFxFrame * frame, const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  GError *error = NULL;

  if (gst_cuda_fx_frame_map (frame, info, buffer, flags, priv->context,
          priv->stream, &error))
    return TRUE;
  if (g_error_matches (error, GST_CUDA_FX_ERROR, GST_CUDA_FX_ERROR_DEVICE_ID))
    GST_ELEMENT_ERROR (filter, CORE, NEGOTIATION, ("%s", error->message),
        ("%s runs on device %d", GST_OBJECT_NAME (filter),
            gst_cuda_fx_context_get_device_id (priv->context)));
  else if (g_error_matches (error, GST_CUDA_FX_ERROR,
          GST_CUDA_FX_ERROR_CUDA))
    GST_ELEMENT_ERROR (filter, RESOURCE, FAILED, ("%s", error->message),
        (NULL));
  else
    GST_ELEMENT_ERROR (filter, STREAM, FORMAT, (NULL), ("%s",
            error->message));
  g_clear_error (&error);
  return FALSE;
}

gboolean
gst_cuda_fx_filter_unmap_frame (GstCudaFxFilter * filter,
    GstCudaFxFrame * frame)
{
  return gst_cuda_fx_check (filter, gst_cuda_fx_frame_unmap (frame),
      "Recording %s's use of a frame", GST_OBJECT_NAME (filter));
}

/* Padding bytes of packed rows follow the input when the format stays */
static GstFlowReturn
finish_output (GstCudaFxFilter * filter, GstCudaFxFrame * in,
    GstCudaFxFrame * out)
{
  if (GST_VIDEO_FRAME_FORMAT (&in->video) !=
      GST_VIDEO_FRAME_FORMAT (&out->video))
    return GST_FLOW_OK;
  if (!gst_cuda_fx_check (filter, gst_cuda_fx_frame_copy_padding (out, in),
          "Copying the padding of packed rows"))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

/**
 * gst_cuda_fx_filter_make_current:
 *
 * Before a frame's work: the element's device current, and the thread's
 * last CUDA error cleared. Streaming threads are reused between pipelines:
 * an error an earlier call left there (a failed allocation, already
 * reported or deliberately ignored, or one the runtime posted) must not
 * surface in this frame's calls. Launches report their own status
 * (cfx_launch) and do not read it. Posts an element error if the device
 * cannot be made current.
 */
gboolean
gst_cuda_fx_filter_make_current (GstCudaFxFilter * filter)
{
  GstCudaFxContext *context = PRIV (filter)->context;

  (void) cudaGetLastError ();
  return gst_cuda_fx_check (filter, gst_cuda_fx_context_make_current
      (context), "Making device %d current",
      gst_cuda_fx_context_get_device_id (context));
}

static GstFlowReturn
gst_cuda_fx_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GstCudaFxFrame in, out;
  GstFlowReturn ret;

  if (!klass->process)
    return GST_FLOW_NOT_SUPPORTED;
  if (!gst_cuda_fx_filter_make_current (filter))
    return GST_FLOW_ERROR;
  if (!gst_cuda_fx_filter_map_frame (filter, &in, &priv->in_info, inbuf,
          GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_cuda_fx_filter_map_frame (filter, &out, &priv->out_info, outbuf,
          GST_MAP_WRITE)) {
    gst_cuda_fx_filter_unmap_frame (filter, &in);
    return GST_FLOW_ERROR;
  }

  ret = klass->process (filter, &in, &out, priv->stream);
  if (ret == GST_FLOW_OK)
    ret = finish_output (filter, &in, &out);

  if (!gst_cuda_fx_filter_unmap_frame (filter, &out))
    ret = GST_FLOW_ERROR;
  if (!gst_cuda_fx_filter_unmap_frame (filter, &in))
    ret = GST_FLOW_ERROR;
  return ret;
}

/**
 * gst_cuda_fx_filter_get_stream_time:
 * @filter: a filter
 * @buf: an input buffer
 * @running_time: (out) (optional): its running time
 *
 * Returns: the stream time of @buf's timestamp in the input segment;
 * %GST_CLOCK_TIME_NONE (and in @running_time too) without a time segment
 * or a timestamp.
 */
GstClockTime
gst_cuda_fx_filter_get_stream_time (GstCudaFxFilter * filter,
    GstBuffer * buf, GstClockTime * running_time)
{
  GstSegment *segment = &GST_BASE_TRANSFORM (filter)->segment;
  GstClockTime pts = GST_BUFFER_PTS (buf);

  if (running_time)
    *running_time = GST_CLOCK_TIME_NONE;
  if (segment->format != GST_FORMAT_TIME || !GST_CLOCK_TIME_IS_VALID (pts))
    return GST_CLOCK_TIME_NONE;
  if (running_time)
    *running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME, pts);
  return gst_segment_to_stream_time (segment, GST_FORMAT_TIME, pts);
}

/* Controlled properties take their value for @buf's stream time; nothing
 * changes without a time segment or a timestamp */
static void
sync_values (GstCudaFxFilter * filter, GstBuffer * buf)
{
  GstClockTime ts = gst_cuda_fx_filter_get_stream_time (filter, buf, NULL);

  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (filter), ts);
}

static void
gst_cuda_fx_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buf)
{
  guint past, future;

  wanted_window (trans, &past, &future);
  /* window filters with a look-ahead sync when they render an input, not
   * when it comes; without one, it is rendered as it comes */
  if (!has_window (trans) || future == 0)
    sync_values (GST_CUDA_FX_FILTER (trans), buf);
}

/* ---- window filters: a window of input frames per output ------------- */

/* Every output of the input @hw is about: maps the window's distinct
 * buffers once, makes each output and queues it */
static GstFlowReturn
render_window (GstCudaFxFilter * filter, const GstCudaFxBufferWindow * hw)
{
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (filter);
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  GstBuffer *input = hw->frames[hw->past];
  GstCudaFxFrame frames[GST_CUDA_FX_HISTORY_MAX_WINDOW];
  GstCudaFxFrameWindow window;
  guint i, j, n = hw->past + 1 + hw->future, mapped = 0;
  GstFlowReturn ret = GST_FLOW_OK;

  sync_values (filter, input);
  if (!gst_cuda_fx_filter_make_current (filter))
    return GST_FLOW_ERROR;

  memset (&window, 0, sizeof (window));
  window.past = hw->past;
  window.future = hw->future;
  window.n_before = hw->n_before;
  window.n_after = hw->n_after;
  window.n_outputs = hw->n_outputs;
  memcpy (window.serials, hw->serials, sizeof (window.serials));
  /* the ends of the stream repeat a buffer: map it once (each map orders
   * the stream and records a read) */
  for (i = 0; i < n; i++) {
    for (j = 0; j < i && hw->frames[j] != hw->frames[i]; j++);
    if (j < i) {
      window.frames[i] = window.frames[j];
      continue;
    }
    if (!gst_cuda_fx_filter_map_frame (filter, &frames[mapped],
            &priv->in_info, hw->frames[i], GST_MAP_READ)) {
      ret = GST_FLOW_ERROR;
      goto out;
    }
    window.frames[i] = &frames[mapped++];
  }

  for (window.output = 0; window.output < hw->n_outputs
      && ret == GST_FLOW_OK; window.output++) {
    GstCudaFxFrame out;
    GstBuffer *outbuf = NULL;

    ret = gst_cuda_fx_filter_prepare_output_buffer (GST_BASE_TRANSFORM
        (filter), input, &outbuf);
    if (ret != GST_FLOW_OK)
      break;
    if (!gst_cuda_fx_filter_map_frame (filter, &out, &priv->out_info, outbuf,
            GST_MAP_WRITE)) {
      gst_buffer_unref (outbuf);
      ret = GST_FLOW_ERROR;
      break;
    }
    ret = klass->process_window (filter, &window, &out, priv->stream);
    if (ret == GST_FLOW_OK)
      ret = finish_output (filter, window.frames[hw->past], &out);
    if (!gst_cuda_fx_filter_unmap_frame (filter, &out))
      ret = GST_FLOW_ERROR;
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (outbuf);
      break;
    }
    gst_cuda_fx_history_set_output_metadata (priv->history, hw, outbuf,
        window.output);
    g_queue_push_tail (&priv->outputs, outbuf);
  }

out:
  while (mapped > 0)
    if (!gst_cuda_fx_filter_unmap_frame (filter, &frames[--mapped]))
      ret = GST_FLOW_ERROR;
  return ret;
}

/* Makes the outputs of every input that is ready (@draining: of every
 * input left, the last ones being their own neighbours) */
static GstFlowReturn
render_ready (GstCudaFxFilter * filter, gboolean draining)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  GstCudaFxBufferWindow hw;
  GstFlowReturn ret = GST_FLOW_OK;

  while (ret == GST_FLOW_OK && gst_cuda_fx_history_next (priv->history,
          draining, &hw)) {
    if (hw.n_outputs == 0)
      g_queue_push_tail (&priv->outputs, gst_buffer_ref (hw.frames[hw.past]));
    else
      ret = render_window (filter, &hw);
    /* a failed input still joins the past: the stream goes on after it */
    gst_cuda_fx_history_advance (priv->history);
  }
  return ret;
}

/* The stream ends here (EOS, new caps or segment, a gap, a DISCONT):
 * every input left goes out now, and the history starts anew */
static GstFlowReturn
drain (GstCudaFxFilter * filter)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  GstFlowReturn ret;
  GstBuffer *buf;

  if (gst_cuda_fx_history_is_empty (priv->history)
      && g_queue_is_empty (&priv->outputs)) {
    gst_cuda_fx_history_clear (priv->history);
    return GST_FLOW_OK;
  }
  GST_DEBUG_OBJECT (filter, "draining");
  ret = render_ready (filter, TRUE);
  gst_cuda_fx_history_clear (priv->history);
  while ((buf = g_queue_pop_head (&priv->outputs))) {
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (filter), buf);
    else
      gst_buffer_unref (buf);
  }
  clear_outputs (priv);
  return ret;
}

static GstFlowReturn
gst_cuda_fx_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);
  GstCudaFxFilterClass *klass = GST_CUDA_FX_FILTER_GET_CLASS (trans);
  GstCudaFxFilterPrivate *priv = PRIV (trans);
  GstFlowReturn ret;
  GstBuffer *buf;

  /* negotiation, QoS: the default; it leaves the buffer in queued_buf */
  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
      ->submit_input_buffer (trans, is_discont, input);
  if (ret != GST_FLOW_OK || !has_window (trans)
      || gst_base_transform_is_passthrough (trans))
    return ret;
  buf = trans->queued_buf;
  trans->queued_buf = NULL;
  if (!buf)
    return GST_FLOW_OK;         /* dropped for QoS */

  /* a discontinuity ends one stream and starts another (is_discont stays
   * set until something is pushed, so look at the buffer itself) */
  if (GST_BUFFER_IS_DISCONT (buf) && (ret = drain (filter)) != GST_FLOW_OK) {
    gst_buffer_unref (buf);
    return ret;
  }
  gst_cuda_fx_history_push (priv->history, buf,
      klass->outputs_for ? klass->outputs_for (filter, buf) : 1);
  return render_ready (filter, FALSE);
}

static GstFlowReturn
gst_cuda_fx_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  if (!has_window (trans) || gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
        ->generate_output (trans, outbuf);
  *outbuf = g_queue_pop_head (&PRIV (trans)->outputs);
  return GST_FLOW_OK;
}

/* Temporal filters: the history sets each output's metadata */
static gboolean
gst_cuda_fx_filter_copy_metadata (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer * outbuf)
{
  if (has_window (trans))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
      ->copy_metadata (trans, input, outbuf);
}

static gboolean
caps_change (GstBaseTransform * trans, GstEvent * event)
{
  GstCaps *caps, *current;
  gboolean changed;

  gst_event_parse_caps (event, &caps);
  current = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  changed = current && !gst_caps_is_equal (caps, current);
  gst_clear_caps (&current);
  return changed;
}

static gboolean
gst_cuda_fx_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaFxFilter *filter = GST_CUDA_FX_FILTER (trans);

  if (!has_window (trans))
    goto done;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:{
      /* the pending outputs belong before the event */
      GstFlowReturn ret = drain (filter);

      GST_DEBUG_OBJECT (trans, "drained before %s: %s",
          GST_EVENT_TYPE_NAME (event), gst_flow_get_name (ret));
      /* no chain function returns this one: say it (an error was posted
       * already for GST_FLOW_ERROR) */
      if (ret < GST_FLOW_EOS && ret != GST_FLOW_ERROR)
        GST_ELEMENT_FLOW_ERROR (trans, ret);
      break;
    }
    case GST_EVENT_CAPS:
      if (caps_change (trans, event))
        drain (filter);
      break;
    case GST_EVENT_FLUSH_STOP:
      gst_cuda_fx_history_clear (PRIV (trans)->history);
      clear_outputs (PRIV (trans));
      break;
    default:
      break;
  }
done:
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_fx_filter_parent_class)
      ->sink_event (trans, event);
}

static void
gst_cuda_fx_filter_class_init (GstCudaFxFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_fx_filter_set_property;
  gobject_class->get_property = gst_cuda_fx_filter_get_property;
  gobject_class->constructed = gst_cuda_fx_filter_constructed;
  gobject_class->dispose = gst_cuda_fx_filter_dispose;
  gobject_class->finalize = gst_cuda_fx_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "CUDA device to run on: -1 takes the device of the neighbouring "
          "cudafx elements (device 0 if none has one yet)",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  element_class->set_context = gst_cuda_fx_filter_set_context;
  element_class->change_state = gst_cuda_fx_filter_change_state;

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = gst_cuda_fx_filter_start;
  trans_class->stop = gst_cuda_fx_filter_stop;
  trans_class->query = gst_cuda_fx_filter_query;
  trans_class->transform_caps = gst_cuda_fx_filter_transform_caps;
  trans_class->accept_caps = gst_cuda_fx_filter_accept_caps;
  trans_class->set_caps = gst_cuda_fx_filter_set_caps;
  trans_class->propose_allocation = gst_cuda_fx_filter_propose_allocation;
  trans_class->decide_allocation = gst_cuda_fx_filter_decide_allocation;
  trans_class->before_transform = gst_cuda_fx_filter_before_transform;
  trans_class->prepare_output_buffer =
      gst_cuda_fx_filter_prepare_output_buffer;
  trans_class->transform = gst_cuda_fx_filter_transform;
  trans_class->submit_input_buffer = gst_cuda_fx_filter_submit_input_buffer;
  trans_class->generate_output = gst_cuda_fx_filter_generate_output;
  trans_class->copy_metadata = gst_cuda_fx_filter_copy_metadata;
  trans_class->sink_event = gst_cuda_fx_filter_sink_event;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FX_FILTER, 0);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_fx_filter_debug, "cudafxfilter", 0,
      "gst-cudafx base class");
}

static void
gst_cuda_fx_filter_init (GstCudaFxFilter * filter)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);

  priv->device_id = DEFAULT_DEVICE_ID;
  g_queue_init (&priv->outputs);
}

/**
 * gst_cuda_fx_filter_is_running:
 * @filter: a filter
 *
 * Returns: whether the element is started (from start () to stop (), and
 * through a restart on another device): properties that only change in
 * NULL or READY must be refused.
 */
gboolean
gst_cuda_fx_filter_is_running (GstCudaFxFilter * filter)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);
  gboolean running;

  GST_OBJECT_LOCK (filter);
  running = priv->started || priv->restarting;
  GST_OBJECT_UNLOCK (filter);
  return running;
}

/**
 * gst_cuda_fx_filter_refuse_change:
 * @filter: a filter
 * @pspec: a property that changes only in NULL or READY
 * @wanted: the value being set
 *
 * Setting such a property while the element runs is ignored with a
 * warning (GStreamer's GST_PARAM_MUTABLE_READY is a promise to the user,
 * not enforced by GObject); setting the value in effect is not a change
 * and passes quietly. Call from set_property without the object lock (the
 * value in effect is read through get_property, the warning goes to the
 * bus).
 *
 * Returns: TRUE when the caller must ignore the value.
 */
gboolean
gst_cuda_fx_filter_refuse_change (GstCudaFxFilter * filter,
    GParamSpec * pspec, const GValue * wanted)
{
  GValue current = G_VALUE_INIT;
  gboolean refuse = FALSE;

  if (!gst_cuda_fx_filter_is_running (filter))
    return FALSE;
  g_value_init (&current, G_PARAM_SPEC_VALUE_TYPE (pspec));
  g_object_get_property (G_OBJECT (filter), pspec->name, &current);
  if (g_param_values_cmp (pspec, wanted, &current) != 0) {
    gchar *w = g_strdup_value_contents (wanted);
    gchar *c = g_strdup_value_contents (&current);

    GST_ELEMENT_WARNING (filter, CORE, STATE_CHANGE,
        ("'%s' can only change in the NULL or READY state: ignored",
            pspec->name), ("wanted %s, keeping %s", w, c));
    g_free (w);
    g_free (c);
    refuse = TRUE;
  }
  g_value_unset (&current);
  return refuse;
}

/**
 * gst_cuda_fx_filter_set_window:
 * @filter: a window filter
 * @past: frames before the one processed
 * @future: frames after it (reported as latency)
 *
 * Replaces the class's window for this element, for a window chosen by a
 * property. Call it before the element starts (in its start vfunc, before
 * chaining up, or in NULL or READY); the history is made anew when the
 * window changes.
 */
void
gst_cuda_fx_filter_set_window (GstCudaFxFilter * filter, guint past,
    guint future)
{
  GstCudaFxFilterPrivate *priv = PRIV (filter);

  g_return_if_fail (past + 1 + future <= GST_CUDA_FX_HISTORY_MAX_WINDOW);
  priv->own_window = TRUE;
  priv->own_past = past;
  priv->own_future = future;
  if (priv->history)
    ensure_history (GST_BASE_TRANSFORM (filter));
}

/**
 * gst_cuda_fx_filter_get_context:
 *
 * Returns: (transfer none): the object
 */
GstCudaFxContext *
gst_cuda_fx_filter_get_context (GstCudaFxFilter * filter)
{
  return PRIV (filter)->context;
}

/**
 * gst_cuda_fx_filter_get_stream: (skip)
 *
 * For C: takes or gives CUDA types.
 */
cudaStream_t
gst_cuda_fx_filter_get_stream (GstCudaFxFilter * filter)
{
  return PRIV (filter)->stream;
}

const GstVideoInfo *
gst_cuda_fx_filter_get_in_info (GstCudaFxFilter * filter)
{
  return &PRIV (filter)->in_info;
}

const GstVideoInfo *
gst_cuda_fx_filter_get_out_info (GstCudaFxFilter * filter)
{
  return &PRIV (filter)->out_info;
}
