/* Degrain quality harness (kernels/degrain.md, issue cudadegrain).
 *
 * Usage: degrain-quality DIR
 * DIR holds camera.pgm, astronaut.pgm, coffee.pgm (binary 8-bit PGM, written
 * by tests/reference/skimage-images.py). Missing images: exit 77 (skip).
 *
 * For every image and sigma 5, 10, 20 it adds white Gaussian noise
 * (splitmix64, Box-Muller; noisy = clip (floor (x + sigma * n + 0.5), 0,
 * 255), seed 1 + 100 * image index + sigma, so the numbers are reproducible
 * without numpy), estimates sigma with cfx_ref_degrain_estimate_sigma, and
 * runs the reference with
 *   soft:   strength 1, 4 levels, auto sigma;
 *   wiener: strength 1, 5 levels, 9x9 window, auto sigma (the defaults);
 * PSNR against the clean image. Exit 1 if a bar of the issue is missed:
 *   auto sigma within 10 % of the true sigma (every image, sigma 5/10/20);
 *   mean PSNR over the images, sigma 10 / 20: soft >= 31.9 / 27.6 dB,
 *   wiener >= 33.5 / 29.4 dB. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfx-reference.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define N_IMAGES 3
#define N_SIGMAS 3

static const char *image_names[N_IMAGES] = { "camera", "astronaut", "coffee" };
static const int sigmas[N_SIGMAS] = { 5, 10, 20 };

/* index 1: sigma 10, index 2: sigma 20 */
static const double min_soft[N_SIGMAS] = { 0.0, 31.9, 27.6 };
static const double min_wiener[N_SIGMAS] = { 0.0, 33.5, 29.4 };

/* ---- PRNG and Gaussian noise ------------------------------------------- */

static uint64_t
splitmix64 (uint64_t * state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* one N(0, 1) sample: Box-Muller, cosine branch only */
static double
gauss (uint64_t * state)
{
  double u1 = ((splitmix64 (state) >> 11) + 1) * (1.0 / 9007199254740992.0);
  double u2 = (splitmix64 (state) >> 11) * (1.0 / 9007199254740992.0);

  return sqrt (-2.0 * log (u1)) * cos (2.0 * M_PI * u2);
}

static void
add_noise (uint8_t * out, const uint8_t * in, long n, double sigma,
    uint64_t seed)
{
  uint64_t state = seed;
  long i;

  for (i = 0; i < n; i++) {
    double v = floor (in[i] + sigma * gauss (&state) + 0.5);

    out[i] = v < 0.0 ? 0 : v > 255.0 ? 255 : (uint8_t) v;
  }
}

/* ---- PGM --------------------------------------------------------------- */

static int
pgm_int (FILE * f)
{
  int c, v = 0, any = 0;

  /* skip blanks and comments */
  for (;;) {
    c = fgetc (f);
    if (c == '#') {
      while (c != '\n' && c != EOF)
        c = fgetc (f);
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      break;
    }
  }
  while (c >= '0' && c <= '9') {
    v = v * 10 + (c - '0');
    any = 1;
    c = fgetc (f);
  }
  return any ? v : -1;
}

static uint8_t *
read_pgm (const char *path, int *w, int *h)
{
  FILE *f = fopen (path, "rb");
  uint8_t *data = NULL;
  int maxval;

  if (!f)
    return NULL;
  if (fgetc (f) != 'P' || fgetc (f) != '5')
    goto fail;
  *w = pgm_int (f);
  *h = pgm_int (f);
  maxval = pgm_int (f);         /* consumes the single blank after it */
  if (*w <= 0 || *h <= 0 || maxval != 255)
    goto fail;
  data = malloc ((long) *w * *h);
  if (!data || fread (data, 1, (long) *w * *h, f) != (size_t) ((long) *w * *h))
    goto fail;
  fclose (f);
  return data;

fail:
  free (data);
  fclose (f);
  return NULL;
}

/* ---- measurement ------------------------------------------------------- */

static double
psnr (const uint8_t * a, const uint8_t * b, long n)
{
  double se = 0.0;
  long i;

  for (i = 0; i < n; i++) {
    double d = (double) a[i] - b[i];

    se += d * d;
  }
  if (se == 0.0)
    return 99.0;
  return 10.0 * log10 (255.0 * 255.0 / (se / n));
}

int
main (int argc, char **argv)
{
  uint8_t *clean[N_IMAGES];
  int w[N_IMAGES], h[N_IMAGES];
  double sum_noisy[N_SIGMAS] = { 0 }, sum_soft[N_SIGMAS] = { 0 },
      sum_wiener[N_SIGMAS] = { 0 };
  int i, s, fail = 0;

  if (argc != 2) {
    fprintf (stderr, "usage: %s DIR (from skimage-images.py)\n", argv[0]);
    return 77;
  }

  for (i = 0; i < N_IMAGES; i++) {
    char path[4096];

    snprintf (path, sizeof (path), "%s/%s.pgm", argv[1], image_names[i]);
    clean[i] = read_pgm (path, &w[i], &h[i]);
    if (!clean[i]) {
      fprintf (stderr, "SKIP: cannot read %s\n", path);
      return 77;
    }
  }

  printf ("%-10s %5s %7s %6s %8s %8s %8s\n", "image", "sigma", "est",
      "est/s", "noisy", "soft", "wiener");

  for (s = 0; s < N_SIGMAS; s++) {
    for (i = 0; i < N_IMAGES; i++) {
      long n = (long) w[i] * h[i];
      uint8_t *noisy = malloc (n), *out = malloc (n);
      CfxRefPlane pn = { noisy, w[i], w[i], h[i] };
      CfxRefPlane po = { out, w[i], w[i], h[i] };
      CfxRefDegrainParams soft = { CFX_REF_SHRINK_SOFT, 4, 0.0f, 1.0f, 1.0f,
        0, 0
      };
      CfxRefDegrainParams wiener = { CFX_REF_SHRINK_WIENER, 5, 0.0f, 1.0f,
        1.0f, 0, 4
      };
      double est, p_noisy, p_soft, p_wiener, ratio;

      if (!noisy || !out) {
        fprintf (stderr, "out of memory\n");
        return 1;
      }

      add_noise (noisy, clean[i], n, sigmas[s], 1 + 100 * i + sigmas[s]);
      est = cfx_ref_degrain_estimate_sigma (&pn);
      ratio = est / sigmas[s];
      if (fabs (ratio - 1.0) > 0.10) {
        fprintf (stderr, "FAIL: %s sigma %d estimated %.3f\n",
            image_names[i], sigmas[s], est);
        fail = 1;
      }

      soft.sigma = (float) est;
      wiener.sigma = (float) est;
      p_noisy = psnr (noisy, clean[i], n);
      cfx_ref_degrain_plane (&po, &pn, &soft);
      p_soft = psnr (out, clean[i], n);
      cfx_ref_degrain_plane (&po, &pn, &wiener);
      p_wiener = psnr (out, clean[i], n);

      sum_noisy[s] += p_noisy;
      sum_soft[s] += p_soft;
      sum_wiener[s] += p_wiener;
      printf ("%-10s %5d %7.3f %6.3f %8.2f %8.2f %8.2f\n", image_names[i],
          sigmas[s], est, ratio, p_noisy, p_soft, p_wiener);
      fflush (stdout);

      free (noisy);
      free (out);
    }
  }

  printf ("\nmean PSNR (dB)  %8s %8s %8s   bar: %6s %6s\n", "noisy", "soft",
      "wiener", "soft", "wiener");
  for (s = 0; s < N_SIGMAS; s++) {
    double ns = sum_noisy[s] / N_IMAGES, ss = sum_soft[s] / N_IMAGES,
        ws = sum_wiener[s] / N_IMAGES;
    int ok = ss >= min_soft[s] && ws >= min_wiener[s];

    printf ("sigma %2d        %8.2f %8.2f %8.2f        %6.1f %6.1f %s\n",
        sigmas[s], ns, ss, ws, min_soft[s], min_wiener[s],
        ok ? "ok" : "MISSED");
    if (!ok)
      fail = 1;
  }

  for (i = 0; i < N_IMAGES; i++)
    free (clean[i]);
  printf ("%s\n", fail ? "FAIL" : "PASS");
  return fail;
}
