/* Benchmark section "multigpu": N streams of the 1080i chain
 *   SOURCE ! cudafxupload device-id=D ! cudadeinterlace ! cudadegrain
 *   ! cudablur sigma=1.5 ! cudafxdownload ! fakesink
 * in one process, all on device 0, then spread over the GPUs (stream i on
 * device i mod count): aggregate output frames per second and the ratio.
 * Two sources:
 *   - one pinned frame of device D's pool pushed again and again
 *     (bench_append_branch's pinned source): it costs nothing, so the
 *     GPUs, the copies and our elements' host work set the pace (the row
 *     held against issue 16's target of 1.9x at N = 16);
 *   - videotestsrc pattern=black, a new frame in pageable memory each
 *     time: what a CPU source adds (its rendering and the pageable copy).
 * Needs two GPUs or more. */
#include <gst/gst.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#include "cudafx-bench.h"

#define FIELDS_1080 "format=I420,width=1920,height=1080," \
  "interlace-mode=interleaved,field-order=top-field-first"

static double
run_chains (guint n, gint devices, guint frames, gboolean pinned)
{
  GString *launch = g_string_new (NULL);
  double fps;
  guint i;

  for (i = 0; i < n; i++) {
    gint d = (gint) (i % devices);
    gchar *tail = g_strdup_printf ("cudafxupload device-id=%d ! "
        "cudadeinterlace ! cudadegrain ! cudablur sigma=1.5 ! "
        "cudafxdownload", d);

    if (pinned)
      bench_append_branch (launch, BENCH_SOURCE_PINNED, d, FIELDS_1080,
          (int) frames, tail, i);
    else
      g_string_append_printf (launch, "videotestsrc num-buffers=%u "
          "pattern=black ! video/x-raw," FIELDS_1080 ",framerate=25/1 ! %s "
          "! fakesink name=s%u ", frames, tail, i);
    g_free (tail);
  }
  fps = bench_branches_fps (launch->str, n, NULL);
  g_string_free (launch, TRUE);
  return fps;
}

static void
table (const char *source, gboolean pinned, gint count)
{
  const guint streams[] = { 2, 8, 16 };
  guint k;

  printf ("\nSource: %s. Output frames per second over all streams (two per "
      "input frame), first output to EOS.\n\n| N | one GPU | %d GPUs | ratio "
      "|\n|---|---|---|---|\n", source, count);
  for (k = 0; k < G_N_ELEMENTS (streams); k++) {
    guint frames = bench_reps (pinned ? 400 : 160);
    double one = run_chains (streams[k], 1, frames, pinned);
    double all = run_chains (streams[k], count, frames, pinned);
    double ratio = one > 0 ? all / one : 0;

    printf ("| %u | %.0f | %.0f | %.2fx |\n", streams[k], one, all, ratio);
    fflush (stdout);
    if (pinned && streams[k] == 16)
      bench_target ("16 streams of the 1080i chain over the GPUs, source "
          "that costs nothing: against one GPU", ">= 1.9x", ratio >= 1.9,
          "%.2fx (%.0f against %.0f output frames/s, %d GPUs)", ratio, all,
          one, count);
  }
}

void
bench_section_multi_gpu (void)
{
  gint count = 0;

  printf ("\n## Streams over GPUs: N streams of the 1080i chain (upload ! "
      "deinterlace ! degrain ! blur sigma=1.5 ! download, I420) in one "
      "process\n");
  if (cudaGetDeviceCount (&count) != cudaSuccess || count < 2) {
    printf ("\nSkipped: %d GPU.\n", count);
    return;
  }
  table ("one pinned frame pushed again and again (costs nothing)", TRUE,
      count);
  table ("videotestsrc pattern=black (a new pageable frame each time)",
      FALSE, count);
}
