/* gst-cudafx test support: a fresh registry holding our plugin and the few
 * GStreamer plugins the tests use (never gst-plugins-bad), GPU detection
 * with skip (77) or failure (CUDAFX_REQUIRE_GPU=1), and frame helpers. */
#ifndef CFX_TEST_H
#define CFX_TEST_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define CFX_TEST_SKIP 77

/* Call first in main(). Returns FALSE if the environment is broken. */
gboolean cfx_test_init (int *argc, char ***argv);

/* Host waits at the boundary with GStreamer's CUDA memory (the frame
 * layer logs each, category cudafxframe): counting starts for the whole
 * process at the first call of cfx_test_count_boundary_waits (), which
 * also sets the count to 0; cfx_test_boundary_waits () reads it. */
void cfx_test_count_boundary_waits (void);
gint cfx_test_boundary_waits (void);

/* Loads one GStreamer plugin by name (libgst<name>.so) from the system
 * plugin directory (CUDAFX_GST_PLUGINS_DIR). */
gboolean cfx_test_load_system_plugin (const gchar * name);

/* TRUE if a CUDA device is usable. */
gboolean cfx_test_have_gpu (void);

/* For GPU suites: the exit code to use when there is no GPU. */
int cfx_test_no_gpu_exit (const gchar * suite);

/* Runs a suite with CK_FORK=no */
int cfx_test_run_suite (Suite * s);

/* The whole main() of a GPU suite: init, the no-GPU exit (77, or a
 * failure with CUDAFX_REQUIRE_GPU=1) named @name, then @make's suite */
int cfx_test_gpu_main (int *argc, char ***argv, const gchar * name,
    Suite * (*make) (void));

/* splitmix64: the next 64 random bits of @state */
guint64 cfx_test_splitmix64 (guint64 * state);
/* A standard normal sample from @state (Box-Muller over splitmix64: the
 * noise of tests/reference/degrain-quality.c) */
double cfx_test_gauss (guint64 * state);
/* @v rounded to nearest and clipped to 0 .. 255 */
guint8 cfx_test_clip_u8 (double v);

/* Deterministic fast random bytes */
void cfx_test_fill_random (guint8 * data, gsize size, guint64 seed);

/* A system-memory video buffer of @info (default layout, with video meta)
 * filled with random bytes from @seed. */
GstBuffer *cfx_test_random_frame (const GstVideoInfo * info, guint64 seed);

/* Compares the visible bytes of every plane of two mapped frames; reports
 * the first difference with g_print and returns FALSE on any. */
gboolean cfx_test_frames_equal (GstVideoFrame * a, GstVideoFrame * b,
    const gchar * what);

/* ---- pipelines ending in an appsink ----------------------------------- */

/* Tests run in one process (CK_FORK=no): a failed check leaves its test at
 * once, its pipeline still playing, and the next test's end (which waits
 * for every streaming task) would wait for ever. So every pipeline
 * cfx_test_start_pipeline starts, and any given to cfx_test_track_pipeline,
 * is recorded, and the fixture of cfx_test_tcase sets what is left to NULL
 * after each test (a failure is then reported instead of hanging). */
GstElement *cfx_test_track_pipeline (GstElement * pipeline);
void cfx_test_stop_pipelines (void);
/* tcase_create with that fixture: every suite's test cases use it */
TCase *cfx_test_tcase (const gchar * name);

/* Parses @launch and sets it PLAYING (@ret: what that returned); tracked */
GstElement *cfx_test_start_pipeline (const gchar * launch,
    GstStateChangeReturn * ret);
/* Fails with the pipeline's error message, if it posted one (an error
 * does not wake an appsink: callers waiting on one must look) */
void cfx_test_fail_on_error (GstElement * pipeline, const gchar * what);
/* The next sample of @appsink, NULL at EOS; fails on an error or after
 * @timeout_s seconds without a sample */
GstSample *cfx_test_next_sample (GstElement * pipeline, GstElement * appsink,
    guint timeout_s, const gchar * what);
/* Every sample of @pipeline's appsink @sink_name up to EOS */
GPtrArray *cfx_test_collect_samples (GstElement * pipeline,
    const gchar * sink_name, guint timeout_s, const gchar * what);
/* Runs @launch to EOS (it must start): the samples of its appsink
 * @sink_name; no error */
GPtrArray *cfx_test_run_samples (const gchar * launch,
    const gchar * sink_name, guint timeout_s);
/* @got has @want's frames: as many, each with the same visible bytes in
 * every plane and, with @timestamps, the same format and PTS */
void cfx_test_check_samples_equal (GPtrArray * got, GPtrArray * want,
    gboolean timestamps, const gchar * what);

/* Byte count of the visible part of row of plane @p */
gsize cfx_test_plane_row_bytes (const GstVideoInfo * info, guint p);
/* Bytes from a pixel group's start to component @c's sample in its plane.
 * GStreamer 1.22 gives P010/P012/P016's V the offset 1 of NV12, inside
 * U's 2-byte sample: V is sample 1 of the pair, byte 2 */
gint cfx_test_comp_byte_offset (const GstVideoFormatInfo * finfo, guint c);

G_END_DECLS

#endif
