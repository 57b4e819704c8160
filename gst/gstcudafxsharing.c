/* gst-cudafx: sharing contexts between elements through GstContext (ours,
 * gst.cudafx.context, and GStreamer's CUDA library's, gst.cuda.context),
 * and finding the device a chain's frames come from. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafxsharing.h"
#include "gstcudafxinterop.h"

/**
 * gst_context_set_cuda_fx_context:
 * @context: a writable #GstContext of type %GST_CUDA_FX_CONTEXT_TYPE
 * @cuda_ctx: the context to share
 *
 * Puts @cuda_ctx (and its device id) into @context.
 */
void
gst_context_set_cuda_fx_context (GstContext * context,
    GstCudaFxContext * cuda_ctx)
{
  GstStructure *s = gst_context_writable_structure (context);

  gst_structure_set (s, "context", GST_TYPE_CUDA_FX_CONTEXT, cuda_ctx,
      "device-id", G_TYPE_INT, gst_cuda_fx_context_get_device_id (cuda_ctx), NULL);
}

/**
 * gst_context_get_cuda_fx_context:
 * @context: a #GstContext
 * @cuda_ctx: (out) (transfer full) (optional): the context it carries
 *
 * Returns: whether @context carries one of our contexts.
 */
gboolean
gst_context_get_cuda_fx_context (GstContext * context,
    GstCudaFxContext ** cuda_ctx)
{
  const GstStructure *s;

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CUDA_FX_CONTEXT_TYPE) != 0)
    return FALSE;
  s = gst_context_get_structure (context);
  return gst_structure_get (s, "context", GST_TYPE_CUDA_FX_CONTEXT, cuda_ctx,
      NULL);
}

gboolean
gst_cuda_fx_handle_set_context (GstElement * element, GstContext * context,
    gint device_id, GstCudaFxContext ** cuda_ctx)
{
  GstCudaFxContext *other = NULL;

  if (!context)
    return FALSE;
  /* GStreamer's CUDA context (nvcodec's elements): never replaces one we
   * have */
  if (!gst_context_get_cuda_fx_context (context, &other))
    return !*cuda_ctx && gst_cuda_fx_interop_context_from (element, context,
        device_id, cuda_ctx);

  /* device-id -1 takes the neighbours' device; a fixed id only its own */
  if (device_id >= 0 && gst_cuda_fx_context_get_device_id (other) != device_id) {
    GST_INFO_OBJECT (element, "ignoring context of device %d, want %d",
        gst_cuda_fx_context_get_device_id (other), device_id);
    gst_object_unref (other);
    return FALSE;
  }

  gst_clear_object (cuda_ctx);
  *cuda_ctx = other;
  return TRUE;
}

gboolean
gst_cuda_fx_handle_context_query (GstElement * element, GstQuery * query,
    GstCudaFxContext * cuda_ctx)
{
  const gchar *type;
  GstContext *old = NULL, *context;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT || !cuda_ctx)
    return FALSE;
  if (!gst_query_parse_context_type (query, &type))
    return FALSE;
  if (g_strcmp0 (type, GST_CUDA_FX_INTEROP_CONTEXT_TYPE) == 0)
    return gst_cuda_fx_interop_handle_context_query (element, query,
        cuda_ctx);
  if (g_strcmp0 (type, GST_CUDA_FX_CONTEXT_TYPE) != 0)
    return FALSE;

  gst_query_parse_context (query, &old);
  context = old ? gst_context_copy (old) :
      gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_context_set_cuda_fx_context (context, cuda_ctx);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}

static gboolean
pad_peer_query (const GValue * item, GValue * value, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);

  if (gst_pad_peer_query (pad, GST_QUERY_CAST (user_data))) {
    g_value_set_boolean (value, TRUE);
    return FALSE;
  }
  return TRUE;
}

static gboolean
query_neighbours (GstElement * element, GstQuery * query,
    GstPadDirection direction)
{
  GstIterator *it;
  GValue res = G_VALUE_INIT;
  gboolean found;

  it = direction == GST_PAD_SRC ? gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  g_value_init (&res, G_TYPE_BOOLEAN);
  g_value_set_boolean (&res, FALSE);
  while (gst_iterator_fold (it, pad_peer_query, &res, query) ==
      GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  found = g_value_get_boolean (&res);
  gst_iterator_free (it);
  return found;
}

/**
 * gst_cuda_fx_ensure_element_context:
 *
 * Finds the context to use: one already set, the neighbours' (downstream,
 * then upstream), the application's (need-context), else a new one for
 * @device_id (-1 means device 0), announced with have-context.
 */
gboolean
gst_cuda_fx_ensure_element_context (GstElement * element, gint device_id,
    GstCudaFxContext ** cuda_ctx, GError ** error)
{
  /* ours first, then GStreamer's CUDA library's (nvcodec's elements) */
  const gchar *types[] = { GST_CUDA_FX_CONTEXT_TYPE,
    GST_CUDA_FX_INTEROP_CONTEXT_TYPE
  };
  GstContext *context;
  guint i;

  if (*cuda_ctx)
    return TRUE;

  for (i = 0; i < G_N_ELEMENTS (types) && !*cuda_ctx; i++) {
    GstQuery *query;

    if (i > 0 && !gst_cuda_fx_interop_available ())
      break;
    query = gst_query_new_context (types[i]);
    if (query_neighbours (element, query, GST_PAD_SRC)
        || query_neighbours (element, query, GST_PAD_SINK)) {
      gst_query_parse_context (query, &context);
      if (context)
        gst_element_set_context (element, context);
    }
    gst_query_unref (query);
  }
  for (i = 0; i < G_N_ELEMENTS (types) && !*cuda_ctx; i++) {
    if (i > 0 && !gst_cuda_fx_interop_available ())
      break;
    gst_element_post_message (element,
        gst_message_new_need_context (GST_OBJECT_CAST (element), types[i]));
  }
  if (*cuda_ctx)
    return TRUE;

  *cuda_ctx = gst_cuda_fx_context_get (device_id < 0 ? 0 : device_id, error);
  if (!*cuda_ctx)
    return FALSE;

  context = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_context_set_cuda_fx_context (context, *cuda_ctx);
  gst_element_set_context (element, context);
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT_CAST (element), context));
  /* and for nvcodec's elements that ask later: the same CUDA context */
  if ((context = gst_cuda_fx_interop_context_new (*cuda_ctx)))
    gst_element_post_message (element,
        gst_message_new_have_context (GST_OBJECT_CAST (element), context));
  return TRUE;
}

/**
 * gst_cuda_fx_query_upstream_context:
 * @element: an element of ours
 * @sinkpad: its sink pad
 *
 * The context of the element upstream of @sinkpad: ours, or an nvcodec
 * element's CUDA context, adopted (gst_cuda_fx_handle_set_context()).
 *
 * Returns: (transfer full) (nullable): the context, or %NULL where
 * upstream has none
 */
GstCudaFxContext *
gst_cuda_fx_query_upstream_context (GstElement * element, GstPad * sinkpad)
{
  GstQuery *query = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
  GstCudaFxContext *up = NULL;
  GstContext *context = NULL;

  if (gst_pad_peer_query (sinkpad, query)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_context_get_cuda_fx_context (context, &up);
  }
  gst_query_unref (query);
  /* an nvcodec element upstream: its CUDA context, adopted */
  if (!up && gst_cuda_fx_interop_available ()) {
    query = gst_query_new_context (GST_CUDA_FX_INTEROP_CONTEXT_TYPE);
    if (gst_pad_peer_query (sinkpad, query)) {
      gst_query_parse_context (query, &context);
      if (context)
        gst_cuda_fx_interop_context_from (element, context, -1, &up);
    }
    gst_query_unref (query);
  }
  return up;
}
