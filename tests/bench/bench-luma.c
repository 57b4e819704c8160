/* Benchmark section "luma": the cudaluma kernel against its floor (bytes
 * moved over the measured copy bandwidth) at 1080p, 4K and 8K, for 8-bit
 * (UYVY's luma to GRAY8) and 16-bit samples (P010's luma to GRAY16_LE,
 * scaled), each next to a cudaMemcpy of the same bytes; the 16-bit
 * kernel's share of its floor is held against the 8-bit one's. Planar
 * luma (I420's, GRAY16_LE's) is a copy of rows, also timed. */
#include <gst/gst.h>

#include "cudafx-kernels.h"
#include "cudafx-bench.h"

typedef struct
{
  CfxPlane src[BENCH_MAX_SETS], dst[BENCH_MAX_SETS];
  int src_lead;                 /* bytes from the allocation to src.data */
} LumaData;

static void
launch_luma (int set, void *data)
{
  LumaData *d = data;

  CHECK (cfx_luma_copy (d->dst[set], d->src[set], 0));
}

/* One row: @src and @dst describe the planes (data: NULL); returns the
 * kernel's share of the copy bandwidth, 0 if the row was left out */
static double
luma_row (const char *name, CfxPlane src, CfxPlane dst, int src_lead,
    double bytes)
{
  size_t src_size = (size_t) src.pitch * src.height;
  size_t dst_size = (size_t) dst.pitch * dst.height;
  int sets = bench_sets_for (src_size + dst_size), i;
  LumaData *d;
  double t;

  if (!bench_case_wanted (name))
    return 0;
  d = g_new0 (LumaData, 1);
  d->src_lead = src_lead;
  for (i = 0; i < sets; i++) {
    guint8 *s;

    d->src[i] = src;
    d->dst[i] = dst;
    CHECK (cudaMalloc ((void **) &s, src_size));
    CHECK (cudaMalloc ((void **) &d->dst[i].data, dst_size));
    CHECK (cudaMemset (s, i + 3, src_size));
    d->src[i].data = s + src_lead;
  }
  t = bench_time_kernel (launch_luma, d, sets);
  bench_print_kernel_row (name, t, bytes);
  bench_copy_row ("  cudaMemcpy D2D, same bytes", bytes);
  for (i = 0; i < sets; i++) {
    cudaFree (d->src[i].data - src_lead);
    cudaFree (d->dst[i].data);
  }
  g_free (d);
  return bytes / t / bench_copy_bandwidth;
}

void
bench_section_luma (void)
{
  const int sizes[][2] = { {1920, 1080}, {3840, 2160}, {7680, 4320} };
  const char *tags[] = { "1080p", "4K", "8K" };
  double share8[G_N_ELEMENTS (sizes)], share16[G_N_ELEMENTS (sizes)];
  guint s;

  bench_print_kernel_header ("cudaluma kernel (UYVY -> GRAY8), CUDA events");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1];
    /* UYVY's luma: every second byte from byte 1 */
    CfxPlane y = { NULL, GST_ROUND_UP_N (w * 2, 256), w, h, 1, 8, 0, 2, 1 };
    CfxPlane gray = { NULL, GST_ROUND_UP_N (w, 256), w, h, 1, 8, 0, 1, 0 };
    gchar *name = g_strdup_printf ("UYVY->Y %s", tags[s]);

    share8[s] = luma_row (name, y, gray, 1, 3.0 * w * h);
    g_free (name);
  }

  bench_print_kernel_header ("cudaluma kernel, 16-bit (P010 luma -> "
      "GRAY16_LE, scaled), CUDA events");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1], pitch = GST_ROUND_UP_N (w * 2, 256);
    CfxPlane y = { NULL, pitch, w, h, 2, 10, 6, 2, 0 };
    CfxPlane gray = { NULL, pitch, w, h, 2, 16, 0, 2, 0 };
    gchar *name = g_strdup_printf ("P010 Y->GRAY16 %s", tags[s]);

    share16[s] = luma_row (name, y, gray, 0, 4.0 * w * h);
    g_free (name);
  }

  bench_print_kernel_header ("cudaluma of planar luma (I420's to GRAY8, "
      "GRAY16_LE's to GRAY16_LE: copies), CUDA events");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1];
    CfxPlane y8 = { NULL, GST_ROUND_UP_N (w, 256), w, h, 1, 8, 0, 1, 0 };
    CfxPlane y16 = { NULL, GST_ROUND_UP_N (w * 2, 256), w, h, 2, 16, 0, 2,
      0
    };
    gchar *name = g_strdup_printf ("I420 Y->GRAY8 %s", tags[s]);

    luma_row (name, y8, y8, 0, 2.0 * w * h);
    g_free (name);
    name = g_strdup_printf ("GRAY16 Y->GRAY16 %s", tags[s]);
    luma_row (name, y16, y16, 0, 4.0 * w * h);
    g_free (name);
  }

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gchar *what = g_strdup_printf ("cudaluma %s (P010 against UYVY)",
        tags[s]);

    bench_target_depth (what, share16[s], share8[s]);
    g_free (what);
  }
}
