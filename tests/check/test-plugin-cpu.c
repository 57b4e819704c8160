/* CPU suite: plugin-cpu (in progress) */
#include "cfx-test.h"

int
main (int argc, char **argv)
{
  if (!cfx_test_init (&argc, &argv))
    return 1;
  return 0;
}
