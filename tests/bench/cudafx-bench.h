/* Shared helpers of the benchmark sections */
#ifndef CUDAFX_BENCH_H
#define CUDAFX_BENCH_H

#include <stddef.h>
#include <stdlib.h>
#include <glib.h>
#include <cuda_runtime_api.h>
#include <gst/video/video.h>

#include "cudafx-kernels.h"

/* A CUDA call that must succeed: the benchmark stops where it fails */
#define CHECK(call) do { cudaError_t _e = (call); if (_e != cudaSuccess) { \
  g_printerr ("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
      cudaGetErrorString (_e)); exit (1); } } while (0)

/* the most buffer sets bench_sets_for returns */
#define BENCH_MAX_SETS 64

extern double bench_copy_bandwidth;

double bench_median (double *v, int n);
int bench_reps (int full);
gboolean bench_case_wanted (const char *name);
int bench_sets_for (size_t bytes);
double bench_time_kernel (void (*launch) (int set, void *data), void *data,
    int sets);
void bench_print_kernel_header (const char *title);
void bench_print_kernel_row (const char *name, double seconds, double bytes);
void bench_copy_row (const char *name, double bytes_moved);
double bench_pipeline_fps (const char *launch);
double bench_peer_pipeline_fps (const char *launch);
double bench_ffmpeg_seconds (const char *source, const char *vf, int frames);
double bench_branches_fps (const char *launch, guint n, double *cpu);
double bench_branches_fps_steady (const char *launch, guint n,
    double *cpu_steady);

/* The sources of the pipeline rows, one 'snow' frame rendered once and
 * pushed again and again by imagefreeze (whose copies share its memory):
 * in our pinned memory after cudafxupload ! cudafxdownload (a source that
 * costs nothing), on the device after cudafxupload, or in plain malloc'd
 * memory (as from filesrc or decoders) */
typedef enum
{
  BENCH_SOURCE_PINNED,
  BENCH_SOURCE_DEVICE,
  BENCH_SOURCE_PAGEABLE,
} BenchSource;

/* Appends "SOURCE ! @tail ! fakesink name=s@i " for @frames frames of
 * video/x-raw,@caps (@tail may be NULL); the pinned and device sources
 * make their frame on CUDA device @device (-1: the elements' choice) */
void bench_append_branch (GString * launch, BenchSource source, gint device,
    const char *caps, int frames, const char *tail, guint i);

/* A device frame of @format as the elements' pools lay it out (rows
 * padded to 256-byte pitches, planes stacked) at @base (NULL: sizes
 * only): its components as the frame layer describes them, and the bytes
 * to allocate */
size_t bench_frame_layout (GstVideoFormat format, int w, int h,
    guint8 * base, CfxPlane * comps, int *n_comps);
/* The bytes of a frame's samples, pitch padding left out (what a kernel
 * reading or writing the frame once must move) */
double bench_frame_bytes (GstVideoFormat format, int w, int h);
/* Writes @v8, a value in 8-bit units, into sample (x, y) of a host frame's
 * component at the component's depth and shift */
void bench_frame_put (const CfxPlane * comp, int x, int y, double v8);

/* One row of the speed targets, printed together at the end of the run:
 * what, the value now (printf format), the target, whether it is met */
void bench_target (const char *what, const char *target, gboolean met,
    const char *now_format, ...) G_GNUC_PRINTF (4, 5);
void bench_target_not_run (const char *what, const char *target);
/* Issue 11's rule for a kernel on 10 to 16-bit samples: at least the share
 * of its floor that the 8-bit kernel of the same element reaches (both
 * shares as fractions; 0: not run) */
void bench_target_depth (const char *what, double share16, double share8);

/* sections in their own files */
void bench_section_blur (void);
void bench_section_chains (void);
void bench_section_deinterlace (void);
void bench_section_luma (void);
void bench_section_degrain (void);
void bench_section_nvdec (void);
void bench_section_multi_gpu (void);
void bench_section_soak (void);
void bench_section_v210 (void);

#endif
