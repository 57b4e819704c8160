/* Benchmark section "soak": one long run of the 576i chain
 *   videotestsrc pattern=ball ! cudafxupload ! cudadeinterlace ! cudadegrain
 *   ! cudablur sigma=1.5 ! cudafxdownload ! fakesink
 * in this process, 100,000 input frames (CUDAFX_SOAK_FRAMES=N overrides),
 * watching the process's resident memory (VmRSS) and the device memory in
 * use (cudaMemGetInfo: total - free, the whole device). Whatever is left
 * behind per frame (a buffer, an event, a pool) shows as growth after
 * warm-up.
 *
 * Samples are taken by output frames at the sink (deinterlace's default
 * fields=all gives two per input frame): at 1,000 (the baseline, after
 * warm-up), every 10,000, and at EOS with the pipeline still PLAYING, so
 * the end compares with the baseline, pools alive in both.
 *
 * Runs for minutes: only when named. An error on the bus or a stall ends
 * the benchmark with exit status 1. */
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

#include "cudafx-bench.h"

#define SOAK_FRAMES 100000
#define SOAK_BASELINE 1000
#define SOAK_EVERY 10000
/* no output frame for this long: a stall, not a slow machine */
#define SOAK_STALL_SECONDS 60

typedef struct
{
  guint frames;                 /* output frames at the sink so far */
  double rss_mib, device_mib;
} SoakSample;

typedef struct
{
  gint frames;                  /* output frames, atomic: main polls it */
  gint64 first_output;
  SoakSample *samples;          /* preallocated: nothing grows while sampling */
  guint n_samples, max_samples;
} Soak;

/* The process's resident set (VmRSS) in MiB; -1 if unreadable */
static double
rss_mib (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  double mib = -1;
  long kb;

  if (!f)
    return -1;
  while (fgets (line, sizeof (line), f))
    if (sscanf (line, "VmRSS: %ld kB", &kb) == 1) {
      mib = kb / 1024.0;
      break;
    }
  fclose (f);
  return mib;
}

/* Device memory in use, MiB: of the current device, all processes */
static double
device_used_mib (void)
{
  size_t free_bytes, total_bytes;

  CHECK (cudaMemGetInfo (&free_bytes, &total_bytes));
  return (total_bytes - free_bytes) / (1024.0 * 1024.0);
}

static void
take_sample (Soak * soak, guint frames)
{
  SoakSample *s;

  if (soak->n_samples == soak->max_samples)
    return;
  s = &soak->samples[soak->n_samples++];
  s->frames = frames;
  s->rss_mib = rss_mib ();
  s->device_mib = device_used_mib ();
}

/* In the streaming thread; a /proc read and cudaMemGetInfo only every
 * SOAK_EVERY frames */
static void
on_soak_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer data)
{
  Soak *soak = data;
  guint n = (guint) g_atomic_int_add (&soak->frames, 1) + 1;

  if (n == 1)
    soak->first_output = g_get_monotonic_time ();
  if (n == SOAK_BASELINE || n % SOAK_EVERY == 0)
    take_sample (soak, n);
}

static guint
soak_frames (void)
{
  const gchar *env = g_getenv ("CUDAFX_SOAK_FRAMES");
  guint64 n;

  if (!env || !*env)
    return SOAK_FRAMES;
  /* 2N output frames must fit a gint */
  n = g_ascii_strtoull (env, NULL, 10);
  if (n == 0 || n > G_MAXINT / 2) {
    g_printerr ("CUDAFX_SOAK_FRAMES=%s: not in 1..%d, running %d frames\n",
        env, G_MAXINT / 2, SOAK_FRAMES);
    return SOAK_FRAMES;
  }
  return (guint) n;
}

static void
print_samples (const Soak * soak)
{
  guint i;

  printf ("| output frames | RSS MiB | device MiB used |\n|---|---|---|\n");
  for (i = 0; i < soak->n_samples; i++)
    printf ("| %u | %.1f | %.1f |\n", soak->samples[i].frames,
        soak->samples[i].rss_mib, soak->samples[i].device_mib);
}

/* Prints what was sampled, then stops the benchmark */
G_GNUC_NORETURN static void
soak_fail (const Soak * soak, const gchar * launch, const gchar * what)
{
  print_samples (soak);
  printf ("\nFAILED after %d output frames: %s\n",
      g_atomic_int_get (&soak->frames), what);
  fflush (stdout);
  g_printerr ("soak: %s\n  %s\n", what, launch);
  exit (1);
}

void
bench_section_soak (void)
{
  guint frames = soak_frames (), outputs = 2 * frames, i;
  gchar *launch = g_strdup_printf ("videotestsrc pattern=ball "
      "is-live=false num-buffers=%u ! video/x-raw,format=I420,width=720,"
      "height=576,framerate=50/1,interlace-mode=interleaved,"
      "field-order=top-field-first ! cudafxupload ! cudadeinterlace ! "
      "cudadegrain ! cudablur sigma=1.5 ! cudafxdownload ! fakesink "
      "sync=false name=sink", frames);
  Soak soak = { 0 };
  GError *error = NULL;
  GstElement *pipeline, *sink;
  GstMessage *msg = NULL;
  GstBus *bus;
  gint last = 0;
  gint64 last_progress, end;
  const SoakSample *base = NULL;
  double max_rss = 0, max_device = 0;

  printf ("\n## Soak: %u input frames (%u output frames, deinterlace "
      "fields=all), 720x576 I420 interleaved, upload ! deinterlace ! "
      "degrain ! blur sigma=1.5 ! download, one pipeline\n\n", frames,
      outputs);
  printf ("Process RSS (VmRSS) and device memory in use (cudaMemGetInfo: "
      "total - free, whole device, other processes included) at output "
      "frame %d (after warm-up), every %d output frames and at EOS "
      "(pipeline still playing).\n\n", SOAK_BASELINE, SOAK_EVERY);
  fflush (stdout);

  /* the baseline, every SOAK_EVERY, the end, and slack for a chain that
   * gives more frames than expected */
  soak.max_samples = outputs / SOAK_EVERY + 8;
  soak.samples = g_new0 (SoakSample, soak.max_samples);

  pipeline = gst_parse_launch (launch, &error);
  if (!pipeline || error)
    soak_fail (&soak, launch, error ? error->message : "cannot parse");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (sink, "signal-handoffs", TRUE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_soak_handoff), &soak);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  /* no overall timeout (a soak is long by design), but no progress for
   * SOAK_STALL_SECONDS is a failure */
  last_progress = g_get_monotonic_time ();
  while (!msg) {
    gint now;

    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    now = g_atomic_int_get (&soak.frames);
    if (now != last) {
      last = now;
      last_progress = g_get_monotonic_time ();
    } else if (!msg && g_get_monotonic_time () - last_progress >
        SOAK_STALL_SECONDS * G_USEC_PER_SEC) {
      gchar *what = g_strdup_printf ("no output frame for %d s",
          SOAK_STALL_SECONDS);
      soak_fail (&soak, launch, what);
    }
  }
  end = g_get_monotonic_time ();
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL, *what;

    gst_message_parse_error (msg, &error, &debug);
    what = g_strdup_printf ("%s: %s (%s)", GST_OBJECT_NAME (msg->src),
        error->message, debug ? debug : "no debug info");
    soak_fail (&soak, launch, what);
  }

  /* the end sample, from this thread (CUDA's current device is the
   * context's, set in main); replaces a periodic one at the same count */
  if (soak.n_samples > 0 && (soak.n_samples == soak.max_samples ||
          soak.samples[soak.n_samples - 1].frames == (guint) last))
    soak.n_samples--;
  take_sample (&soak, (guint) last);

  print_samples (&soak);
  for (i = 0; i < soak.n_samples; i++) {
    if (soak.samples[i].frames == SOAK_BASELINE)
      base = &soak.samples[i];
    max_rss = MAX (max_rss, soak.samples[i].rss_mib);
    max_device = MAX (max_device, soak.samples[i].device_mib);
  }
  printf ("\n");
  if (base) {
    const SoakSample *e = &soak.samples[soak.n_samples - 1];

    printf ("Growth from output frame %d to the end: RSS %+.1f MiB, device "
        "%+.1f MiB; ", SOAK_BASELINE, e->rss_mib - base->rss_mib,
        e->device_mib - base->device_mib);
  } else {
    printf ("Growth: no baseline (fewer than %d output frames); ",
        SOAK_BASELINE);
  }
  printf ("max RSS %.1f MiB, max device %.1f MiB; %.0f output frames/s "
      "(first output to EOS)", max_rss, max_device,
      last > 1 ? (last - 1) / ((end - soak.first_output) * 1e-6) : 0.0);
  if ((guint) last != outputs)
    printf ("; %d output frames where %u were expected", last, outputs);
  printf ("\n");

  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (soak.samples);
  g_free (launch);
}
