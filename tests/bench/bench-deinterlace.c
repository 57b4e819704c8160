/* Benchmark section: cudadeinterlace.
 *
 *  - the kernel alone, one output frame per launch, over rotating sets of
 *    (previous, current, next, output) frames so the L2 does not hold
 *    them; against its floor: yadif and bwdif read 2.5 frames (all of C
 *    and of the bracketing frame, half of the other) and write one, ELA
 *    and linear read one and write one;
 *    under each yadif and bwdif row, the 16-bit kernel without its windows
 *    and with one column a thread (the elements take two where the
 *    component allows),
 *    and the launch shape: strips for 1 (16-bit: the elements' yadif
 *    takes 2 on large frames), 2 and 4 waves' threads, then for 1/2, 1/4
 *    and 1/8 of a wave's;
 *  - method mc (cfx_deinterlace_mc, motion compensated) at 1080i and
 *    2160i I420, fields=all, on a textured pan (the search and the blend
 *    do their full work; a blank frame would let the refinement stop at
 *    once), one output field per call, the calls walking a stream so that
 *    one new field image is made per output as in the element; next to
 *    bwdif on the same frames. Its floor: bwdif's 2.5 frames read + 1
 *    written, plus the blend's read and write of the missing half (4.5
 *    frames); the target: 200 output frames a second at 2160i;
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
#include <math.h>
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
  gboolean windowless;          /* 16-bit: without the sliding windows */
  int columns;                  /* 16-bit: windows over 1 or 2 columns a
                                 * thread everywhere (0: the elements') */
  double waves;                 /* strips for this many waves' threads
                                 * (0: the elements' choice) */
} DeintData;

static void
launch_deint (int set, void *data)
{
  DeintData *d = data;
  const CfxDeintComponent *c = d->comps[set];

  if (d->windowless)
    CHECK (cfx_deinterlace16_frame_windowless (c, d->n_comps, &d->field, 0));
  else if (d->columns)
    CHECK (cfx_deinterlace16_frame_columns (c, d->n_comps, &d->field,
            d->columns, 0));
  else if (d->waves == 0)
    CHECK (cfx_deinterlace_frame (c, d->n_comps, &d->field, 0));
  else
    CHECK (cfx_deinterlace_frame_spread (c, d->n_comps, &d->field,
            d->waves, 0));
}

/* The lowest share of the floor of yadif and bwdif, by sample size and
 * frame height (1080i, 2160i) */
typedef struct
{
  double worst[2][2];
} Shares;

static void
note_share (Shares * s, int bytes, int big, double share)
{
  double *w = &s->worst[bytes == 2][big];

  *w = *w > 0 ? MIN (*w, share) : share;
}

static void
kernel_rows (void)
{
  const struct
  {
    const char *name;
    GstVideoFormat format;
    int w, h;
  } kinds[] = {
    {"1080i UYVY", GST_VIDEO_FORMAT_UYVY, 1920, 1080},
    {"1080i I420", GST_VIDEO_FORMAT_I420, 1920, 1080},
    {"1080i I420_10LE", GST_VIDEO_FORMAT_I420_10LE, 1920, 1080},
    {"1080i P010", GST_VIDEO_FORMAT_P010_10LE, 1920, 1080},
    {"2160i UYVY", GST_VIDEO_FORMAT_UYVY, 3840, 2160},
    {"2160i I420", GST_VIDEO_FORMAT_I420, 3840, 2160},
    {"2160i I420_10LE", GST_VIDEO_FORMAT_I420_10LE, 3840, 2160},
    {"2160i P010", GST_VIDEO_FORMAT_P010_10LE, 3840, 2160},
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
  Shares sh = { {{0, 0}, {0, 0}} };
  guint k, m;
  int big;

  bench_print_kernel_header ("cudadeinterlace kernel, one output frame per "
      "launch (floor: yadif/bwdif read 2.5 frames + write 1; ELA, linear "
      "and bwdif's intra fields read 1 + write 1; 10-bit formats: "
      "deinterlace16.cu)");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    CfxPlane layout[GST_VIDEO_MAX_COMPONENTS];
    int n_comps, c, s, sets, j;
    size_t frame_alloc = bench_frame_layout (kinds[k].format, kinds[k].w,
        kinds[k].h, NULL, layout, &n_comps);
    double frame_bytes = bench_frame_bytes (kinds[k].format, kinds[k].w,
        kinds[k].h);
    DeintData *d = g_new0 (DeintData, 1);

    d->waves = 0;
    sets = bench_sets_for (4 * frame_alloc);
    d->n_comps = n_comps;
    for (s = 0; s < sets; s++) {
      CfxPlane frame[4][GST_VIDEO_MAX_COMPONENTS];

      for (j = 0; j < 4; j++) {
        CHECK (cudaMalloc ((void **) &d->mem[s][j], frame_alloc));
        CHECK (cudaMemset (d->mem[s][j], 16 + s * 4 + j, frame_alloc));
        bench_frame_layout (kinds[k].format, kinds[k].w, kinds[k].h,
            d->mem[s][j], frame[j], &n_comps);
      }
      for (c = 0; c < n_comps; c++) {
        d->comps[s][c].prev = frame[0][c];
        d->comps[s][c].cur = frame[1][c];
        d->comps[s][c].next = frame[2][c];
        d->comps[s][c].dst = frame[3][c];
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
      if (temporal)
        note_share (&sh, layout[0].bytes, kinds[k].h > 1080,
            bytes / t / bench_copy_bandwidth);
      if (temporal && layout[0].bytes == 2) {
        /* what the windows save: every stencil row read from memory */
        d->windowless = TRUE;
        t = bench_time_kernel (launch_deint, d, sets);
        d->windowless = FALSE;
        bench_print_kernel_row ("  the same without the windows", t, bytes);
        /* the other column count: the elements take two columns a
         * thread where the component allows */
        d->columns = 1;
        t = bench_time_kernel (launch_deint, d, sets);
        d->columns = 0;
        bench_print_kernel_row ("  one column a thread", t, bytes);
      }
      if (temporal) {
        /* the launch shape: more threads than one wave (shorter strips,
         * several waves of blocks), then fewer (longer strips) */
        static const int per_wave[] = { -1, -2, -4, 2, 4, 8 };
        guint i;

        for (i = 0; i < G_N_ELEMENTS (per_wave); i++) {
          gchar *row;

          /* the 8-bit row above is one wave already; the elements' 16-bit
           * yadif may take two */
          if (per_wave[i] == -1 && layout[0].bytes == 1)
            continue;
          row = per_wave[i] == -1 ? g_strdup ("  strips for 1 wave") :
              per_wave[i] < 0 ?
              g_strdup_printf ("  strips for %d waves", -per_wave[i]) :
              g_strdup_printf ("  strips for 1/%d of a wave", per_wave[i]);

          d->waves = per_wave[i] < 0 ? -per_wave[i] : 1.0 / per_wave[i];
          t = bench_time_kernel (launch_deint, d, sets);
          bench_print_kernel_row (row, t, bytes);
          g_free (row);
        }
        d->waves = 0;
      }
      g_free (name);
    }
    for (s = 0; s < sets; s++)
      for (j = 0; j < 4; j++)
        cudaFree (d->mem[s][j]);
    g_free (d);
  }
  if (sh.worst[0][1] > 0)
    bench_target ("cudadeinterlace 2160i yadif/bwdif kernel, share of its "
        "floor (the lowest of UYVY and I420)", ">= 85%",
        sh.worst[0][1] >= 0.85, "%.0f%%", 100 * sh.worst[0][1]);
  if (sh.worst[0][0] > 0)
    bench_target ("cudadeinterlace 1080i yadif/bwdif kernel, share of its "
        "floor (the lowest)", ">= 70%", sh.worst[0][0] >= 0.70, "%.0f%%",
        100 * sh.worst[0][0]);
  for (big = 0; big < 2; big++)
    bench_target_depth (big ? "cudadeinterlace 2160i yadif/bwdif kernel "
        "(the lowest)" : "cudadeinterlace 1080i yadif/bwdif kernel "
        "(the lowest)", sh.worst[1][big], sh.worst[0][big]);
}

/* ---- method mc ---------------------------------------------------------- */

#define MC_FRAMES 8

typedef struct
{
  CfxDeintComponent comps[CFX_DEINT_MAX_COMPONENTS];
  CfxPlane frame[MC_FRAMES][GST_VIDEO_MAX_COMPONENTS];
  CfxPlane out[2][GST_VIDEO_MAX_COMPONENTS];
  int n_comps;
  gboolean mc;                  /* else bwdif */
  CfxDeintMc *state;
  guint64 calls;
} McData;

/* Output k = calls % 2 of input frame t = calls / 2 of a stream: frames
 * t - 1, t, t + 1 (memory rotating over MC_FRAMES pictures, keys the
 * stream position: each call makes one new field image) */
static void
launch_mc (int set, void *data)
{
  McData *d = data;
  const guint64 t = d->calls / 2 + 1;
  const int k = (int) (d->calls % 2);
  const int i = (int) (t % (MC_FRAMES - 2)) + 1;
  /* top field first: output k keeps the rows of parity k */
  CfxDeintField field = { d->mc ? CFX_DEINT_MC : CFX_DEINT_BWDIF, k, 1, 1,
    0
  };
  CfxDeintMcWindow win = { 1, 1, {t - 1, t, t + 1}, d->calls == 0 };
  int c;

  for (c = 0; c < d->n_comps; c++) {
    d->comps[c].prev = d->frame[i - 1][c];
    d->comps[c].cur = d->frame[i][c];
    d->comps[c].next = d->frame[i + 1][c];
    d->comps[c].dst = d->out[k][c];
  }
  if (d->mc)
    CHECK (cfx_deinterlace_mc (d->state, d->comps, d->n_comps, &field, &win,
            0));
  else
    CHECK (cfx_deinterlace_frame (d->comps, d->n_comps, &field, 0));
  d->calls++;
}

static void
mc_rows (void)
{
  const struct
  {
    const char *name;
    int w, h;
  } kinds[] = {
    {"1080i I420", 1920, 1080},
    {"2160i I420", 3840, 2160},
  };
  guint k;

  bench_print_kernel_header ("cudadeinterlace method=mc, one output field "
      "per call, fields=all, a textured pan (floor: bwdif's 2.5 frames read "
      "+ 1 written, and the missing half read + written again: 4.5 "
      "frames)");
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    const GstVideoFormat format = GST_VIDEO_FORMAT_I420;
    const int w = kinds[k].w, h = kinds[k].h;
    CfxPlane sizes_only[GST_VIDEO_MAX_COMPONENTS];
    int n_sizes;
    size_t alloc = bench_frame_layout (format, w, h, NULL, sizes_only,
        &n_sizes);
    double frame_bytes = bench_frame_bytes (format, w, h), t;
    guint8 *host = g_malloc (alloc), *mem[MC_FRAMES + 2];
    McData *d = g_new0 (McData, 1);
    gchar *name_bw = g_strdup_printf ("%s bwdif (the same frames)",
        kinds[k].name);
    gchar *name_mc = g_strdup_printf ("%s mc", kinds[k].name);
    int f, c, x, y;

    if (!bench_case_wanted (name_mc) && !bench_case_wanted (name_bw)) {
      g_free (name_bw);
      g_free (name_mc);
      g_free (host);
      g_free (d);
      if (k == 1)
        bench_target_not_run ("cudadeinterlace method=mc 2160i I420, "
            "fields=all, output frames per second of GPU time", ">= 200");
      continue;
    }
    for (f = 0; f < MC_FRAMES + 2; f++) {
      CfxPlane hp[GST_VIDEO_MAX_COMPONENTS];

      CHECK (cudaMalloc ((void **) &mem[f], alloc));
      if (f < MC_FRAMES) {
        /* picture f of a pan: 2.5 px across, 1.5 rows down a frame */
        bench_frame_layout (format, w, h, host, hp, &d->n_comps);
        for (c = 0; c < d->n_comps; c++) {
          int sub = c ? 2 : 1;

          for (y = 0; y < hp[c].height; y++)
            for (x = 0; x < hp[c].width; x++) {
              double X = x * sub + 2.5 * f, Y = y * sub + 1.5 * f;

              bench_frame_put (&hp[c], x, y, 120 + 50 * sin (0.031 * X +
                      0.017 * Y + c) * cos (0.023 * X - 0.041 * Y) +
                  25 * sin (0.45 * X + 0.3 * Y) + 12 * cos (1.3 * X -
                      0.9 * Y));
            }
        }
        CHECK (cudaMemcpy (mem[f], host, alloc, cudaMemcpyHostToDevice));
        bench_frame_layout (format, w, h, mem[f], d->frame[f], &d->n_comps);
      } else {
        bench_frame_layout (format, w, h, mem[f], d->out[f - MC_FRAMES],
            &d->n_comps);
      }
    }
    CHECK (cfx_deint_mc_new (&d->state, w, h));

    d->mc = FALSE;
    d->calls = 0;
    t = bench_time_kernel (launch_mc, d, 2);
    bench_print_kernel_row (name_bw, t, 3.5 * frame_bytes);
    d->mc = TRUE;
    d->calls = 0;
    t = bench_time_kernel (launch_mc, d, 2);
    bench_print_kernel_row (name_mc, t, 4.5 * frame_bytes);
    if (h == 2160)
      bench_target ("cudadeinterlace method=mc 2160i I420, fields=all, "
          "output frames per second of GPU time", ">= 200", 1.0 / t >= 200,
          "%.0f", 1.0 / t);

    cfx_deint_mc_free (d->state);
    for (f = 0; f < MC_FRAMES + 2; f++)
      cudaFree (mem[f]);
    g_free (host);
    g_free (d);
    g_free (name_bw);
    g_free (name_mc);
  }
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
  mc_rows ();
  if (bench_case_wanted (NULL))
    pipeline_rows ();
}
