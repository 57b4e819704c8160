/* Helpers shared by the CPU references. */
#include "cfx-reference.h"

int
cfx_ref_mirror (int i, int n)
{
  int period;

  if (n <= 1)
    return 0;
  period = 2 * (n - 1);
  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - i;
}
