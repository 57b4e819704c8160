/* Benchmark section: cudadeinterlace (in progress) */
#include "cudafx-bench.h"

void
bench_section_deinterlace (void)
{
}
