/* Benchmark section: cudadeinterlace.
 *
 *  - the kernel alone, one output frame per launch, over rotating sets of
 *    (previous, current, next, output) frames so the L2 does not hold
 *    them; against its floor: yadif and bwdif read 2.5 frames (all of C
 *    and of the bracketing frame, half of the other) and write one, ELA
 *    and linear read one and write one;
 *  - whole pipelines in output frames per second (field rate: two per
 *    input frame): cudafxupload ! cudadeinterlace ! cudafxdownload next to
 *    GStreamer's CPU deinterlace (yadif, linear) in a child process, and
 *    FFmpeg's CPU bwdif and yadif when ffmpeg is installed. Each frame
 *    size twice: the plain line (one streaming thread serialises upload,
 *    kernel and downloads) and the line users run, with queues between
 *    the elements (and a queue before the CPU deinterlace too, for a fair
 *    comparison). */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cudafx-testing.h"
#include "cudafx-bench.h"

typedef struct
{
  CfxDeintComponent comps[BENCH_MAX_SETS][CFX_DEINT_MAX_COMPONENTS];
  guint8 *mem[BENCH_MAX_SETS][4];
  int n_comps;
  CfxDeintField field;
} DeintData;

static void
launch_deint (int set, void *data)
{
  DeintData *d = data;
  cfx_deinterlace_frame (d->comps[set], d->n_comps, &d->field, 0);
}

/* One component of a frame kind: its plane, where it lies in the plane's
 * rows, its size */
typedef struct
{
  int plane, offset, step, width, height;
} Comp;

/* The planes (row bytes and rows) and components of one frame kind:
 * packed UYVY or I420 (even sizes). Returns the number of planes. */
static int
frame_layout (gboolean uyvy, int w, int h, int *row_bytes, int *rows,
    Comp * comp, int *n_comps)
{
  if (uyvy) {
    const Comp y = { 0, 1, 2, w, h }, u = { 0, 0, 4, w / 2, h };
    const Comp v = { 0, 2, 4, w / 2, h };

    row_bytes[0] = 2 * w;
    rows[0] = h;
    comp[0] = y;
    comp[1] = u;
    comp[2] = v;
    *n_comps = 3;
    return 1;
  }
  for (int p = 0; p < 3; p++) {
    const Comp c = { p, 0, 1, p ? w / 2 : w, p ? h / 2 : h };

    row_bytes[p] = c.width;
    rows[p] = c.height;
    comp[p] = c;
  }
  *n_comps = 3;
  return 3;
}

static void
kernel_rows (void)
{
  const struct
  {
    const char *name;
    gboolean uyvy;
    int w, h;
  } kinds[] = {
    {"1080i UYVY", TRUE, 1920, 1080},
    {"1080i I420", FALSE, 1920, 1080},
    {"2160i UYVY", TRUE, 3840, 2160},
    {"2160i I420", FALSE, 3840, 2160},
  };
  const struct
  {
    const char *name;
    CfxDeintMethod method;
    int intra;
  } methods[] = {
    {"bwdif", CFX_DEINT_BWDIF, 0},
    {"yadif", CFX_DEINT_YADIF, 0},
    {"bwdif intra", CFX_DEINT_BWDIF, 1},
    {"ela", CFX_DEINT_ELA, 0},
    {"linear", CFX_DEINT_LINEAR, 0},
  };
  double worst[2] = { 0, 0 };   /* yadif/bwdif share of the floor: 1080i, 2160i */
  guint k, m;

  bench_print_kernel_header ("cudadeinterlace kernel, one output frame per "
      "launch (floor: yadif/bwdif read 2.5 frames + write 1; ELA, linear "
      "and bwdif's intra fields read 1 + write 1)");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    Comp comp[3];
    int ph[3], rb[3], pitch[3], n, n_comps, p, c, s, sets, j;
    size_t frame_bytes = 0, frame_alloc = 0, offset[3];
    DeintData *d = g_new0 (DeintData, 1);

    n = frame_layout (kinds[k].uyvy, kinds[k].w, kinds[k].h, rb, ph, comp,
        &n_comps);
    for (p = 0; p < n; p++) {
      pitch[p] = GST_ROUND_UP_N (rb[p], 256);
      offset[p] = frame_alloc;
      frame_alloc += (size_t) pitch[p] * ph[p];
      frame_bytes += (size_t) rb[p] * ph[p];
    }
    sets = bench_sets_for (4 * frame_alloc);
    d->n_comps = n_comps;
    for (s = 0; s < sets; s++) {
      for (j = 0; j < 4; j++) {
        CHECK (cudaMalloc ((void **) &d->mem[s][j], frame_alloc));
        CHECK (cudaMemset (d->mem[s][j], 16 + s * 4 + j, frame_alloc));
      }
      for (c = 0; c < n_comps; c++) {
        CfxDeintComponent *dc = &d->comps[s][c];
        CfxPlane *pl[4] = { &dc->prev, &dc->cur, &dc->next, &dc->dst };
        const Comp *cp = &comp[c];

        for (j = 0; j < 4; j++)
          *pl[j] = cfx_plane_8bit (d->mem[s][j] + offset[cp->plane] +
              cp->offset, pitch[cp->plane], cp->width, cp->height, cp->step,
              cp->offset);
      }
    }

    for (m = 0; m < G_N_ELEMENTS (methods); m++) {
      gboolean temporal = !methods[m].intra
          && (methods[m].method == CFX_DEINT_BWDIF
          || methods[m].method == CFX_DEINT_YADIF);
      double t, bytes = (temporal ? 3.5 : 2.0) * frame_bytes;
      gchar *name = g_strdup_printf ("%s %s", kinds[k].name,
          methods[m].name);

      if (!bench_case_wanted (name)) {
        g_free (name);
        continue;
      }

      /* the first field of a TFF frame: A = P, B = C */
      d->field.method = methods[m].method;
      d->field.parity = 0;
      d->field.tff = 1;
      d->field.spatial_check = 1;
      d->field.intra_only = methods[m].intra;
      t = bench_time_kernel (launch_deint, d, sets);
      bench_print_kernel_row (name, t, bytes);
      if (temporal) {
        double share = bytes / t / bench_copy_bandwidth;
        int big = kinds[k].h > 1080;

        worst[big] = worst[big] > 0 ? MIN (worst[big], share) : share;
      }
      g_free (name);
    }
    for (s = 0; s < sets; s++)
      for (j = 0; j < 4; j++)
        cudaFree (d->mem[s][j]);
    g_free (d);
  }
  if (worst[1] > 0)
    bench_target ("cudadeinterlace 2160i yadif/bwdif kernel, share of its "
        "floor (the lowest of UYVY and I420)", ">= 85%", worst[1] >= 0.85,
        "%.0f%%", 100 * worst[1]);
  if (worst[0] > 0)
    bench_target ("cudadeinterlace 1080i yadif/bwdif kernel, share of its "
        "floor (the lowest)", ">= 70%", worst[0] >= 0.70, "%.0f%%",
        100 * worst[0]);
}

/* FFmpeg's CPU filter on a lavfi source: output frames per second, 0 if
 * ffmpeg is missing or fails */
static double
ffmpeg_fps (const char *filter, int w, int h, int frames)
{
  gchar *size = g_strdup_printf ("color=c=black:size=%dx%d:rate=25", w, h);
  gchar *vf = g_strdup_printf ("format=yuv420p,setfield=tff,%s=mode="
      "send_field:parity=tff:deint=all", filter);
  double secs = bench_ffmpeg_seconds (size, vf, frames);

  g_free (size);
  g_free (vf);
  /* field rate: two output frames per input frame */
  return secs > 0 ? 2.0 * frames / secs : 0;
}

static void
print_ratio (double ours, double peer)
{
  if (peer > 0)
    printf (" %.0f | %.1fx |", peer, ours / peer);
  else
    printf (" - | - |");
}

static void
pipeline_rows (void)
{
  const struct
  {
    const char *name, *format;
    int w, h;
  } kinds[] = {
    {"1080i UYVY", "UYVY", 1920, 1080},
    {"1080i I420", "I420", 1920, 1080},
    {"2160i I420", "I420", 3840, 2160},
  };
  gchar *ffmpeg = g_find_program_in_path ("ffmpeg");
  int n = bench_reps (300);
  guint k;

  printf ("\n## cudadeinterlace pipelines, output frames per second "
      "(field rate; videotestsrc pattern=black, %d interlaced frames in, "
      "first buffer to EOS; CPU peers in a child process)\n\n", n);
  printf ("| frames | line | source alone | cudafxupload ! cudadeinterlace "
      "! cudafxdownload | GStreamer deinterlace yadif (CPU) | ratio | "
      "GStreamer deinterlace linear (CPU) | ratio | FFmpeg bwdif (CPU) | "
      "ratio | FFmpeg yadif (CPU) | ratio |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    /* fewer frames for the slow CPU peers at 4K */
    int nk = kinds[k].h > 1080 ? MAX (n / 3, 20) : n;
    gchar *src = g_strdup_printf ("videotestsrc num-buffers=%d pattern=black "
        "! video/x-raw,format=%s,width=%d,height=%d,framerate=25/1,"
        "interlace-mode=interleaved,field-order=top-field-first", nk,
        kinds[k].format, kinds[k].w, kinds[k].h);
    gchar *l0 = g_strdup_printf ("%s ! fakesink name=sink", src);
    double f0 = bench_pipeline_fps (l0), f4 = 0, f5 = 0;
    guint q;

    if (ffmpeg) {
      f4 = ffmpeg_fps ("bwdif", kinds[k].w, kinds[k].h, nk);
      f5 = ffmpeg_fps ("yadif", kinds[k].w, kinds[k].h, nk);
    }
    /* q = 0: the plain line; q = 1: queues between the elements, what
     * users run (and one before the CPU peer's deinterlace) */
    for (q = 0; q < 2; q++) {
      const gchar *qu = q ? "queue max-size-bytes=0 max-size-time=0 "
          "max-size-buffers=4 ! " : "";
      gchar *l1 = g_strdup_printf ("%s ! cudafxupload ! %scudadeinterlace ! "
          "%scudafxdownload ! fakesink name=sink", src, qu, qu);
      gchar *l2 = g_strdup_printf ("%s ! %sdeinterlace method=yadif "
          "fields=all ! video/x-raw,interlace-mode=progressive ! "
          "fakesink name=sink", src, qu);
      gchar *l3 = g_strdup_printf ("%s ! %sdeinterlace method=linear "
          "fields=all ! video/x-raw,interlace-mode=progressive ! "
          "fakesink name=sink", src, qu);
      double f1 = bench_pipeline_fps (l1);
      double f2 = bench_peer_pipeline_fps (l2);
      double f3 = bench_peer_pipeline_fps (l3);

      printf ("| %s | %s | %.0f | %.0f |", kinds[k].name,
          q ? "with queues" : "plain", f0, f1);
      print_ratio (f1, f2);
      print_ratio (f1, f3);
      print_ratio (f1, f4);
      print_ratio (f1, f5);
      printf ("\n");
      fflush (stdout);
      g_free (l1);
      g_free (l2);
      g_free (l3);
    }
    g_free (src);
    g_free (l0);
  }
  if (!ffmpeg)
    printf ("\n(ffmpeg not installed: no FFmpeg columns)\n");
  g_free (ffmpeg);
}

void
bench_section_deinterlace (void)
{
  kernel_rows ();
  if (bench_case_wanted (NULL))
    pipeline_rows ();
}
