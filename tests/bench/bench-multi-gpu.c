/* Benchmark section "multigpu": N streams of the 1080i chain
 *   videotestsrc ! cudafxupload device-id=D ! cudadeinterlace ! cudadegrain
 *   ! cudablur sigma=1.5 ! cudafxdownload ! fakesink
 * in one process, all on device 0, then spread over the GPUs (stream i on
 * device i mod count): aggregate output frames per second and the ratio.
 * Needs two GPUs or more. */
#include <gst/gst.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#include "cudafx-bench.h"

static double
run_chains (guint n, gint devices, guint frames)
{
  GString *launch = g_string_new (NULL);
  double fps;
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (launch, "videotestsrc num-buffers=%u "
        "pattern=black ! video/x-raw,format=I420,width=1920,height=1080,"
        "framerate=25/1,interlace-mode=interleaved,"
        "field-order=top-field-first ! cudafxupload device-id=%d ! "
        "cudadeinterlace ! cudadegrain ! cudablur sigma=1.5 ! "
        "cudafxdownload ! fakesink name=s%u ", frames, (gint) (i % devices),
        i);
  fps = bench_branches_fps (launch->str, n, NULL);
  g_string_free (launch, TRUE);
  return fps;
}

void
bench_section_multi_gpu (void)
{
  const guint streams[] = { 2, 8, 16 };
  gint count = 0;
  guint k;

  printf ("\n## Streams over GPUs: N streams of the 1080i chain (upload ! "
      "deinterlace ! degrain ! blur sigma=1.5 ! download, videotestsrc "
      "black I420) in one process\n\n");
  if (cudaGetDeviceCount (&count) != cudaSuccess || count < 2) {
    printf ("Skipped: %d GPU.\n", count);
    return;
  }
  printf ("Output frames per second over all streams (two per input frame), "
      "first output to EOS.\n\n| N | one GPU | %d GPUs | ratio |\n"
      "|---|---|---|---|\n", count);
  for (k = 0; k < G_N_ELEMENTS (streams); k++) {
    guint frames = bench_reps (160);
    double one = run_chains (streams[k], 1, frames);
    double all = run_chains (streams[k], count, frames);

    printf ("| %u | %.0f | %.0f | %.2fx |\n", streams[k], one, all,
        one > 0 ? all / one : 0);
    fflush (stdout);
  }
}
