/* GPU suite for cudablur (in progress) */
#include "cfx-test.h"

int
main (int argc, char **argv)
{
  if (!cfx_test_init (&argc, &argv))
    return 1;
  if (!cfx_test_have_gpu ())
    return cfx_test_no_gpu_exit ("blur");
  return 0;
}
