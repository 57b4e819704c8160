/* CPU suite (runs in CI, with or without a GPU): registration, type and
 * name separation from gst-plugins-bad's nvcodec, element metadata and
 * properties, pad templates, caps queries and accept-caps in NULL state,
 * device-id, clear failure without a GPU, not-negotiated on an unsupported
 * format, and the GstContext sharing functions.
 *
 * Where the outcome depends on the machine, tests branch on
 * cfx_test_have_gpu () and check the right thing in each case. */
#include "cfx-test.h"

#include <gst/cudafx.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <math.h>
#include <string.h>

static gboolean have_gpu;

static const gchar *formats[] = { "UYVY", "YUY2", "I420", "YV12", "NV12",
  "Y42B", "Y444", "GRAY8", NULL
};

/* what upload and download carry (sorted): those and 10 to 16-bit ones;
 * in system memory v210 too */
#define TRANSFER_FORMATS "GRAY16_LE,GRAY8,I420,I420_10LE,I420_12LE," \
  "I422_10LE,I422_12LE,NV12,P010_10LE,P012_LE,P016_LE,UYVY,Y42B,Y444," \
  "Y444_10LE,Y444_12LE,Y444_16LE,YUY2,YV12"
#define SYSTEM_FORMATS "GRAY16_LE,GRAY8,I420,I420_10LE,I420_12LE," \
  "I422_10LE,I422_12LE,NV12,P010_10LE,P012_LE,P016_LE,UYVY,Y42B,Y444," \
  "Y444_10LE,Y444_12LE,Y444_16LE,YUY2,YV12,v210"

/* element names the foundation registers, and those registered only once
 * they work (each has its own issue) */
static const gchar *required_elements[] = { "cudaupload", "cudafxupload",
  "cudadownload", "cudafxdownload", "cudaluma", NULL
};

static const gchar *optional_elements[] = { "cudablur", "cudadeinterlace",
  "cudadegrain", NULL
};

/* gst-plugins-bad's nvcodec/libgstcuda names, which ours must not equal */
static const gchar *nvcodec_type_names[] = { "GstCudaUpload",
  "GstCudaDownload", "GstCudaContext", "GstCudaAllocator",
  "GstCudaBufferPool", "GstCudaMemoryCopy", "GstCudaBaseTransform",
  "GstCudaBaseFilter", "GstCudaStream", "GstCudaPoolAllocator", NULL
};

#define NVCODEC_CONTEXT_TYPE "gst.cuda.context"
#define NVCODEC_CAPS_FEATURE "memory:CUDAMemory"
#define NVCODEC_MEMORY_NAME "gst.cuda.memory"

#define CUDAFX_CAPS(fields) \
  "video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_FX ")," fields

/* ---- helpers ------------------------------------------------------------ */

/* Names of every element factory of our plugin (free with g_strfreev) */
static gchar **
plugin_element_names (void)
{
  GList *features, *l;
  GPtrArray *names = g_ptr_array_new ();

  features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
      "cudafx");
  for (l = features; l; l = l->next) {
    if (GST_IS_ELEMENT_FACTORY (l->data))
      g_ptr_array_add (names, g_strdup (GST_OBJECT_NAME (l->data)));
  }
  gst_plugin_feature_list_free (features);
  g_ptr_array_add (names, NULL);
  return (gchar **) g_ptr_array_free (names, FALSE);
}

static GstElement *
make (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  fail_unless (e != NULL, "cannot create %s", factory);
  return e;
}

static GType
factory_type (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);
  GType type;

  fail_unless (f != NULL, "no factory %s", name);
  f = GST_ELEMENT_FACTORY (gst_plugin_feature_load (GST_PLUGIN_FEATURE (f)));
  fail_unless (f != NULL, "cannot load %s", name);
  type = gst_element_factory_get_element_type (f);
  gst_object_unref (f);
  return type;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar **) a, *(const gchar **) b);
}

/* The distinct strings of @array, sorted, joined with ',' */
static gchar *
join_sorted_unique (GPtrArray * array)
{
  GString *s = g_string_new (NULL);
  guint i;

  g_ptr_array_sort (array, compare_strings);
  for (i = 0; i < array->len; i++) {
    if (i > 0 && g_strcmp0 (array->pdata[i], array->pdata[i - 1]) == 0)
      continue;
    if (s->len)
      g_string_append_c (s, ',');
    g_string_append (s, array->pdata[i]);
  }
  return g_string_free (s, FALSE);
}

static gchar *
expected_formats (void)
{
  GPtrArray *a = g_ptr_array_new ();
  gchar *ret;
  guint i;

  for (i = 0; formats[i]; i++)
    g_ptr_array_add (a, (gpointer) formats[i]);
  ret = join_sorted_unique (a);
  g_ptr_array_free (a, TRUE);
  return ret;
}

static gboolean
features_are (GstCapsFeatures * f, const gchar * feature)
{
  return f && gst_caps_features_get_size (f) == 1
      && gst_caps_features_contains (f, feature);
}

/* The formats of the structures of @caps whose features are exactly
 * @feature: sorted, distinct, joined with ',' */
static gchar *
caps_formats (GstCaps * caps, const gchar * feature)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  gchar *ret;
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    const GValue *v = gst_structure_get_value (s, "format");

    if (!features_are (gst_caps_get_features (caps, i), feature) || !v)
      continue;
    if (G_VALUE_HOLDS_STRING (v)) {
      g_ptr_array_add (a, g_value_dup_string (v));
    } else {
      fail_unless (GST_VALUE_HOLDS_LIST (v), "format of %" GST_PTR_FORMAT,
          caps);
      for (j = 0; j < gst_value_list_get_size (v); j++)
        g_ptr_array_add (a,
            g_value_dup_string (gst_value_list_get_value (v, j)));
    }
  }
  ret = join_sorted_unique (a);
  g_ptr_array_free (a, TRUE);
  return ret;
}

/* The distinct caps features of @caps, sorted, joined with ',' */
static gchar *
caps_features (GstCaps * caps)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  gchar *ret;
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    g_ptr_array_add (a, f ? gst_caps_features_to_string (f) :
        g_strdup (GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY));
  }
  ret = join_sorted_unique (a);
  g_ptr_array_free (a, TRUE);
  return ret;
}

static GstCaps *
template_caps (const gchar * factory, const gchar * pad)
{
  GstElement *e = make (factory);
  GstPadTemplate *t =
      gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e), pad);
  GstCaps *caps;

  fail_unless (t != NULL, "%s has no %s template", factory, pad);
  fail_unless_equals_int (GST_PAD_TEMPLATE_PRESENCE (t), GST_PAD_ALWAYS);
  caps = gst_pad_template_get_caps (t);
  gst_object_unref (e);
  return caps;
}

/* Checks the template of @pad: its features (sorted, ',') and, for each of
 * them, the formats (@want_system for system memory); every structure
 * video/x-raw of any size from 1x1. */
static void
check_template (const gchar * factory, const gchar * pad,
    const gchar * want_features, const gchar * want_formats,
    const gchar * want_system)
{
  GstCaps *caps = template_caps (factory, pad);
  gchar *features = caps_features (caps);
  gchar **feature;
  guint i;

  fail_unless_equals_string (features, want_features);
  feature = g_strsplit (features, ",", -1);
  for (i = 0; feature[i]; i++) {
    gchar *f = caps_formats (caps, feature[i]);
    fail_unless_equals_string (f, g_str_equal (feature[i],
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY) ? want_system :
        want_formats);
    g_free (f);
  }
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    const gchar *dims[] = { "width", "height" };
    guint d;

    fail_unless (gst_structure_has_name (s, "video/x-raw"));
    for (d = 0; d < 2; d++) {
      const GValue *v = gst_structure_get_value (s, dims[d]);
      fail_unless (v && GST_VALUE_HOLDS_INT_RANGE (v), "%s %s %s", factory,
          pad, dims[d]);
      fail_unless_equals_int (gst_value_get_int_range_min (v), 1);
      fail_unless_equals_int (gst_value_get_int_range_max (v), G_MAXINT);
    }
  }
  g_strfreev (feature);
  g_free (features);
  gst_caps_unref (caps);
}

/* @upstream (a capsfilter's caps) linked to @factory's sink; returns the
 * caps query answer of @factory's src pad with @filter. */
static GstCaps *
src_caps_given_upstream (const gchar * factory, const gchar * upstream,
    const gchar * filter)
{
  GstElement *bin = gst_bin_new (NULL), *cf = make ("capsfilter");
  GstElement *e = make (factory);
  GstCaps *caps = gst_caps_from_string (upstream), *fcaps = NULL, *ret;
  GstPad *pad;

  fail_unless (caps != NULL, "bad caps %s", upstream);
  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (bin), cf, e, NULL);
  fail_unless (gst_element_link (cf, e), "cannot link %s to %s", upstream,
      factory);
  if (filter)
    fcaps = gst_caps_from_string (filter);
  pad = gst_element_get_static_pad (e, "src");
  ret = gst_pad_query_caps (pad, fcaps);
  gst_object_unref (pad);
  if (fcaps)
    gst_caps_unref (fcaps);
  gst_object_unref (bin);
  GST_INFO ("%s given upstream %s, filter %s: %" GST_PTR_FORMAT, factory,
      upstream, filter, ret);
  return ret;
}

/* @factory's src linked to a capsfilter of @downstream; returns the caps
 * query answer of @factory's sink pad. */
static GstCaps *
sink_caps_given_downstream (const gchar * factory, const gchar * downstream)
{
  GstElement *bin = gst_bin_new (NULL), *cf = make ("capsfilter");
  GstElement *e = make (factory);
  GstCaps *caps = gst_caps_from_string (downstream), *ret;
  GstPad *pad;

  fail_unless (caps != NULL, "bad caps %s", downstream);
  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (bin), e, cf, NULL);
  fail_unless (gst_element_link (e, cf), "cannot link %s to %s", factory,
      downstream);
  pad = gst_element_get_static_pad (e, "sink");
  ret = gst_pad_query_caps (pad, NULL);
  gst_object_unref (pad);
  gst_object_unref (bin);
  GST_INFO ("%s given downstream %s: %" GST_PTR_FORMAT, factory, downstream,
      ret);
  return ret;
}

/* Links a capsfilter of @caps_str to @factory's sink (@upstream) or its src
 * to one, with caps checks */
static GstPadLinkReturn
link_caps (const gchar * caps_str, const gchar * factory, gboolean upstream)
{
  GstElement *bin = gst_bin_new (NULL), *cf = make ("capsfilter");
  GstElement *e = make (factory);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstPad *src, *sink;
  GstPadLinkReturn ret;

  fail_unless (caps != NULL, "bad caps %s", caps_str);
  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (bin), cf, e, NULL);
  src = gst_element_get_static_pad (upstream ? cf : e, "src");
  sink = gst_element_get_static_pad (upstream ? e : cf, "sink");
  ret = gst_pad_link (src, sink);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (bin);
  return ret;
}

static void
assert_caps_equal_str (GstCaps * caps, const gchar * want)
{
  GstCaps *w = gst_caps_from_string (want);

  fail_unless (w != NULL, "bad caps %s", want);
  fail_unless (gst_caps_is_equal (caps, w), "got %" GST_PTR_FORMAT
      ", want %" GST_PTR_FORMAT, caps, w);
  gst_caps_unref (w);
}

static gboolean
accepts (const gchar * factory, const gchar * pad, const gchar * caps_str)
{
  GstElement *e = make (factory);
  GstPad *p = gst_element_get_static_pad (e, pad);
  GstCaps *caps = gst_caps_from_string (caps_str);
  gboolean ret;

  fail_unless (caps != NULL, "bad caps %s", caps_str);
  ret = gst_pad_query_accept_caps (p, caps);
  gst_caps_unref (caps);
  gst_object_unref (p);
  gst_object_unref (e);
  return ret;
}

/* What a bus held after a state change */
typedef struct
{
  guint errors;
  guint warnings;
  guint need_context;
  guint eos;
  GError *error;                /* the first error */
  gchar *debug;
  gchar *error_src;             /* type name of its source */
  gint flow_return;             /* its "flow-return" detail, or 1 */
} BusReport;

static void
bus_report_add (BusReport * r, GstMessage * msg)
{
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      if (r->errors++ == 0) {
        const GstStructure *details = NULL;

        gst_message_parse_error (msg, &r->error, &r->debug);
        r->error_src = g_strdup (G_OBJECT_TYPE_NAME (GST_MESSAGE_SRC (msg)));
        r->flow_return = 1;
        gst_message_parse_error_details (msg, &details);
        if (details)
          gst_structure_get_int (details, "flow-return", &r->flow_return);
        g_print ("error from %s (%s): %s\n  %s\n",
            GST_MESSAGE_SRC_NAME (msg), r->error_src, r->error->message,
            r->debug ? r->debug : "");
      }
      break;
    case GST_MESSAGE_WARNING:
      r->warnings++;
      break;
    case GST_MESSAGE_EOS:
      r->eos++;
      break;
    case GST_MESSAGE_NEED_CONTEXT:{
      const gchar *type = NULL;

      if (gst_message_parse_context_type (msg, &type)
          && g_strcmp0 (type, GST_CUDA_FX_CONTEXT_TYPE) == 0)
        r->need_context++;
      break;
    }
    default:
      break;
  }
}

/* Takes every message the bus holds now */
static void
bus_report_drain (BusReport * r, GstBus * bus)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus))) {
    bus_report_add (r, msg);
    gst_message_unref (msg);
  }
}

/* Waits up to @timeout for EOS or an error, then takes the rest */
static void
bus_report_wait (BusReport * r, GstBus * bus, GstClockTime timeout)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, timeout,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  if (msg) {
    bus_report_add (r, msg);
    gst_message_unref (msg);
  }
  bus_report_drain (r, bus);
}

static void
bus_report_clear (BusReport * r)
{
  g_clear_error (&r->error);
  g_free (r->debug);
  g_free (r->error_src);
  memset (r, 0, sizeof (*r));
}

static gboolean
names_missing_gpu (const gchar * message)
{
  return strstr (message, "CUDA") && (strstr (message, "driver")
      || strstr (message, "device"));
}

static GstElement *
parse (const gchar * desc)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch (desc, &error);

  fail_unless (p != NULL && error == NULL, "%s: %s", desc,
      error ? error->message : "?");
  return p;
}

/* ---- registration and names ----------------------------------------- */

/* DLPack export of what is not device memory, or of a component the
 * format lacks: NULL and an error saying which (no GPU needed) */
GST_START_TEST (test_dlpack_export_refusals)
{
  GstVideoInfo info;
  GstBuffer *sysbuf;
  GError *error = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  sysbuf = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_cuda_fx_buffer_export_dlpack (sysbuf, &info, 0, NULL,
          &error) == NULL);
  fail_unless (error != NULL && strstr (error->message, "device memory"),
      "%s", error ? error->message : "no error");
  g_clear_error (&error);
  fail_unless (gst_cuda_fx_buffer_export_dlpack (sysbuf, &info, 3, NULL,
          &error) == NULL);
  fail_unless (error != NULL && strstr (error->message, "no component 3"),
      "%s", error ? error->message : "no error");
  g_clear_error (&error);
  gst_buffer_unref (sysbuf);
}

GST_END_TEST;

GST_START_TEST (test_registration)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "cudafx");
  gchar **names;
  guint i, j;

  fail_unless (plugin != NULL, "plugin cudafx is not in the registry");
  fail_unless (gst_plugin_is_loaded (plugin));
  gst_object_unref (plugin);

  for (i = 0; required_elements[i]; i++) {
    GstElementFactory *f = gst_element_factory_find (required_elements[i]);

    fail_unless (f != NULL, "%s is not registered", required_elements[i]);
    fail_unless_equals_string (gst_plugin_feature_get_plugin_name
        (GST_PLUGIN_FEATURE (f)), "cudafx");
    gst_object_unref (f);
  }

  /* every element of the plugin is one we know of, and each is a
   * GstCudaFxFilter named GstCudaFx* */
  names = plugin_element_names ();
  fail_unless (g_strv_length (names) >= g_strv_length ((gchar **)
          required_elements));
  for (i = 0; names[i]; i++) {
    GType type = factory_type (names[i]);
    GstElement *e;

    g_print ("%-16s %s\n", names[i], g_type_name (type));
    fail_unless (g_strv_contains (required_elements, names[i])
        || g_strv_contains (optional_elements, names[i]),
        "unexpected element %s", names[i]);
    fail_unless (g_str_has_prefix (g_type_name (type), "GstCudaFx"),
        "%s is %s", names[i], g_type_name (type));
    fail_unless (g_type_is_a (type, GST_TYPE_CUDA_FX_FILTER), "%s", names[i]);
    e = make (names[i]);
    fail_unless (G_OBJECT_TYPE (e) == type);
    gst_object_unref (e);
  }
  for (i = 0; optional_elements[i]; i++)
    g_print ("%-16s %s\n", optional_elements[i],
        g_strv_contains ((const gchar * const *) names, optional_elements[i])
        ? "registered" : "not registered yet");

  /* aliases are the same types; different elements different types */
  fail_unless (factory_type ("cudaupload") == factory_type ("cudafxupload"));
  fail_unless (factory_type ("cudadownload") ==
      factory_type ("cudafxdownload"));
  fail_unless_equals_string (g_type_name (factory_type ("cudafxupload")),
      "GstCudaFxUpload");
  fail_unless_equals_string (g_type_name (factory_type ("cudafxdownload")),
      "GstCudaFxDownload");
  fail_unless_equals_string (g_type_name (factory_type ("cudaluma")),
      "GstCudaFxLuma");
  for (i = 0; names[i]; i++)
    for (j = i + 1; names[j]; j++) {
      gboolean alias_pair = (g_str_has_suffix (names[i], "upload")
          && g_str_has_suffix (names[j], "upload"))
          || (g_str_has_suffix (names[i], "download")
          && g_str_has_suffix (names[j], "download"));
      if (!alias_pair)
        fail_if (factory_type (names[i]) == factory_type (names[j]),
            "%s and %s share a type", names[i], names[j]);
    }
  g_strfreev (names);
}

GST_END_TEST;

GST_START_TEST (test_names_differ_from_nvcodec)
{
  GType ours[] = { GST_TYPE_CUDA_FX_CONTEXT, GST_TYPE_CUDA_FX_ALLOCATOR,
    GST_TYPE_CUDA_FX_BUFFER_POOL, GST_TYPE_CUDA_FX_HOST_ALLOCATOR,
    GST_TYPE_CUDA_FX_FILTER, factory_type ("cudafxupload"),
    factory_type ("cudafxdownload"), factory_type ("cudaluma")
  };
  GstAllocator *alloc, *found;
  gchar **names;
  guint i;

  /* nvcodec is not loaded here: none of its type names exists, so none
   * of ours took one */
  for (i = 0; nvcodec_type_names[i]; i++)
    fail_unless_equals_int (g_type_from_name (nvcodec_type_names[i]), 0);
  for (i = 0; i < G_N_ELEMENTS (ours); i++) {
    const gchar *name = g_type_name (ours[i]);

    fail_unless (g_str_has_prefix (name, "GstCudaFx"), "type %s", name);
    fail_unless (g_type_from_name (name) == ours[i]);
    fail_if (g_strv_contains (nvcodec_type_names, name));
  }
  names = plugin_element_names ();
  for (i = 0; names[i]; i++)
    fail_unless (g_str_has_prefix (g_type_name (factory_type (names[i])),
            "GstCudaFx"));

  /* context type, caps feature and allocator names are ours */
  fail_unless_equals_string (GST_CUDA_FX_CONTEXT_TYPE, "gst.cudafx.context");
  fail_unless_equals_string (GST_CAPS_FEATURE_MEMORY_CUDA_FX,
      "memory:CUDAFxMemory");
  fail_if (g_strcmp0 (GST_CUDA_FX_CONTEXT_TYPE, NVCODEC_CONTEXT_TYPE) == 0);
  fail_if (g_strcmp0 (GST_CAPS_FEATURE_MEMORY_CUDA_FX,
          NVCODEC_CAPS_FEATURE) == 0);

  alloc = gst_cuda_fx_allocator_get ();
  found = gst_allocator_find (GST_CUDA_FX_MEMORY_NAME);
  fail_unless (found == alloc);
  fail_unless_equals_string (found->mem_type, GST_CUDA_FX_MEMORY_NAME);
  gst_object_unref (found);
  gst_object_unref (alloc);
  alloc = gst_cuda_fx_host_allocator_get ();
  found = gst_allocator_find (GST_CUDA_FX_HOST_MEMORY_NAME);
  fail_unless (found == alloc);
  gst_object_unref (found);
  gst_object_unref (alloc);
  fail_if (g_strcmp0 (GST_CUDA_FX_MEMORY_NAME, NVCODEC_MEMORY_NAME) == 0);
  fail_if (g_strcmp0 (GST_CUDA_FX_HOST_MEMORY_NAME, NVCODEC_MEMORY_NAME) == 0);
  fail_unless (gst_allocator_find (NVCODEC_MEMORY_NAME) == NULL);

  /* no template of ours mentions nvcodec's memory */
  for (i = 0; names[i]; i++) {
    GstCaps *sink = template_caps (names[i], "sink");
    GstCaps *src = template_caps (names[i], "src");
    gchar *fs = caps_features (sink), *fd = caps_features (src);

    fail_if (strstr (fs, NVCODEC_CAPS_FEATURE) != NULL, "%s", names[i]);
    fail_if (strstr (fd, NVCODEC_CAPS_FEATURE) != NULL, "%s", names[i]);
    g_free (fs);
    g_free (fd);
    gst_caps_unref (sink);
    gst_caps_unref (src);
  }
  g_strfreev (names);
}

GST_END_TEST;

/* ---- metadata, properties, templates --------------------------------- */

GST_START_TEST (test_metadata_and_properties)
{
  gchar **names = plugin_element_names ();
  guint i, p;

  for (i = 0; names[i]; i++) {
    GstElement *e = make (names[i]);
    GstElementClass *klass = GST_ELEMENT_GET_CLASS (e);
    const gchar *keys[] = { GST_ELEMENT_METADATA_LONGNAME,
      GST_ELEMENT_METADATA_KLASS, GST_ELEMENT_METADATA_DESCRIPTION,
      GST_ELEMENT_METADATA_AUTHOR
    };
    GParamSpec **props;
    guint n_props, k;

    for (k = 0; k < G_N_ELEMENTS (keys); k++) {
      const gchar *v = gst_element_class_get_metadata (klass, keys[k]);
      fail_unless (v != NULL && *v != '\0', "%s has no %s", names[i], keys[k]);
    }
    fail_unless (strstr (gst_element_class_get_metadata (klass,
                GST_ELEMENT_METADATA_KLASS), "Video") != NULL, "%s", names[i]);

    props = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n_props);
    for (p = 0; p < n_props; p++) {
      GParamSpec *ps = props[p];
      const gchar *blurb = g_param_spec_get_blurb (ps);

      fail_unless (blurb != NULL && *blurb != '\0', "%s::%s has no blurb",
          names[i], ps->name);
      fail_unless (g_param_spec_get_nick (ps) != NULL);

      if (!g_str_has_prefix (g_type_name (ps->owner_type), "GstCudaFx"))
        continue;
      /* ours: documented when they may change, and read back their
       * documented default on a new element */
      if (ps->flags & G_PARAM_WRITABLE)
        fail_unless (ps->flags & (GST_PARAM_MUTABLE_READY |
                GST_PARAM_MUTABLE_PAUSED | GST_PARAM_MUTABLE_PLAYING),
            "%s::%s has no GST_PARAM_MUTABLE_* flag", names[i], ps->name);
      if (ps->flags & G_PARAM_READABLE) {
        GValue v = G_VALUE_INIT;

        g_value_init (&v, ps->value_type);
        g_object_get_property (G_OBJECT (e), ps->name, &v);
        fail_unless (g_param_value_defaults (ps, &v),
            "%s::%s does not start at its default", names[i], ps->name);
        g_value_unset (&v);
      }
    }
    g_free (props);
    gst_object_unref (e);
  }
  g_strfreev (names);
}

GST_END_TEST;

GST_START_TEST (test_pad_templates)
{
  gchar *all = expected_formats ();
  const gchar *both = GST_CAPS_FEATURE_MEMORY_CUDA_FX ","
      GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY;
  gchar **names, **carried;
  guint i;

  fail_unless_equals_string (all, "GRAY8,I420,NV12,UYVY,Y42B,Y444,YUY2,YV12");

  /* the copies also carry the 10 to 16-bit formats, and v210 in system
   * memory (I422_10LE on the device side) */
  check_template ("cudafxupload", "sink", both, TRANSFER_FORMATS,
      SYSTEM_FORMATS);
  check_template ("cudafxupload", "src", GST_CAPS_FEATURE_MEMORY_CUDA_FX,
      TRANSFER_FORMATS, NULL);
  check_template ("cudafxdownload", "sink", both, TRANSFER_FORMATS,
      SYSTEM_FORMATS);
  check_template ("cudafxdownload", "src",
      GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY, NULL, SYSTEM_FORMATS);
  check_template ("cudaluma", "sink", GST_CAPS_FEATURE_MEMORY_CUDA_FX,
      TRANSFER_FORMATS, NULL);
  check_template ("cudaluma", "src", GST_CAPS_FEATURE_MEMORY_CUDA_FX,
      "GRAY16_LE,GRAY8", NULL);

  /* every element: device memory in and out (the two copy elements aside),
   * formats among what the copies carry */
  carried = g_strsplit (TRANSFER_FORMATS, ",", -1);
  names = plugin_element_names ();
  for (i = 0; names[i]; i++) {
    const gchar *pads[] = { "sink", "src" };
    guint p;

    if (g_str_has_suffix (names[i], "upload")
        || g_str_has_suffix (names[i], "download"))
      continue;
    for (p = 0; p < 2; p++) {
      GstCaps *caps = template_caps (names[i], pads[p]);
      gchar *f = caps_features (caps), *fmts = caps_formats (caps,
          GST_CAPS_FEATURE_MEMORY_CUDA_FX);
      gchar **fmt = g_strsplit (fmts, ",", -1);
      guint k;

      fail_unless_equals_string (f, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
      fail_unless (fmts[0] != '\0', "%s %s: no formats", names[i], pads[p]);
      for (k = 0; fmt[k]; k++)
        fail_unless (g_strv_contains ((const gchar * const *) carried,
                fmt[k]), "%s %s: format %s",
            names[i], pads[p], fmt[k]);
      g_strfreev (fmt);
      g_free (fmts);
      g_free (f);
      gst_caps_unref (caps);
    }
  }
  g_strfreev (names);
  g_strfreev (carried);
  g_free (all);
}

GST_END_TEST;

/* ---- caps queries and accept-caps in NULL state ---------------------- */

GST_START_TEST (test_upload_caps)
{
  GstCaps *caps;
  gchar *f, *all = expected_formats ();

  /* unlinked, filtered: only device memory comes out */
  caps = src_caps_given_upstream ("cudafxupload", "video/x-raw",
      CUDAFX_CAPS ("format=UYVY"));
  fail_if (gst_caps_is_empty (caps));
  f = caps_features (caps);
  fail_unless_equals_string (f, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  g_free (f);
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, "UYVY");
  g_free (f);
  gst_caps_unref (caps);

  caps = src_caps_given_upstream ("cudafxupload", "video/x-raw",
      "video/x-raw,format=UYVY");
  fail_unless (gst_caps_is_empty (caps), "system memory out of upload: %"
      GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  /* unfiltered and unconstrained: the template's device caps */
  caps = src_caps_given_upstream ("cudafxupload", "video/x-raw", NULL);
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, TRANSFER_FORMATS);
  g_free (f);
  gst_caps_unref (caps);

  /* v210 is unpacked: I422_10LE on the device, the rest as it was */
  caps = src_caps_given_upstream ("cudafxupload", "video/x-raw,format=v210,"
      "width=1920,height=1080,framerate=25/1,interlace-mode=interleaved",
      NULL);
  assert_caps_equal_str (caps, CUDAFX_CAPS ("format=I422_10LE,width=1920,"
          "height=1080,framerate=25/1,interlace-mode=interleaved"));
  gst_caps_unref (caps);
  caps = src_caps_given_upstream ("cudafxupload", "video/x-raw,"
      "format={ v210, P010_10LE },width=64,height=48", NULL);
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, "I422_10LE,P010_10LE");
  g_free (f);
  gst_caps_unref (caps);

  /* system memory I420 becomes the same caps in device memory */
  caps = src_caps_given_upstream ("cudafxupload", "video/x-raw,format=I420,"
      "width=320,height=240,framerate=25/1,pixel-aspect-ratio=1/1,"
      "interlace-mode=interleaved,field-order=top-field-first", NULL);
  assert_caps_equal_str (caps, CUDAFX_CAPS ("format=I420,width=320,"
          "height=240,framerate=25/1,pixel-aspect-ratio=1/1,"
          "interlace-mode=interleaved,field-order=top-field-first"));
  gst_caps_unref (caps);

  /* device memory passes through */
  caps = src_caps_given_upstream ("cudafxupload", CUDAFX_CAPS ("format=NV12,"
          "width=1921,height=1081,framerate=30000/1001,"
          "interlace-mode=mixed"), NULL);
  assert_caps_equal_str (caps, CUDAFX_CAPS ("format=NV12,width=1921,"
          "height=1081,framerate=30000/1001,interlace-mode=mixed"));
  gst_caps_unref (caps);

  /* downstream wants device NV12: upstream may give system or device
   * NV12 */
  caps = sink_caps_given_downstream ("cudafxupload",
      CUDAFX_CAPS ("format=NV12,width=64,height=48"));
  f = caps_features (caps);
  fail_unless_equals_string (f, GST_CAPS_FEATURE_MEMORY_CUDA_FX ","
      GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY);
  g_free (f);
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY);
  fail_unless_equals_string (f, "NV12");
  g_free (f);
  gst_caps_unref (caps);

  /* accept-caps */
  fail_unless (accepts ("cudafxupload", "sink", "video/x-raw,format=I420,"
          "width=320,height=240,framerate=25/1"));
  fail_unless (accepts ("cudafxupload", "sink", CUDAFX_CAPS ("format=I420,"
              "width=320,height=240,framerate=25/1")));
  fail_unless (accepts ("cudafxupload", "sink", "video/x-raw,format=GRAY8,"
          "width=1,height=1,framerate=0/1"));
  fail_if (accepts ("cudafxupload", "sink", "video/x-raw,format=RGBA,"
          "width=320,height=240,framerate=25/1"));
  fail_if (accepts ("cudafxupload", "sink", CUDAFX_CAPS ("format=RGBA,"
              "width=320,height=240,framerate=25/1")));
  fail_if (accepts ("cudafxupload", "sink", "video/x-raw,format=I420,"
          "height=240,framerate=25/1"), "caps without width accepted");
  fail_if (accepts ("cudafxupload", "sink", "video/x-raw,format=I420,"
          "width=0,height=240,framerate=25/1"));
  fail_if (accepts ("cudafxupload", "sink", "audio/x-raw,format=S16LE,"
          "rate=48000,channels=2,layout=interleaved"));
  fail_if (accepts ("cudafxupload", "sink",
          "video/x-raw(" NVCODEC_CAPS_FEATURE "),format=I420,width=320,"
          "height=240,framerate=25/1"), "nvcodec's memory accepted");
  fail_if (accepts ("cudafxupload", "src", "video/x-raw,format=I420,"
          "width=320,height=240,framerate=25/1"));
  fail_unless (accepts ("cudafxupload", "src", CUDAFX_CAPS ("format=I420,"
              "width=320,height=240,framerate=25/1")));
  g_free (all);
}

GST_END_TEST;

GST_START_TEST (test_download_caps)
{
  GstCaps *caps;
  gchar *f;

  /* device I420 becomes the same caps in system memory */
  caps = src_caps_given_upstream ("cudafxdownload", CUDAFX_CAPS
      ("format=I420,width=320,height=240,framerate=25/1,"
          "interlace-mode=interleaved"), NULL);
  assert_caps_equal_str (caps, "video/x-raw,format=I420,width=320,"
      "height=240,framerate=25/1,interlace-mode=interleaved");
  gst_caps_unref (caps);

  /* device I422_10LE may also leave as v210 (packed on the GPU) */
  caps = src_caps_given_upstream ("cudafxdownload", CUDAFX_CAPS
      ("format=I422_10LE,width=720,height=576,framerate=25/1"), NULL);
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY);
  fail_unless_equals_string (f, "I422_10LE,v210");
  g_free (f);
  gst_caps_unref (caps);
  caps = sink_caps_given_downstream ("cudafxdownload", "video/x-raw,"
      "format=v210,width=64,height=48");
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, "I422_10LE");
  g_free (f);
  gst_caps_unref (caps);

  /* system memory passes through */
  caps = src_caps_given_upstream ("cudafxdownload", "video/x-raw,"
      "format=YUY2,width=33,height=17,framerate=50/1", NULL);
  assert_caps_equal_str (caps, "video/x-raw,format=YUY2,width=33,height=17,"
      "framerate=50/1");
  gst_caps_unref (caps);

  caps = src_caps_given_upstream ("cudafxdownload", "video/x-raw",
      CUDAFX_CAPS ("format=UYVY"));
  fail_unless (gst_caps_is_empty (caps), "device memory out of download: %"
      GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  /* downstream wants system Y444: device or system Y444 in */
  caps = sink_caps_given_downstream ("cudafxdownload", "video/x-raw,"
      "format=Y444,width=64,height=48");
  f = caps_features (caps);
  fail_unless_equals_string (f, GST_CAPS_FEATURE_MEMORY_CUDA_FX ","
      GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY);
  g_free (f);
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, "Y444");
  g_free (f);
  gst_caps_unref (caps);

  fail_unless (accepts ("cudafxdownload", "sink", CUDAFX_CAPS ("format=NV12,"
              "width=320,height=240,framerate=25/1")));
  fail_unless (accepts ("cudafxdownload", "sink", "video/x-raw,format=NV12,"
          "width=320,height=240,framerate=25/1"));
  fail_if (accepts ("cudafxdownload", "sink", CUDAFX_CAPS ("format=RGBA,"
              "width=320,height=240,framerate=25/1")));
  fail_if (accepts ("cudafxdownload", "src", CUDAFX_CAPS ("format=NV12,"
              "width=320,height=240,framerate=25/1")));
}

GST_END_TEST;

GST_START_TEST (test_luma_caps)
{
  GstCaps *caps;
  gchar *f, *all = expected_formats ();

  /* UYVY in, GRAY8 out: same size, rate, aspect and interlacing */
  caps = src_caps_given_upstream ("cudaluma", CUDAFX_CAPS ("format=UYVY,"
          "width=1920,height=1080,framerate=30000/1001,"
          "pixel-aspect-ratio=1/1,interlace-mode=interleaved,"
          "field-order=top-field-first,chroma-site=mpeg2"), NULL);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  assert_caps_equal_str (caps, CUDAFX_CAPS ("format=GRAY8,width=1920,"
          "height=1080,framerate=30000/1001,pixel-aspect-ratio=1/1,"
          "interlace-mode=interleaved,field-order=top-field-first"));
  gst_caps_unref (caps);

  caps = src_caps_given_upstream ("cudaluma", CUDAFX_CAPS ("format=I420,"
          "width=33,height=17,framerate=25/1,interlace-mode=mixed"), NULL);
  assert_caps_equal_str (caps, CUDAFX_CAPS ("format=GRAY8,width=33,"
          "height=17,framerate=25/1,interlace-mode=mixed"));
  gst_caps_unref (caps);

  /* 10 to 16 bits in: GRAY16_LE out */
  caps = src_caps_given_upstream ("cudaluma", CUDAFX_CAPS ("format=P010_10LE,"
          "width=33,height=17,framerate=25/1"), NULL);
  assert_caps_equal_str (caps, CUDAFX_CAPS ("format=GRAY16_LE,width=33,"
          "height=17,framerate=25/1"));
  gst_caps_unref (caps);
  caps = sink_caps_given_downstream ("cudaluma", CUDAFX_CAPS
      ("format=GRAY16_LE,width=64,height=48"));
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, "GRAY16_LE,I420_10LE,I420_12LE,I422_10LE,"
      "I422_12LE,P010_10LE,P012_LE,P016_LE,Y444_10LE,Y444_12LE,Y444_16LE");
  g_free (f);
  gst_caps_unref (caps);

  /* only device memory: system memory does not even link */
  fail_unless_equals_int (link_caps ("video/x-raw,format=UYVY,width=64,"
          "height=48,framerate=25/1", "cudaluma", TRUE), GST_PAD_LINK_NOFORMAT);
  fail_unless_equals_int (link_caps (CUDAFX_CAPS ("format=UYVY,width=64,"
              "height=48,framerate=25/1"), "cudaluma", TRUE), GST_PAD_LINK_OK);

  /* GRAY8 downstream: any of our formats upstream, same size */
  caps = sink_caps_given_downstream ("cudaluma", CUDAFX_CAPS ("format=GRAY8,"
          "width=640,height=480"));
  f = caps_formats (caps, GST_CAPS_FEATURE_MEMORY_CUDA_FX);
  fail_unless_equals_string (f, all);
  g_free (f);
  {
    GstStructure *s = gst_caps_get_structure (caps, 0);
    gint w = 0, h = 0;

    fail_unless (gst_structure_get_int (s, "width", &w));
    fail_unless (gst_structure_get_int (s, "height", &h));
    fail_unless_equals_int (w, 640);
    fail_unless_equals_int (h, 480);
  }
  gst_caps_unref (caps);

  /* anything but GRAY8 downstream cannot be made */
  fail_unless_equals_int (link_caps (CUDAFX_CAPS ("format=UYVY,width=640,"
              "height=480"), "cudaluma", FALSE), GST_PAD_LINK_NOFORMAT);
  fail_unless_equals_int (link_caps ("video/x-raw,format=GRAY8,width=640,"
          "height=480", "cudaluma", FALSE), GST_PAD_LINK_NOFORMAT);

  fail_unless (accepts ("cudaluma", "sink", CUDAFX_CAPS ("format=YUY2,"
              "width=320,height=240,framerate=25/1")));
  fail_if (accepts ("cudaluma", "sink", "video/x-raw,format=YUY2,"
          "width=320,height=240,framerate=25/1"));
  fail_unless (accepts ("cudaluma", "src", CUDAFX_CAPS ("format=GRAY8,"
              "width=320,height=240,framerate=25/1")));
  fail_if (accepts ("cudaluma", "src", CUDAFX_CAPS ("format=UYVY,"
              "width=320,height=240,framerate=25/1")));
  g_free (all);
}

GST_END_TEST;

/* ---- device-id and failing without a GPU ------------------------------ */

GST_START_TEST (test_device_id_property)
{
  gchar **names = plugin_element_names ();
  guint i;

  for (i = 0; names[i]; i++) {
    GstElement *e = make (names[i]);
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        "device-id");
    GParamSpecInt *pi;
    gint id = 42;

    fail_unless (ps != NULL, "%s has no device-id", names[i]);
    fail_unless (G_IS_PARAM_SPEC_INT (ps));
    pi = G_PARAM_SPEC_INT (ps);
    fail_unless_equals_int (pi->default_value, -1);
    fail_unless_equals_int (pi->minimum, -1);
    fail_unless_equals_int (pi->maximum, G_MAXINT);
    fail_unless ((ps->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
    fail_unless (ps->flags & GST_PARAM_MUTABLE_READY);

    g_object_get (e, "device-id", &id, NULL);
    fail_unless_equals_int (id, -1);
    g_object_set (e, "device-id", 3, NULL);
    g_object_get (e, "device-id", &id, NULL);
    fail_unless_equals_int (id, 3);
    g_object_set (e, "device-id", G_MAXINT, NULL);
    g_object_get (e, "device-id", &id, NULL);
    fail_unless_equals_int (id, G_MAXINT);
    gst_object_unref (e);
  }
  g_strfreev (names);
}

GST_END_TEST;

/* The pipeline of the issue: without a GPU it fails at PAUSED with one
 * error naming the cause; with one it runs, and device-id=999 fails with
 * one error naming the device. */
GST_START_TEST (test_pipeline_start)
{
  const gchar *desc = "videotestsrc num-buffers=1 ! cudafxupload name=up "
      "! cudafxdownload name=down ! fakesink";
  GstElement *pipeline = parse (desc);
  GstBus *bus = gst_element_get_bus (pipeline);
  BusReport r = { 0 };
  guint attempt;

  if (!have_gpu) {
    /* twice: a failed start leaves nothing behind that breaks a retry */
    for (attempt = 0; attempt < 2; attempt++) {
      fail_unless_equals_int (gst_element_set_state (pipeline,
              attempt ? GST_STATE_PLAYING : GST_STATE_PAUSED),
          GST_STATE_CHANGE_FAILURE);
      bus_report_drain (&r, bus);
      fail_unless_equals_int (r.errors, 1);
      fail_unless (g_error_matches (r.error, GST_RESOURCE_ERROR,
              GST_RESOURCE_ERROR_NOT_FOUND), "%s", r.error->message);
      fail_unless (names_missing_gpu (r.error->message), "%s",
          r.error->message);
      fail_unless (g_str_has_prefix (r.error_src, "GstCudaFx"), "%s",
          r.error_src);
      fail_unless (r.debug && strstr (r.debug, "device-id=-1"), "%s", r.debug);
      /* it asked the application for a context before giving up */
      fail_unless (r.need_context >= 1);
      fail_unless_equals_int (r.eos, 0);
      fail_unless_equals_int (gst_element_set_state (pipeline,
              GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
      bus_report_clear (&r);
    }
  } else {
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    bus_report_wait (&r, bus, 60 * GST_SECOND);
    fail_unless_equals_int (r.errors, 0);
    fail_unless_equals_int (r.eos, 1);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    bus_report_clear (&r);

    {
      GstElement *up = gst_bin_get_by_name (GST_BIN (pipeline), "up");

      g_object_set (up, "device-id", 999, NULL);
      gst_object_unref (up);
    }
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    bus_report_drain (&r, bus);
    fail_unless_equals_int (r.errors, 1);
    fail_unless (strstr (r.error->message, "CUDA device") &&
        strstr (r.error->message, "999"), "%s", r.error->message);
    fail_unless_equals_string (r.error_src, "GstCudaFxUpload");
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    bus_report_clear (&r);
  }

  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
  ASSERT_OBJECT_REFCOUNT (pipeline, "pipeline", 1);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Every element alone, started: without a GPU one clear error each; with
 * one it starts, and an absent device fails naming it. */
GST_START_TEST (test_each_element_start)
{
  gchar **names = plugin_element_names ();
  guint i;

  for (i = 0; names[i]; i++) {
    GstElement *e = make (names[i]);
    GstBus *bus = gst_bus_new ();
    BusReport r = { 0 };

    gst_element_set_bus (e, bus);
    if (!have_gpu) {
      fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
          GST_STATE_CHANGE_FAILURE);
      bus_report_drain (&r, bus);
      fail_unless_equals_int (r.errors, 1);
      fail_unless (names_missing_gpu (r.error->message), "%s: %s", names[i],
          r.error->message);
      fail_unless_equals_string (r.error_src, G_OBJECT_TYPE_NAME (e));
    } else {
      fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
          GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
          GST_STATE_CHANGE_SUCCESS);
      bus_report_drain (&r, bus);
      fail_unless_equals_int (r.errors, 0);
      bus_report_clear (&r);

      g_object_set (e, "device-id", 999, NULL);
      fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
          GST_STATE_CHANGE_FAILURE);
      bus_report_drain (&r, bus);
      fail_unless_equals_int (r.errors, 1);
      fail_unless (strstr (r.error->message, "999") != NULL, "%s: %s",
          names[i], r.error->message);
    }
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    bus_report_clear (&r);
    gst_element_set_bus (e, NULL);
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
    ASSERT_OBJECT_REFCOUNT (e, names[i], 1);
    gst_object_unref (e);
  }
  g_strfreev (names);
}

GST_END_TEST;

/* RGBA into cudafxupload. Without a GPU, start () fails at READY->PAUSED,
 * before any caps reach the element (negotiation happens once streaming
 * has started), so there the refusal is checked where it happens first:
 * linking, caps queries and accept-caps. With a GPU the pipeline runs and
 * must stop with not-negotiated. */
GST_START_TEST (test_unsupported_format)
{
  GstElement *bin = gst_pipeline_new (NULL);
  GstElement *src = make ("videotestsrc"), *cf = make ("capsfilter");
  GstElement *up = make ("cudafxupload"), *sink = make ("fakesink");
  GstCaps *rgba = gst_caps_from_string ("video/x-raw,format=RGBA,width=64,"
      "height=48,framerate=25/1"), *caps;
  GstPad *cf_src, *up_sink;
  GstBus *bus;
  BusReport r = { 0 };

  g_object_set (src, "num-buffers", 3, NULL);
  g_object_set (cf, "caps", rgba, NULL);
  gst_bin_add_many (GST_BIN (bin), src, cf, up, sink, NULL);
  fail_unless (gst_element_link (src, cf));
  fail_unless (gst_element_link (up, sink));

  cf_src = gst_element_get_static_pad (cf, "src");
  up_sink = gst_element_get_static_pad (up, "sink");
  /* what a caps-checked link, a caps query and accept-caps say */
  fail_unless_equals_int (gst_pad_link (cf_src, up_sink),
      GST_PAD_LINK_NOFORMAT);
  caps = gst_pad_query_caps (up_sink, rgba);
  fail_unless (gst_caps_is_empty (caps), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  fail_if (gst_pad_query_accept_caps (up_sink, rgba));

  /* link without the check and run */
  fail_unless_equals_int (gst_pad_link_full (cf_src, up_sink,
          GST_PAD_LINK_CHECK_NOTHING), GST_PAD_LINK_OK);
  bus = gst_element_get_bus (bin);
  if (!have_gpu) {
    /* start () fails first: the error names the missing GPU, not the
     * format, which no element has seen yet */
    fail_unless_equals_int (gst_element_set_state (bin, GST_STATE_PLAYING),
        GST_STATE_CHANGE_FAILURE);
    bus_report_drain (&r, bus);
    fail_unless_equals_int (r.errors, 1);
    fail_unless (names_missing_gpu (r.error->message), "%s", r.error->message);
    fail_unless_equals_string (r.error_src, "GstCudaFxUpload");
  } else {
    /* negotiation fails cleanly (EOS may follow the error: basesrc sends
     * one downstream when it stops) */
    gst_element_set_state (bin, GST_STATE_PLAYING);
    bus_report_wait (&r, bus, 30 * GST_SECOND);
    fail_unless (r.errors >= 1, "RGBA ran without an error");
    fail_unless (r.flow_return == GST_FLOW_NOT_NEGOTIATED
        || g_error_matches (r.error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION)
        || g_error_matches (r.error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT)
        || (r.debug && strstr (r.debug, "not-negotiated")),
        "not a negotiation error: %s (%s)", r.error->message, r.debug);
  }
  fail_unless_equals_int (gst_element_set_state (bin, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  bus_report_clear (&r);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);

  gst_object_unref (cf_src);
  gst_object_unref (up_sink);
  gst_caps_unref (rgba);
  ASSERT_OBJECT_REFCOUNT (bin, "pipeline", 1);
  gst_object_unref (bin);
}

GST_END_TEST;

/* ---- device layout ---------------------------------------------------- */

/* Rows padded to 256 bytes; no layout where a pitch passes G_MAXINT or a
 * frame reaches 4 GiB (a buffer pool's size is 32 bits), even where
 * GStreamer's own layout of the caps is small */
GST_START_TEST (test_device_layout_limits)
{
  GstVideoInfo info, dev;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 1920,
          1080));
  fail_unless (gst_cuda_fx_video_info_to_device (&info, &dev));
  fail_unless_equals_int (dev.stride[0], 2048);
  fail_unless_equals_int (dev.stride[1], 1024);
  fail_unless_equals_uint64 (dev.offset[1], 2048 * 1080);
  fail_unless_equals_uint64 (dev.size, 2048 * 1080 + 2 * 1024 * 540);

  /* 80 MB in system memory, 5.1 GB pitched */
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 1,
          20000000));
  fail_if (gst_cuda_fx_video_info_to_device (&info, &dev));
  /* just under: 4 GiB - 256 * 16 bytes */
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 1,
          16777200));
  fail_unless (gst_cuda_fx_video_info_to_device (&info, &dev));
  fail_unless_equals_uint64 (dev.size, (guint64) 256 * 16777200);

  /* a row of 2147483600 bytes pitches to 2^31 */
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8,
          2147483600, 1));
  fail_if (gst_cuda_fx_video_info_to_device (&info, &dev));
}

GST_END_TEST;

/* ---- GstContext sharing ---------------------------------------------- */

GST_START_TEST (test_context_get)
{
  GstCudaFxContext *ctx;
  GError *error = NULL;

  ctx = gst_cuda_fx_context_get (-1, &error);
  fail_unless (ctx == NULL);
  fail_unless (g_error_matches (error, GST_CUDA_FX_ERROR,
          GST_CUDA_FX_ERROR_DEVICE_ID));
  g_clear_error (&error);

  /* with a GPU: names the device; without: the device or the real cause */
  ctx = gst_cuda_fx_context_get (999, &error);
  fail_unless (ctx == NULL);
  fail_unless (error != NULL && error->domain == GST_CUDA_FX_ERROR);
  if (have_gpu) {
    fail_unless_equals_int (error->code, GST_CUDA_FX_ERROR_DEVICE_ID);
    fail_unless (strstr (error->message, "999") != NULL, "%s", error->message);
  } else {
    fail_unless (strstr (error->message, "999") != NULL
        || names_missing_gpu (error->message), "%s", error->message);
  }
  g_clear_error (&error);

  ctx = gst_cuda_fx_context_get (0, &error);
  if (!have_gpu) {
    fail_unless (ctx == NULL);
    fail_unless (g_error_matches (error, GST_CUDA_FX_ERROR,
            GST_CUDA_FX_ERROR_NO_DEVICE));
    fail_unless (names_missing_gpu (error->message), "%s", error->message);
    g_clear_error (&error);
  } else {
    GstCudaFxContext *again;

    fail_unless (ctx != NULL && error == NULL);
    fail_unless_equals_int (gst_cuda_fx_context_get_device_id (ctx), 0);
    fail_unless (gst_cuda_fx_context_get_device_name (ctx) != NULL);
    fail_unless (gst_cuda_fx_context_get_sm_count (ctx) > 0);
    /* one per device per process */
    again = gst_cuda_fx_context_get (0, NULL);
    fail_unless (again == ctx);
    gst_object_unref (again);
    gst_object_unref (ctx);
  }
}

GST_END_TEST;

/* A context object for device 0 built without a device: the sharing code
 * only reads its device id (0 in a zeroed object), so the GstContext
 * plumbing can be tested on machines without a GPU. With a GPU, the real
 * one. */
static GstCudaFxContext *
test_context (void)
{
  GstCudaFxContext *ctx;

  if (have_gpu) {
    ctx = gst_cuda_fx_context_get (0, NULL);
    fail_unless (ctx != NULL);
  } else {
    ctx = g_object_new (GST_TYPE_CUDA_FX_CONTEXT, NULL);
    gst_object_ref_sink (ctx);
  }
  fail_unless_equals_int (gst_cuda_fx_context_get_device_id (ctx), 0);
  return ctx;
}

GST_START_TEST (test_context_sharing_functions)
{
  GstCudaFxContext *ctx = test_context (), *got = NULL;
  GstContext *foreign, *empty, *wrong, *ours, *answer = NULL;
  GstElement *e = make ("cudafxupload");
  GstQuery *query;
  const GstStructure *s;
  gint id = -5;

  /* nvcodec's context is not ours */
  foreign = gst_context_new (NVCODEC_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (foreign),
      "cuda-device-id", G_TYPE_UINT, 0, NULL);
  fail_if (gst_context_get_cuda_fx_context (foreign, &got));
  fail_unless (got == NULL);
  /* nor one of our type without (or with a wrong) context field */
  empty = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  fail_if (gst_context_get_cuda_fx_context (empty, &got));
  fail_unless (got == NULL);
  wrong = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (wrong), "context",
      G_TYPE_STRING, "not a context", NULL);
  fail_if (gst_context_get_cuda_fx_context (wrong, &got));
  fail_unless (got == NULL);

  /* ours round-trips, with the device id beside it */
  ours = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_context_set_cuda_fx_context (ours, ctx);
  fail_unless (gst_context_is_persistent (ours));
  fail_unless (gst_context_get_cuda_fx_context (ours, &got));
  fail_unless (got == ctx);
  gst_clear_object (&got);
  fail_unless (gst_structure_get_int (gst_context_get_structure (ours),
          "device-id", &id));
  fail_unless_equals_int (id, 0);

  /* set_context: -1 takes any device, a fixed id only its own */
  fail_if (gst_cuda_fx_handle_set_context (e, NULL, -1, &got));
  fail_if (gst_cuda_fx_handle_set_context (e, foreign, -1, &got));
  fail_if (gst_cuda_fx_handle_set_context (e, empty, -1, &got));
  fail_unless (got == NULL);
  fail_if (gst_cuda_fx_handle_set_context (e, ours, 1, &got));
  fail_unless (got == NULL);
  fail_unless (gst_cuda_fx_handle_set_context (e, ours, 0, &got));
  fail_unless (got == ctx);
  gst_clear_object (&got);
  fail_unless (gst_cuda_fx_handle_set_context (e, ours, -1, &got));
  fail_unless (got == ctx);

  /* context queries: answered only for our type, and only with a context */
  query = gst_query_new_caps (NULL);
  fail_if (gst_cuda_fx_handle_context_query (e, query, ctx));
  gst_query_unref (query);
  query = gst_query_new_context (NVCODEC_CONTEXT_TYPE);
  fail_if (gst_cuda_fx_handle_context_query (e, query, ctx));
  gst_query_parse_context (query, &answer);
  fail_unless (answer == NULL);
  gst_query_unref (query);
  query = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
  fail_if (gst_cuda_fx_handle_context_query (e, query, NULL));
  gst_query_parse_context (query, &answer);
  fail_unless (answer == NULL);
  fail_unless (gst_cuda_fx_handle_context_query (e, query, got));
  gst_query_parse_context (query, &answer);
  fail_unless (answer != NULL);
  fail_unless_equals_string (gst_context_get_context_type (answer),
      GST_CUDA_FX_CONTEXT_TYPE);
  gst_clear_object (&got);
  fail_unless (gst_context_get_cuda_fx_context (answer, &got));
  fail_unless (got == ctx);
  gst_clear_object (&got);
  gst_query_unref (query);

  /* an answer extends a context already in the query */
  query = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
  {
    GstContext *prior = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);

    gst_structure_set (gst_context_writable_structure (prior), "app-field",
        G_TYPE_INT, 7, NULL);
    gst_query_set_context (query, prior);
    gst_context_unref (prior);
  }
  fail_unless (gst_cuda_fx_handle_context_query (e, query, ctx));
  gst_query_parse_context (query, &answer);
  s = gst_context_get_structure (answer);
  fail_unless (gst_structure_get_int (s, "app-field", &id));
  fail_unless_equals_int (id, 7);
  fail_unless (gst_context_get_cuda_fx_context (answer, &got));
  fail_unless (got == ctx);
  gst_clear_object (&got);
  gst_query_unref (query);

  gst_context_unref (foreign);
  gst_context_unref (empty);
  gst_context_unref (wrong);
  gst_context_unref (ours);
  gst_object_unref (e);
  ASSERT_OBJECT_REFCOUNT (ctx, "context", 1);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* Elements in NULL state: they answer context queries only with a context
 * of ours, take one only for their device, and ignore nvcodec's. */
GST_START_TEST (test_element_context)
{
  GstCudaFxContext *ctx = test_context (), *got = NULL;
  GstContext *foreign, *ours;
  gchar **names = plugin_element_names ();
  guint i;

  foreign = gst_context_new (NVCODEC_CONTEXT_TYPE, TRUE);
  ours = gst_context_new (GST_CUDA_FX_CONTEXT_TYPE, TRUE);
  gst_context_set_cuda_fx_context (ours, ctx);

  for (i = 0; names[i]; i++) {
    const gint ids[] = { -1, 0, 1 };
    guint k;

    for (k = 0; k < G_N_ELEMENTS (ids); k++) {
      GstElement *e = make (names[i]);
      GstPad *src = gst_element_get_static_pad (e, "src");
      GstPad *sink = gst_element_get_static_pad (e, "sink");
      GstQuery *q;
      GstContext *answer = NULL;
      gboolean want = ids[k] != 1;      /* device 1 does not take device 0's */

      g_object_set (e, "device-id", ids[k], NULL);
      q = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
      fail_if (gst_pad_query (src, q), "%s answered without a context",
          names[i]);
      gst_query_unref (q);

      gst_element_set_context (e, foreign);
      q = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
      fail_if (gst_pad_query (src, q), "%s took nvcodec's context", names[i]);
      gst_query_unref (q);

      gst_element_set_context (e, ours);
      q = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
      fail_unless_equals_int (gst_pad_query (src, q), want);
      gst_query_unref (q);
      q = gst_query_new_context (GST_CUDA_FX_CONTEXT_TYPE);
      fail_unless_equals_int (gst_pad_query (sink, q), want);
      if (want) {
        gst_query_parse_context (q, &answer);
        fail_unless (gst_context_get_cuda_fx_context (answer, &got));
        fail_unless (got == ctx, "%s device-id=%d", names[i], ids[k]);
        gst_clear_object (&got);
      }
      gst_query_unref (q);

      gst_object_unref (src);
      gst_object_unref (sink);
      gst_object_unref (e);
    }
  }

  g_strfreev (names);
  gst_context_unref (foreign);
  gst_context_unref (ours);
  ASSERT_OBJECT_REFCOUNT (ctx, "context", 1);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* A controlled property takes, before each frame, its value for the
 * frame's stream time (the direct binding maps 0..1 onto the property's
 * range), and keeps its value when the frame has no stream time. No
 * frame is processed: this calls the element's before_transform, which
 * needs no GPU. */
static void
check_controlled (GstElement * e, GParamSpec * ps, gdouble lo, gdouble hi)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (e);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tvcs = (GstTimedValueControlSource *) cs;
  GstBuffer *buf = gst_buffer_new ();
  GValue v = G_VALUE_INIT, start = G_VALUE_INIT;
  const gchar *name = GST_OBJECT_NAME (gst_element_get_factory (e));
  gdouble tol = (hi - lo) * 1e-9;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  gst_timed_value_control_source_set (tvcs, 0, 0.0);
  gst_timed_value_control_source_set (tvcs, 2 * GST_SECOND, 1.0);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (e),
          gst_direct_control_binding_new (GST_OBJECT (e), ps->name, cs)));
  fail_unless (klass->before_transform != NULL, "%s::%s is controllable "
      "but the element never syncs it", name, ps->name);

  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_init (&start, ps->value_type);
  g_object_get_property (G_OBJECT (e), ps->name, &start);

  /* no time segment yet: nothing to sync to */
  GST_BUFFER_PTS (buf) = 3 * GST_SECOND;
  klass->before_transform (trans, buf);
  {
    GValue now = G_VALUE_INIT;

    g_value_init (&now, ps->value_type);
    g_object_get_property (G_OBJECT (e), ps->name, &now);
    fail_unless (g_param_values_cmp (ps, &now, &start) == 0,
        "%s::%s changed without a time segment", name, ps->name);
    g_value_unset (&now);
  }

  /* a segment starting at 10 s of running time, stream time 1 s at its
   * start: the frame at PTS 11 s is at stream time 2 s */
  gst_segment_init (&trans->segment, GST_FORMAT_TIME);
  trans->segment.start = 10 * GST_SECOND;
  trans->segment.time = GST_SECOND;
  GST_BUFFER_PTS (buf) = 11 * GST_SECOND;
  klass->before_transform (trans, buf);
  g_object_get_property (G_OBJECT (e), ps->name, &v);
  fail_unless (fabs (g_value_get_double (&v) - hi) <= tol,
      "%s::%s is %g at stream time 2 s, not %g", name, ps->name,
      g_value_get_double (&v), hi);

  GST_BUFFER_PTS (buf) = 10 * GST_SECOND + GST_SECOND / 2;
  klass->before_transform (trans, buf);
  g_object_get_property (G_OBJECT (e), ps->name, &v);
  fail_unless (fabs (g_value_get_double (&v) - lo) <= tol,
      "%s::%s is %g at stream time 1.5 s, not %g", name, ps->name,
      g_value_get_double (&v), lo);

  /* a frame without a timestamp leaves the value as it is */
  GST_BUFFER_PTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  klass->before_transform (trans, buf);
  g_object_get_property (G_OBJECT (e), ps->name, &v);
  fail_unless (fabs (g_value_get_double (&v) - lo) <= tol,
      "%s::%s changed on a frame without a timestamp", name, ps->name);

  g_value_unset (&v);
  gst_buffer_unref (buf);
  gst_object_unref (cs);
  g_value_unset (&start);
}

GST_START_TEST (test_controlled_properties)
{
  gchar **names = plugin_element_names ();
  guint i, p, checked = 0;

  for (i = 0; names[i]; i++) {
    GstElement *e = make (names[i]);
    GParamSpec **props;
    guint n_props;

    props = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n_props);
    for (p = 0; p < n_props; p++) {
      GParamSpec *ps = props[p];

      if (!(ps->flags & GST_PARAM_CONTROLLABLE))
        continue;
      /* numeric properties: their range gives the expected values */
      if (G_IS_PARAM_SPEC_DOUBLE (ps)) {
        GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (ps);

        check_controlled (e, ps, d->minimum, d->maximum);
        checked++;
      } else if (G_IS_PARAM_SPEC_INT (ps)) {
        GParamSpecInt *n = G_PARAM_SPEC_INT (ps);

        check_controlled (e, ps, n->minimum, n->maximum);
        checked++;
      }
    }
    g_free (props);
    gst_object_unref (e);
  }
  g_strfreev (names);
  /* cudablur's sigma and radius, cudadegrain's strengths and more */
  fail_unless (checked >= 4, "only %u controllable numeric properties",
      checked);
}

GST_END_TEST;

static Suite *
plugin_cpu_suite (void)
{
  Suite *s = suite_create ("cudafx plugin (CPU)");
  TCase *tc = cfx_test_tcase ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registration);
  tcase_add_test (tc, test_dlpack_export_refusals);
  tcase_add_test (tc, test_names_differ_from_nvcodec);
  tcase_add_test (tc, test_metadata_and_properties);
  tcase_add_test (tc, test_controlled_properties);
  tcase_add_test (tc, test_pad_templates);
  tcase_add_test (tc, test_upload_caps);
  tcase_add_test (tc, test_download_caps);
  tcase_add_test (tc, test_luma_caps);
  tcase_add_test (tc, test_device_id_property);
  tcase_add_test (tc, test_pipeline_start);
  tcase_add_test (tc, test_each_element_start);
  tcase_add_test (tc, test_unsupported_format);
  tcase_add_test (tc, test_device_layout_limits);
  tcase_add_test (tc, test_context_get);
  tcase_add_test (tc, test_context_sharing_functions);
  tcase_add_test (tc, test_element_context);
  return s;
}

int
main (int argc, char **argv)
{
  /* the caps, templates and names of our memory alone: with GStreamer's
   * CUDA library loaded they gain its memory, which test-interop-cpu
   * checks */
  g_setenv ("GST_CUDA_FX_NO_INTEROP", "1", TRUE);
  if (!cfx_test_init (&argc, &argv))
    return 1;
  have_gpu = cfx_test_have_gpu ();
  g_print ("plugin-cpu: %s\n", have_gpu ? "GPU present: testing the GPU "
      "branches" : "no GPU: testing the no-GPU branches");
  return cfx_test_run_suite (plugin_cpu_suite ());
}
