/* launch-fps: runs a pipeline given as a gst-launch-1.0 description and
 * says how fast it goes. The first tool most users write around our
 * elements: it shows the frame rate every second on one line and a summary
 * at the end, stops cleanly on Ctrl-C (EOS first) and exits non-zero on an
 * error.
 *
 *   launch-fps "videotestsrc num-buffers=1000 ! cudafxupload ! cudablur sigma=2 ! cudafxdownload ! fakesink"
 *
 * Frames are counted where they leave the pipeline: at the sink pad of its
 * first sink element.
 *
 * Build: cc launch-fps.c -o launch-fps $(pkg-config --cflags --libs gstreamer-1.0)
 */
#include <gst/gst.h>
#include <glib-unix.h>
#include <stdio.h>

typedef struct
{
  GstElement *pipeline;
  GMainLoop *loop;
  gint64 start_us;              /* first frame */
  gint64 last_us;               /* last progress line */
  guint64 last_frames;
  gint frames;                  /* atomic: the streaming thread counts */
  gboolean failed;
  gboolean quiet;
} App;

static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  App *app = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST)
    g_atomic_int_add (&app->frames, gst_buffer_list_length
        (GST_PAD_PROBE_INFO_BUFFER_LIST (info)));
  else
    g_atomic_int_inc (&app->frames);
  if (!app->start_us)
    app->start_us = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* The sink pad of the first element that is a sink */
static GstPad *
find_sink_pad (GstElement * pipeline)
{
  GstIterator *it = gst_bin_iterate_sinks (GST_BIN (pipeline));
  GValue v = G_VALUE_INIT;
  GstPad *pad = NULL;

  if (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *sink = g_value_get_object (&v);

    pad = gst_element_get_static_pad (sink, "sink");
    g_value_unset (&v);
  }
  gst_iterator_free (it);
  return pad;
}

static gboolean
progress (gpointer user_data)
{
  App *app = user_data;
  gint64 now = g_get_monotonic_time ();
  guint64 frames = (guint) g_atomic_int_get (&app->frames);

  if (!app->quiet && app->start_us)
    fprintf (stderr, "\r%" G_GUINT64_FORMAT " frames, %.1f frames/s now, "
        "%.1f on average   ", frames, (frames - app->last_frames) * 1e6 /
        MAX (now - app->last_us, 1), frames * 1e6 / MAX (now -
            app->start_us, 1));
  app->last_us = now;
  app->last_frames = frames;
  return G_SOURCE_CONTINUE;
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:{
      GError *error = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &error, &debug);
      fprintf (stderr, "\nerror from %s: %s\n%s\n", GST_OBJECT_NAME
          (GST_MESSAGE_SRC (msg)), error->message, debug ? debug : "");
      g_clear_error (&error);
      g_free (debug);
      app->failed = TRUE;
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *error = NULL;

      gst_message_parse_warning (msg, &error, NULL);
      fprintf (stderr, "\nwarning from %s: %s\n", GST_OBJECT_NAME
          (GST_MESSAGE_SRC (msg)), error->message);
      g_clear_error (&error);
      break;
    }
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return TRUE;
}

/* Ctrl-C: let the pipeline finish what it has (EOS), once; twice: stop */
static gboolean
on_interrupt (gpointer user_data)
{
  App *app = user_data;
  static gboolean asked;

  if (asked) {
    g_main_loop_quit (app->loop);
    return G_SOURCE_REMOVE;
  }
  asked = TRUE;
  gst_element_send_event (app->pipeline, gst_event_new_eos ());
  return G_SOURCE_CONTINUE;
}

int
main (int argc, char **argv)
{
  App app = { 0 };
  GError *error = NULL;
  GstPad *pad;
  GstBus *bus;
  gchar *description;
  gint64 end;
  guint frames;

  gst_init (&argc, &argv);
  if (argc > 1 && g_str_equal (argv[1], "-q")) {
    app.quiet = TRUE;
    argv++;
    argc--;
  }
  if (argc < 2) {
    fprintf (stderr, "usage: %s [-q] PIPELINE-DESCRIPTION...\n", argv[0]);
    return 2;
  }
  description = g_strjoinv (" ", argv + 1);
  app.pipeline = gst_parse_launch (description, &error);
  g_free (description);
  /* (a missing element is an error with a partial pipeline) */
  if (error) {
    fprintf (stderr, "cannot build the pipeline: %s\n", error->message);
    g_clear_error (&error);
    gst_clear_object (&app.pipeline);
    return 1;
  }
  if (!GST_IS_BIN (app.pipeline) || !(pad = find_sink_pad (app.pipeline))) {
    fprintf (stderr, "the pipeline has no sink to count frames at\n");
    gst_object_unref (app.pipeline);
    return 1;
  }
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, count_frame, &app, NULL);
  gst_object_unref (pad);

  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_message, &app);
  g_unix_signal_add (SIGINT, on_interrupt, &app);
  g_timeout_add_seconds (1, progress, &app);
  app.last_us = g_get_monotonic_time ();

  if (gst_element_set_state (app.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    app.failed = TRUE;          /* the error message says why */
  g_main_loop_run (app.loop);
  end = g_get_monotonic_time ();

  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  if (!app.quiet)
    fprintf (stderr, "\n");
  frames = (guint) g_atomic_int_get (&app.frames);
  printf ("%u frames in %.3f s: %.1f frames/s\n", frames,
      app.start_us ? (end - app.start_us) / 1e6 : 0.0,
      app.start_us && end > app.start_us ? frames * 1e6 / (end -
          app.start_us) : 0.0);

  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  return app.failed ? 1 : 0;
}
