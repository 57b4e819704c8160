/* Benchmark section: cudadegrain (in progress) */
#include "cudafx-bench.h"

void
bench_section_degrain (void)
{
}
