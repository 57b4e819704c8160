/* Runs the temporal degrain reference over a raw clip, for the quality
 * harness (tests/temporal/quality.py --method):
 *
 *   cfx-temporal-ref WIDTH HEIGHT RADIUS SIGMA IN.raw OUT.raw
 *
 * IN.raw: 8-bit luma frames of WIDTH x HEIGHT back to back; OUT.raw the
 * same number of denoised frames. SIGMA <= 0: estimated per frame. */
#include <stdio.h>
#include <stdlib.h>

#include "cfx-reference.h"

int
main (int argc, char **argv)
{
  FILE *f;
  uint8_t *clip, *out;
  const uint8_t **frames;
  long size;
  size_t frame;
  int w, h, radius, n, t;
  float sigma;

  if (argc != 7) {
    fprintf (stderr, "usage: %s WIDTH HEIGHT RADIUS SIGMA IN.raw OUT.raw\n",
        argv[0]);
    return 2;
  }
  w = atoi (argv[1]);
  h = atoi (argv[2]);
  radius = atoi (argv[3]);
  sigma = (float) atof (argv[4]);
  frame = (size_t) w * h;
  if (w <= 0 || h <= 0 || radius < 0 || !(f = fopen (argv[5], "rb"))) {
    fprintf (stderr, "bad arguments or unreadable %s\n", argv[5]);
    return 2;
  }
  fseek (f, 0, SEEK_END);
  size = ftell (f);
  rewind (f);
  if (size <= 0 || size % frame) {
    fprintf (stderr, "%s: %ld bytes, not whole %dx%d frames\n", argv[5], size,
        w, h);
    return 1;
  }
  n = (int) (size / frame);
  clip = malloc (size);
  out = malloc (size);
  frames = malloc (n * sizeof (*frames));
  if (!clip || !out || !frames || fread (clip, 1, size, f) != (size_t) size)
    return 1;
  fclose (f);
  for (t = 0; t < n; t++)
    frames[t] = clip + t * frame;
  for (t = 0; t < n; t++)
    cfx_ref_temporal_degrain (out + t * frame, frames, n, t, w, h, radius,
        sigma);
  if (!(f = fopen (argv[6], "wb")) || fwrite (out, 1, size, f) != (size_t) size
      || fclose (f)) {
    fprintf (stderr, "cannot write %s\n", argv[6]);
    return 1;
  }
  free (clip);
  free (out);
  free (frames);
  return 0;
}
