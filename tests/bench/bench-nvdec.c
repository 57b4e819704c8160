/* Benchmark section "nvdec": N decode streams in one process, each
 *   filesrc ! h264parse ! nvh264dec ! FILTER ! cudafxdownload ! fakesink
 * with the decoder's CUDA memory read in place by our filter (zero copy),
 * against the same through system memory (nvh264dec ! video/x-raw !
 * cudafxupload ! FILTER ! ...) and against the decoders alone
 * (nvh264dec ! fakesink, which keeps the frames in device memory).
 *
 * Prints aggregate frames per second (decoded frames, first output to
 * EOS), the host CPU time per decoded frame (getrusage of the whole
 * process over the run, start-up included) and the bytes each path copies
 * across PCIe per decoded frame (counted from the chain: one NV12 frame
 * per download or upload; the bitstream is left out).
 *
 * Needs nvcodec's nvh264dec (NVDEC) and the clips of
 * tests/data/make-clips.sh --bench DIR, named by CUDAFX_BENCH_CLIPS=DIR. */
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include "cudafx-bench.h"

/* @n branches of "filesrc ! h264parse ! nvh264dec ! @tail" */
static double
run_streams (const gchar * clip, const gchar * tail, guint n, double *cpu)
{
  GString *launch = g_string_new (NULL);
  double fps;
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (launch, "filesrc location=%s ! h264parse ! "
        "nvh264dec ! %s ! fakesink name=s%u ", clip, tail, i);
  fps = bench_branches_fps (launch->str, n, cpu);
  g_string_free (launch, TRUE);
  return fps;
}

void
bench_section_nvdec (void)
{
  const gchar *dir = g_getenv ("CUDAFX_BENCH_CLIPS");
  const struct
  {
    const gchar *file, *name, *filter;
    gint w, h;
    gint outputs;               /* per decoded frame */
  } clips[] = {
    {"1080p.h264", "1080p", "cudadegrain", 1920, 1080, 1},
    {"2160p.h264", "4K", "cudadegrain", 3840, 2160, 1},
    {"1080i.h264", "1080i", "cudadeinterlace", 1920, 1080, 2},
  };
  const guint streams[] = { 1, 4, 8 };
  GstElementFactory *dec = gst_element_factory_find ("nvh264dec");
  guint c, k;

  printf ("\n## NVDEC in, our filters, frames per second of N decode streams "
      "in one process\n\n");
  if (!dec || !dir) {
    printf ("Skipped: %s.\n", !dec ? "no nvh264dec (nvcodec, NVDEC)" :
        "CUDAFX_BENCH_CLIPS is not set (tests/data/make-clips.sh --bench "
        "DIR)");
    gst_clear_object (&dec);
    return;
  }
  gst_object_unref (dec);
  printf ("Aggregate: decoded frames per second over all streams (first "
      "output to EOS). CPU: host CPU time of the process per decoded frame "
      "(getrusage, start-up included). PCIe: bytes copied between host and "
      "device per decoded frame, counted from the chain (NV12 frames; the "
      "bitstream left out).\n\n");
  printf ("| clip | filter | N | decoders alone fps | zero copy fps | "
      "zero copy / alone | system memory fps | zero copy CPU ms | system "
      "CPU ms | CPU ratio | PCIe zero copy | PCIe system |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (c = 0; c < G_N_ELEMENTS (clips); c++) {
    gchar *clip = g_build_filename (dir, clips[c].file, NULL);
    double frame = clips[c].w * clips[c].h * 1.5;

    if (!g_file_test (clip, G_FILE_TEST_EXISTS)) {
      printf ("| %s | (no clip %s) |\n", clips[c].name, clip);
      g_free (clip);
      continue;
    }
    for (k = 0; k < G_N_ELEMENTS (streams); k++) {
      gchar *zero = g_strdup_printf ("%s ! cudafxdownload", clips[c].filter);
      gchar *sys = g_strdup_printf ("video/x-raw ! cudafxupload ! %s ! "
          "cudafxdownload", clips[c].filter);
      double cpu_alone = 0, cpu_zero = 0, cpu_sys = 0;
      double alone = run_streams (clip, "identity", streams[k], &cpu_alone);
      double fz = run_streams (clip, zero, streams[k], &cpu_zero);
      double fs = run_streams (clip, sys, streams[k], &cpu_sys);
      gint o = clips[c].outputs;

      /* per decoded frame: outputs per input frame divided out */
      printf ("| %s | %s | %u | %.0f | %.0f | %.2f | %.0f | %.2f | %.2f | "
          "%.2f | %.1f MB | %.1f MB |\n", clips[c].name, clips[c].filter,
          streams[k], alone, fz / o, alone > 0 ? fz / o / alone : 0, fs / o,
          cpu_zero * o * 1e3, cpu_sys * o * 1e3,
          cpu_sys > 0 ? cpu_zero / cpu_sys : 0, o * frame / 1e6,
          (2 + o) * frame / 1e6);
      fflush (stdout);
      g_free (zero);
      g_free (sys);
    }
    g_free (clip);
  }
}
