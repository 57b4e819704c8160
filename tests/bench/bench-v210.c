/* Benchmark section "v210": the v210 unpack and pack kernels against
 * their floor (bytes moved over the measured copy bandwidth), at 1080p, 4K
 * and 8K. */
#include <gst/gst.h>

#include "cudafx-kernels.h"
#include "cudafx-bench.h"

typedef struct
{
  guint8 *v210[BENCH_MAX_SETS];
  CfxPlane planes[BENCH_MAX_SETS][3];
  int pitch, width, height;
} V210Data;

static void
launch_unpack (int set, void *data)
{
  V210Data *d = data;
  CfxPlane *p = d->planes[set];

  CHECK (cfx_v210_unpack (p[0], p[1], p[2], d->v210[set], d->pitch,
          d->width, d->height, 0));
}

static void
launch_pack (int set, void *data)
{
  V210Data *d = data;
  CfxPlane *p = d->planes[set];

  CHECK (cfx_v210_pack (d->v210[set], d->pitch, p[0], p[1], p[2], d->width,
          d->height, 0));
}

/* 16-bit planes (I422_10LE) with 256-byte pitches, as device frames have */
static void
make_planes (CfxPlane p[3], int w, int h, int depth, int shift)
{
  int i;

  for (i = 0; i < 3; i++) {
    int pw = i == 0 ? w : (w + 1) / 2;
    CfxPlane one = { NULL, GST_ROUND_UP_N (pw * 2, 256), pw, h, 2, depth,
      shift, 2, 0
    };

    p[i] = one;
    CHECK (cudaMalloc ((void **) &p[i].data, (size_t) one.pitch * h));
    CHECK (cudaMemset (p[i].data, 0x11 * (i + 1), (size_t) one.pitch * h));
  }
}

void
bench_section_v210 (void)
{
  const int sizes[][2] = { {1920, 1080}, {3840, 2160}, {7680, 4320} };
  const char *tags[] = { "1080p", "4K", "8K" };
  guint s;

  bench_print_kernel_header ("v210 <-> I422_10LE kernels, CUDA events "
      "(floor: 16 v210 + 24 planar bytes per 6 pixels)");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1], i;
    V210Data *d = g_new0 (V210Data, 1);
    double bytes = ((w + 5) / 6) * (16.0 + 24.0) * h, t;
    int sets;
    gchar *name;

    d->width = w;
    d->height = h;
    d->pitch = cfx_v210_pitch (w);
    sets = bench_sets_for ((size_t) d->pitch * h + (size_t) w * 4 * h);
    for (i = 0; i < sets; i++) {
      CHECK (cudaMalloc ((void **) &d->v210[i], (size_t) d->pitch * h));
      CHECK (cudaMemset (d->v210[i], 0x25, (size_t) d->pitch * h));
      make_planes (d->planes[i], w, h, 10, 0);
    }
    name = g_strdup_printf ("unpack v210 %s", tags[s]);
    if (bench_case_wanted (name)) {
      t = bench_time_kernel (launch_unpack, d, sets);
      bench_print_kernel_row (name, t, bytes);
    }
    g_free (name);
    name = g_strdup_printf ("pack v210 %s", tags[s]);
    if (bench_case_wanted (name)) {
      t = bench_time_kernel (launch_pack, d, sets);
      bench_print_kernel_row (name, t, bytes);
    }
    g_free (name);
    bench_copy_row ("  cudaMemcpy D2D, same bytes", bytes);
    for (i = 0; i < sets; i++) {
      cudaFree (d->v210[i]);
      cudaFree (d->planes[i][0].data);
      cudaFree (d->planes[i][1].data);
      cudaFree (d->planes[i][2].data);
    }
    g_free (d);
  }
}
