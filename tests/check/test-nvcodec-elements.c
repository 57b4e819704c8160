/* GPU suite: GStreamer's own CUDA elements (gst-plugins-bad's nvcodec) in
 * chains with our filters, through GStreamer's CUDA memory
 * (`memory:CUDAMemory`). Each chain gives the bytes of the same chain with
 * system memory at every boundary between their elements and ours (a
 * download, then an upload again): every element is deterministic.
 * - cudaconvertscale (scale and format change) before our filters and
 *   after them (1.24+: Debian 12's 1.22.0 has none of these elements, and
 *   the test is built against 1.24 or newer only);
 * - cudacompositor with one input written by our filters and our filter on
 *   its output (1.26+);
 * - cudaipcsink in another process (this program run again, our filter
 *   before the sink) to cudaipcsrc here (our filter after it): frames go
 *   to this process without a copy (io-mode=import) and with one (copy)
 *   (1.24+).
 * Each case runs where nvcodec registers its elements; with GStreamer 1.26+
 * and CUDAFX_REQUIRE_GPU=1 a missing one is a failure. Host waits at the
 * boundary (the frame layer logs each) are counted: none where our
 * library orders its writes on GStreamer's streams (1.24+).
 * Skips (77) without a GPU, nvcodec or cudaconvertscale (then
 * CUDAFX_REQUIRE_GPU=1 fails). */
#include "cfx-test.h"

#include <gst/cudafx.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SUITE_NAME "nvcodec-elements"
#define N_FRAMES 10
#define CUDA_MEM "video/x-raw(memory:CUDAMemory)"
#define SRC "videotestsrc num-buffers=%u pattern=ball is-live=false ! " \
  "video/x-raw,%s,framerate=25/1 ! "
#define PROGRESSIVE_NV12 "format=NV12,width=322,height=242"
#define INTERLACED(format) "format=" format ",width=322,height=242," \
  "interlace-mode=interleaved,field-order=top-field-first"

/* ---- host waits at the boundary ----------------------------------------- */

/* @writes_theirs: our filters wrote into GStreamer's CUDA memory. 1.22 has
 * no stream to order the write on: one host wait a frame (interop.md) */
static void
check_boundary_waits (gint waits, gboolean writes_theirs, const gchar * what)
{
  g_printerr ("%s: %s: %d host waits at the boundary (%s)\n", SUITE_NAME,
      what, waits, gst_cuda_fx_interop_has_streams ()? "stream API" : "1.22");
  if (writes_theirs && !gst_cuda_fx_interop_has_streams ())
    fail_unless (waits > 0, "%s: no host wait without streams", what);
  else
    fail_unless (waits == 0, "%s: %d host waits at the boundary", what,
        waits);
}

/* Runs @theirs (through GStreamer's CUDA memory) and @reference (system
 * memory at the boundary): the same @n_out frames, no copy by our
 * library, and the boundary's host waits counted in @theirs alone */
static void
check_chain (const gchar * theirs, const gchar * reference, guint n_out,
    gboolean writes_theirs)
{
  GPtrArray *want = cfx_test_run_samples (reference, "out", 30), *got;
  guint64 copies = gst_cuda_fx_memory_get_copy_count ();

  fail_unless_equals_int (want->len, n_out);
  cfx_test_count_boundary_waits ();
  got = cfx_test_run_samples (theirs, "out", 30);
  cfx_test_check_samples_equal (got, want, TRUE, theirs);
  fail_unless_equals_uint64 (gst_cuda_fx_memory_get_copy_count (), copies);
  check_boundary_waits (cfx_test_boundary_waits (), writes_theirs,
      theirs);
  g_ptr_array_unref (want);
  g_ptr_array_unref (got);
}

/* ---- cudaconvertscale ---------------------------------------------------- */

static const struct
{
  const gchar *source;          /* videotestsrc's caps */
  const gchar *ours;            /* our filters */
  const gchar *converted;       /* cudaconvertscale's output */
  gboolean ours_first;
  guint fields;                 /* frames out per frame in */
} convert_chains[] = {
  {PROGRESSIVE_NV12, "cudablur sigma=2.5 ! cudadegrain sigma=8",
      "format=I420,width=480,height=270", FALSE, 1},
  /* scaled across only: the fields stay apart for the deinterlacer */
  {INTERLACED ("NV12"), "cudadeinterlace ! cudablur method=box radius=3",
      "format=I420,width=480,height=242", FALSE, 2},
  {INTERLACED ("I420"), "cudadeinterlace fields=top ! cudadegrain sigma=8",
      "format=NV12,width=480,height=270", TRUE, 1},
  {PROGRESSIVE_NV12, "cudablur sigma=1.5", "format=I420,width=160,height=90",
      TRUE, 1},
};

GST_START_TEST (test_convertscale)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (convert_chains); i++) {
    gchar *src = g_strdup_printf (SRC, N_FRAMES, convert_chains[i].source);
    const gchar *ours = convert_chains[i].ours;
    const gchar *out = convert_chains[i].converted;
    gchar *theirs, *reference;

    if (convert_chains[i].ours_first) {
      theirs = g_strdup_printf ("%s cudafxupload ! %s ! " CUDA_MEM " ! "
          "cudaconvertscale ! " CUDA_MEM ",%s ! cudadownload ! video/x-raw ! "
          "appsink name=out sync=false", src, ours, out);
      reference = g_strdup_printf ("%s cudafxupload ! %s ! cudafxdownload ! "
          "video/x-raw ! cudaupload ! " CUDA_MEM " ! cudaconvertscale ! "
          CUDA_MEM ",%s ! cudadownload ! video/x-raw ! "
          "appsink name=out sync=false", src, ours, out);
    } else {
      theirs = g_strdup_printf ("%s cudaupload ! " CUDA_MEM " ! "
          "cudaconvertscale ! " CUDA_MEM ",%s ! %s ! cudafxdownload ! "
          "appsink name=out sync=false", src, out, ours);
      reference = g_strdup_printf ("%s cudaupload ! " CUDA_MEM " ! "
          "cudaconvertscale ! " CUDA_MEM ",%s ! cudadownload ! video/x-raw ! "
          "cudafxupload ! %s ! cudafxdownload ! appsink name=out sync=false",
          src, out, ours);
    }
    check_chain (theirs, reference, N_FRAMES * convert_chains[i].fields,
        convert_chains[i].ours_first);
    g_free (theirs);
    g_free (reference);
    g_free (src);
  }
}

GST_END_TEST;

/* ---- cudacompositor ------------------------------------------------------ */

/* Input 0 from our blur, input 1 (smaller, half transparent) from nvcodec's
 * upload, our degrain on the output */
GST_START_TEST (test_compositor)
{
  const gchar *comp = "cudacompositor name=comp sink_1::xpos=40 "
      "sink_1::ypos=30 sink_1::alpha=0.6 ! "
      CUDA_MEM ",format=NV12,width=322,height=242 ! ";
  gchar *src0 = g_strdup_printf (SRC, N_FRAMES, PROGRESSIVE_NV12);
  gchar *src1 = g_strdup_printf ("videotestsrc num-buffers=%u pattern=smpte "
      "is-live=false ! video/x-raw,format=NV12,width=160,height=120,"
      "framerate=25/1 ! cudaupload ! " CUDA_MEM " ! comp.sink_1", N_FRAMES);
  gchar *theirs = g_strdup_printf ("%s cudadegrain sigma=8 ! cudafxdownload ! "
      "appsink name=out sync=false  %s cudafxupload ! cudablur sigma=2 ! "
      CUDA_MEM " ! comp.sink_0  %s", comp, src0, src1);
  gchar *reference = g_strdup_printf ("%s cudadownload ! video/x-raw ! "
      "cudafxupload ! cudadegrain sigma=8 ! cudafxdownload ! "
      "appsink name=out sync=false  %s cudafxupload ! cudablur sigma=2 ! "
      "cudafxdownload ! video/x-raw ! cudaupload ! " CUDA_MEM " ! comp.sink_0  "
      "%s", comp, src0, src1);

  check_chain (theirs, reference, N_FRAMES, TRUE);
  g_free (theirs);
  g_free (reference);
  g_free (src0);
  g_free (src1);
}

GST_END_TEST;

/* ---- cudaipcsink to cudaipcsrc across processes -------------------------- */

/* This program run as the server: ipc-server ADDRESS */
#define IPC_SERVER_ARG "ipc-server"
#define IPC_SERVER_FILTER "cudablur sigma=2.5"
#define IPC_CLIENT_FILTER "cudadegrain sigma=8"
/* a child or a client waiting longer than this has lost its peer */
#define IPC_WAIT_S 60

/* The server keeps only its newest frame and sends it to a client that
 * asks: one sent before the client took the last would replace it. So
 * the client's process writes a byte to the server's stdin for each frame
 * it has, and the server renders frame k + 1 only after the byte of frame
 * k: no frame lost, however slow either side (frame 0 waits in the server
 * until a client connects). */
static guint server_frames;

static gboolean
read_ack (void)
{
  struct pollfd in = { 0, POLLIN, 0 };
  gchar c;
  gint r;

  do {
    r = poll (&in, 1, IPC_WAIT_S * 1000);
  } while (r < 0 && errno == EINTR);
  return r > 0 && read (0, &c, 1) == 1;
}

static GstPadProbeReturn
wait_for_client (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (server_frames++ > 0 && !read_ack ()) {
    g_printerr ("ipc-server: no word from the client on frame %u\n",
        server_frames - 1);
    _exit (3);
  }
  return GST_PAD_PROBE_OK;
}

/* Reports on stdout: frames sent, host waits at the boundary (our blur's
 * writes into the sink's memory), copies by our library, stream API */
static int
ipc_server_main (char **argv, const gchar * address)
{
  int argc = 1;
  gchar *launch;
  GstElement *pipeline, *sink;
  GstPad *pad;
  GstMessage *msg;
  GError *error = NULL;
  guint64 copies;

  /* whatever happens, this process ends (a lost parent cannot stop it) */
  alarm (4 * IPC_WAIT_S);
  if (!cfx_test_init (&argc, &argv) || !cfx_test_load_system_plugin
      ("nvcodec"))
    return 2;
  cfx_test_count_boundary_waits ();
  copies = gst_cuda_fx_memory_get_copy_count ();
  launch = g_strdup_printf (SRC "cudafxupload ! " IPC_SERVER_FILTER " ! "
      CUDA_MEM " ! cudaipcsink name=sink address=%s sync=false", N_FRAMES,
      PROGRESSIVE_NV12, address);
  pipeline = gst_parse_launch_full (launch, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &error);
  if (!pipeline) {
    g_printerr ("ipc-server: %s: %s\n", launch, error->message);
    return 2;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, wait_for_client, NULL,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("ipc-server: %s does not start\n", launch);
    return 2;
  }
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      4 * IPC_WAIT_S * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    if (msg)
      gst_message_parse_error (msg, &error, &debug);
    g_printerr ("ipc-server: %s\n", error ? error->message : "no EOS");
    g_free (debug);
    return 1;
  }
  gst_message_unref (msg);
  /* the last frame stays served until the client has it; stopping the
   * sink then sends the client EOS and waits for its references */
  if (server_frames > 0 && !read_ack ()) {
    g_printerr ("ipc-server: the client did not take the last frame\n");
    return 3;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  printf ("ipc-server: frames=%u boundary-waits=%d copies=%" G_GUINT64_FORMAT
      " streams=%d\n", server_frames, cfx_test_boundary_waits (),
      gst_cuda_fx_memory_get_copy_count () - copies,
      gst_cuda_fx_interop_has_streams ());
  fflush (stdout);
  g_free (launch);
  return 0;
}

/* The server's process of the running test, killed by the fixture if the
 * test fails; its socket lives in a directory of its own */
static struct
{
  GPid pid;
  gint in, out;
  gchar *dir, *address;
} child = { 0, -1, -1, NULL, NULL };

static void
stop_child (void)
{
  if (child.pid > 0) {
    kill (child.pid, SIGKILL);
    waitpid (child.pid, NULL, 0);
    g_spawn_close_pid (child.pid);
    child.pid = 0;
  }
  if (child.in >= 0)
    close (child.in);
  if (child.out >= 0)
    close (child.out);
  child.in = child.out = -1;
  if (child.address)
    g_unlink (child.address);
  if (child.dir)
    g_rmdir (child.dir);
  g_clear_pointer (&child.address, g_free);
  g_clear_pointer (&child.dir, g_free);
}

static void
start_child (void)
{
  GError *error = NULL;
  gchar *self = g_file_read_link ("/proc/self/exe", &error);
  gchar *argv[4];

  fail_unless (self != NULL, "%s", error ? error->message : "?");
  child.dir = g_dir_make_tmp ("cudafx-ipc-XXXXXX", &error);
  fail_unless (child.dir != NULL, "%s", error ? error->message : "?");
  child.address = g_build_filename (child.dir, "socket", NULL);
  argv[0] = self;
  argv[1] = (gchar *) IPC_SERVER_ARG;
  argv[2] = child.address;
  argv[3] = NULL;
  fail_unless (g_spawn_async_with_pipes (NULL, argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &child.pid, &child.in,
          &child.out, NULL, &error), "%s", error ? error->message : "?");
  g_free (self);
}

/* The child's exit status once it has ended (FALSE: not in @timeout_s) */
static gboolean
wait_child (guint timeout_s, gint * status)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  do {
    pid_t r = waitpid (child.pid, status, WNOHANG);

    if (r == child.pid) {
      g_spawn_close_pid (child.pid);
      child.pid = 0;
      return TRUE;
    }
    if (r < 0 && errno != EINTR)
      return FALSE;
    g_usleep (20 * 1000);
  } while (g_get_monotonic_time () < end);
  return FALSE;
}

static gchar *
read_child_output (void)
{
  GString *text = g_string_new (NULL);
  gchar chunk[256];
  gssize n;

  while ((n = read (child.out, chunk, sizeof (chunk))) > 0
      || (n < 0 && errno == EINTR)) {
    if (n > 0)
      g_string_append_len (text, chunk, n);
  }
  return g_string_free (text, FALSE);
}

/* here: the frame is out of cudaipcsrc, the server may send the next */
static GstPadProbeReturn
ack_frame (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (write (child.in, "+", 1) != 1)
    GST_WARNING ("the server is gone: %s", g_strerror (errno));
  return GST_PAD_PROBE_OK;
}

static const gchar *io_modes[] = { "import", "copy" };

GST_START_TEST (test_ipc)
{
  const gchar *io_mode = io_modes[__i__];
  gchar *src = g_strdup_printf (SRC, N_FRAMES, PROGRESSIVE_NV12);
  gchar *reference = g_strdup_printf ("%s cudafxupload ! " IPC_SERVER_FILTER
      " ! " IPC_CLIENT_FILTER " ! cudafxdownload ! appsink name=out "
      "sync=false", src);
  GPtrArray *want = cfx_test_run_samples (reference, "out", 30), *got;
  guint64 copies = gst_cuda_fx_memory_get_copy_count ();
  gchar *launch, *what, *report, *line;
  GstElement *pipeline, *ipcsrc;
  GstPad *pad;
  GError *error = NULL;
  guint frames = 0;
  gint status = 0, waits = -1, streams = -1;
  guint64 child_copies = G_MAXUINT64;

  fail_unless_equals_int (want->len, N_FRAMES);
  start_child ();
  /* the client retries its connection until the child's server listens */
  launch = g_strdup_printf ("cudaipcsrc name=ipcsrc address=%s io-mode=%s "
      "connection-timeout=%u buffer-size=%u ! " IPC_CLIENT_FILTER " ! "
      "cudafxdownload ! appsink name=out sync=false", child.address, io_mode,
      IPC_WAIT_S, N_FRAMES + 1);
  what = g_strdup_printf ("cudaipcsink (another process) to %s", launch);
  pipeline = gst_parse_launch_full (launch, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &error);
  fail_unless (pipeline != NULL, "%s: %s", launch,
      error ? error->message : "?");
  cfx_test_track_pipeline (pipeline);
  ipcsrc = gst_bin_get_by_name (GST_BIN (pipeline), "ipcsrc");
  pad = gst_element_get_static_pad (ipcsrc, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, ack_frame, NULL, NULL);
  gst_object_unref (pad);
  gst_object_unref (ipcsrc);

  cfx_test_count_boundary_waits ();
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "%s", launch);
  /* to the server's EOS */
  got = cfx_test_collect_samples (pipeline, "out", IPC_WAIT_S, what);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  fail_unless (wait_child (IPC_WAIT_S, &status), "%s: the server's process "
      "did not end", what);
  report = read_child_output ();
  fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0,
      "%s: the server's process failed (status %d): %s", what, status,
      report);
  line = strstr (report, "ipc-server:");
  fail_unless (line != NULL && sscanf (line, "ipc-server: frames=%u "
          "boundary-waits=%d copies=%" G_GUINT64_FORMAT " streams=%d", &frames,
          &waits, &child_copies, &streams) == 4, "%s: report: %s", what,
      report);
  fail_unless_equals_int (frames, N_FRAMES);

  /* every frame, in order; the live source's own timestamps aside */
  cfx_test_check_samples_equal (got, want, FALSE, what);
  /* no copy by our library on either side */
  fail_unless_equals_uint64 (gst_cuda_fx_memory_get_copy_count (), copies);
  fail_unless_equals_uint64 (child_copies, 0);
  /* the server's process: our blur wrote into the sink's memory */
  fail_unless_equals_int (streams, gst_cuda_fx_interop_has_streams ());
  check_boundary_waits (waits, TRUE, "server: " IPC_SERVER_FILTER
      " ! cudaipcsink");
  /* here: our filter only read GStreamer's memory */
  check_boundary_waits (cfx_test_boundary_waits (), FALSE, what);

  stop_child ();
  g_ptr_array_unref (want);
  g_ptr_array_unref (got);
  g_free (report);
  g_free (what);
  g_free (launch);
  g_free (reference);
  g_free (src);
}

GST_END_TEST;

/* ---- the suite ----------------------------------------------------------- */

static Suite *
nvcodec_elements_suite (gboolean compositor, gboolean ipc)
{
  Suite *s = suite_create ("cudafx-" SUITE_NAME);
  TCase *tc = cfx_test_tcase ("convertscale");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_convertscale);
  if (compositor) {
    tc = cfx_test_tcase ("compositor");
    suite_add_tcase (s, tc);
    tcase_add_test (tc, test_compositor);
  }
  if (ipc) {
    tc = cfx_test_tcase ("ipc");
    /* the child killed and its socket removed, also after a failure */
    tcase_add_checked_fixture (tc, NULL, stop_child);
    suite_add_tcase (s, tc);
    tcase_add_loop_test (tc, test_ipc, 0, G_N_ELEMENTS (io_modes));
  }
  return s;
}

/* The registry holds one element per name: "cudaupload" and "cudadownload"
 * are nvcodec's here (ours are cudafxupload and cudafxdownload) */
static gboolean
register_as (const gchar * name, const gchar * type_name)
{
  GType type = g_type_from_name (type_name);

  return type != 0 && gst_element_register (NULL, name, GST_RANK_NONE, type);
}

static gboolean
have_element (const gchar * name)
{
  return gst_registry_check_feature_version (gst_registry_get (), name, 1, 0,
      0);
}

int
main (int argc, char **argv)
{
  /* elements of each case, and the GStreamer release that added them */
  static const struct
  {
    const gchar *names[2];
    guint since_minor;
  } cases[] = {
    {{"cudaconvertscale", NULL}, 24},
    {{"cudacompositor", NULL}, 26},
    {{"cudaipcsink", "cudaipcsrc"}, 24},
  };
  gboolean present[G_N_ELEMENTS (cases)];
  gboolean require, missing = FALSE;
  guint major, minor, micro, nano, i, j;

  if (argc == 3 && strcmp (argv[1], IPC_SERVER_ARG) == 0)
    return ipc_server_main (argv, argv[2]);

  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return cfx_test_no_gpu_exit (SUITE_NAME);
  /* nvcodec registers its elements only where CUDA works */
  if (!cfx_test_load_system_plugin ("nvcodec")
      || !gst_cuda_fx_interop_available ()
      || !register_as ("cudaupload", "GstCudaUpload")
      || !register_as ("cudadownload", "GstCudaDownload")) {
    g_printerr ("%s: nvcodec (its cudaupload and cudadownload) or "
        "libgstcuda-1.0 missing\n", SUITE_NAME);
    return cfx_test_no_gpu_exit (SUITE_NAME);
  }

  gst_version (&major, &minor, &micro, &nano);
  require = (major > 1 || minor >= 26)
      && g_strcmp0 (g_getenv ("CUDAFX_REQUIRE_GPU"), "1") == 0;
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    present[i] = TRUE;
    for (j = 0; j < G_N_ELEMENTS (cases[i].names) && cases[i].names[j]; j++)
      present[i] &= have_element (cases[i].names[j]);
    if (!present[i]) {
      g_printerr ("%s: GStreamer %u.%u.%u: no %s (GStreamer 1.%u+): its case "
          "does not run\n", SUITE_NAME, major, minor, micro,
          cases[i].names[0], cases[i].since_minor);
      missing = TRUE;
    }
  }
  if (missing && require) {
    g_printerr ("%s: FAIL: GStreamer 1.26+ and CUDAFX_REQUIRE_GPU=1, but "
        "nvcodec lacks an element\n", SUITE_NAME);
    return 1;
  }
  if (!present[0])
    return cfx_test_no_gpu_exit (SUITE_NAME);
  /* a write to a server gone is an error, not the end of this process */
  signal (SIGPIPE, SIG_IGN);
  cfx_test_count_boundary_waits ();
  return cfx_test_run_suite (nvcodec_elements_suite (present[1], present[2]));
}
