/* The suites' own harness (cfx-test.c), on the CPU: a failed check is
 * reported, it does not hang the suite.
 *
 * The suites run in one process (CK_FORK=no): a failed check leaves its
 * test at once, its pipeline still playing, and the next test's end waits
 * for every streaming task. cfx_test_tcase's fixture sets what a test left
 * to NULL. Here a child process (this program again, CFX_HARNESS_CHILD=1)
 * runs a suite whose first test fails a check with a live pipeline
 * playing; the test passes when the child ends by itself within its time
 * limit and reports exactly that one failure. */
#include "cfx-test.h"

#include <string.h>
#include <sys/wait.h>

static gchar *self_path;

/* ---- the child's suite ------------------------------------------------- */

GST_START_TEST (child_fails_while_playing)
{
  GstStateChangeReturn ret;
  GstElement *pipeline = cfx_test_start_pipeline ("videotestsrc is-live=true "
      "! video/x-raw,width=64,height=48,framerate=100/1 ! fakesink sync=true",
      &ret);

  fail_if (ret == GST_STATE_CHANGE_FAILURE);
  /* its streaming thread is running by now */
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          5 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  fail ("the deliberate failure, pipeline %p playing", pipeline);
}

GST_END_TEST;

GST_START_TEST (child_next_test)
{
  GstStateChangeReturn ret;
  GstElement *pipeline = cfx_test_start_pipeline ("videotestsrc "
      "num-buffers=3 ! fakesink", &ret);
  GstMessage *msg;

  fail_if (ret == GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      5 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
child_suite (void)
{
  Suite *s = suite_create ("harness child (fails on purpose)");
  TCase *tc = cfx_test_tcase ("child");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, child_fails_while_playing);
  tcase_add_test (tc, child_next_test);
  return s;
}

/* ---- the test ---------------------------------------------------------- */

GST_START_TEST (test_failed_check_does_not_hang)
{
  gchar **env = g_environ_setenv (g_get_environ (), "CFX_HARNESS_CHILD", "1",
      TRUE);
  gchar *argv[] = { (gchar *) "timeout", (gchar *) "60", self_path, NULL };
  gchar *out = NULL, *err = NULL;
  GError *error = NULL;
  gint status = 0;

  env = g_environ_unsetenv (env, "GST_CHECKS");
  fail_unless (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH, NULL,
          NULL, &out, &err, &status, &error), "%s",
      error ? error->message : "?");
  g_print ("child: %s%s", out, err);
  /* timeout(1) exits 124 when it had to stop the child: the hang */
  fail_if (WIFEXITED (status) && WEXITSTATUS (status) == 124,
      "the child suite hung after its failed check");
  fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 1,
      "the child ended with status %d", status);
  fail_unless (strstr (out, "Checks: 2, Failures: 1, Errors: 0") != NULL,
      "the child did not report its one failure");
  fail_unless (strstr (out, "the deliberate failure") != NULL);
  g_free (out);
  g_free (err);
  g_strfreev (env);
}

GST_END_TEST;

static Suite *
harness_suite (void)
{
  Suite *s = suite_create ("cfx-test harness (CPU)");
  TCase *tc = cfx_test_tcase ("harness");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_failed_check_does_not_hang);
  return s;
}

int
main (int argc, char **argv)
{
  self_path = g_canonicalize_filename (argv[0], NULL);
  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (g_getenv ("CFX_HARNESS_CHILD"))
    return cfx_test_run_suite (child_suite ());
  return cfx_test_run_suite (harness_suite ());
}
