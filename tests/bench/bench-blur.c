/* Benchmark section: cudablur (in progress) */
#include "cudafx-bench.h"

void
bench_section_blur (void)
{
}
