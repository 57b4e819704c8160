/* Runs a deinterlacing reference over a raw interlaced clip, for the
 * quality harness (tests/deinterlace/quality.py):
 *
 *   cfx-deinterlace-ref METHOD FORMAT WIDTH HEIGHT FIELDS IN.raw OUT.raw
 *
 * METHOD: bwdif, yadif (deinterlace.c) or mc (deinterlace-mc.c);
 * FORMAT: gray8, gray16 (16-bit little-endian samples, 10 significant
 * bits), i420 or i420p10 (the same two depths, 4:2:0 planes back to back);
 * FIELDS: all (two output frames per input frame, the first field first),
 * tff or bff (all, with that field order), top or bottom (one output per
 * frame, that field kept). Top field first unless bff. Frames of IN.raw
 * are back to back; OUT.raw gets the output frames in time order.
 *
 * Stream ends as test-deinterlace-ref.c drives them: P = F[max (i - 1,
 * 0)], N = F[min (i + 1, last)] for bwdif and yadif (mc gets NULL there);
 * bwdif's intra-only fields: the first output field of frame 0 and the
 * second of the last frame. CFX_MC_INFO set: mc prints each field's side
 * costs and cut decisions on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deinterlace-mc.h"

static void
frame_at (CfxRefMcFrame * f, uint8_t * base, int w, int h, int planes,
    int depth)
{
  int bps = depth > 8 ? 2 : 1, i;
  size_t off = 0;

  memset (f, 0, sizeof (*f));
  f->n_planes = planes;
  f->depth = depth;
  for (i = 0; i < planes; i++) {
    f->width[i] = i ? (w + 1) / 2 : w;
    f->height[i] = i ? (h + 1) / 2 : h;
    f->stride[i] = f->width[i];
    f->data[i] = base + off;
    off += (size_t) f->width[i] * f->height[i] * bps;
  }
}

static size_t
frame_bytes (int w, int h, int planes, int depth)
{
  size_t n = (size_t) w * h;

  if (planes == 3)
    n += 2 * (size_t) ((w + 1) / 2) * ((h + 1) / 2);
  return n * (depth > 8 ? 2 : 1);
}

static void
run_field (const char *method, const CfxRefMcFrame * dst,
    const CfxRefMcFrame * prev, const CfxRefMcFrame * cur,
    const CfxRefMcFrame * next, int parity, int tff, int intra_only)
{
  if (!strcmp (method, "mc")) {
    CfxRefMcInfo info;

    cfx_ref_deinterlace_mc (dst, prev, cur, next, parity, tff, intra_only,
        &info);
    /* the decisions, for tuning the cut threshold */
    if (getenv ("CFX_MC_INFO"))
      fprintf (stderr, "mc: cost %d %d cut %d %d\n", info.mean_cost[0],
          info.mean_cost[1], info.cut[0], info.cut[1]);
    return;
  }
  if (!prev)
    prev = cur;
  if (!next)
    next = cur;
  cfx_ref_deinterlace_frame (dst, prev, cur, next, parity, tff,
      !strcmp (method, "yadif") ? CFX_REF_DEINT_YADIF : CFX_REF_DEINT_BWDIF,
      intra_only);
}

int
main (int argc, char **argv)
{
  const char *method, *format, *fields;
  int w, h, planes, depth, n, t, k, tff, per_frame;
  size_t fb;
  long size;
  uint8_t *clip, *out;
  CfxRefMcFrame *frames, dst;
  FILE *f;

  if (argc != 8) {
    fprintf (stderr, "usage: %s bwdif|yadif|mc gray8|gray16|i420|i420p10 "
        "WIDTH HEIGHT all|tff|bff|top|bottom IN.raw OUT.raw\n", argv[0]);
    return 2;
  }
  method = argv[1];
  format = argv[2];
  w = atoi (argv[3]);
  h = atoi (argv[4]);
  fields = argv[5];
  planes = !strncmp (format, "i420", 4) ? 3 : 1;
  depth = !strcmp (format, "gray16") || !strcmp (format, "i420p10") ? 10 : 8;
  tff = strcmp (fields, "bff") != 0;
  per_frame = !strcmp (fields, "top") || !strcmp (fields, "bottom") ? 1 : 2;
  if (strcmp (method, "bwdif") && strcmp (method, "yadif")
      && strcmp (method, "mc")) {
    fprintf (stderr, "unknown method %s\n", method);
    return 2;
  }
  fb = frame_bytes (w, h, planes, depth);
  if (w <= 0 || h <= 0 || !(f = fopen (argv[6], "rb"))) {
    fprintf (stderr, "bad arguments or unreadable %s\n", argv[6]);
    return 2;
  }
  fseek (f, 0, SEEK_END);
  size = ftell (f);
  rewind (f);
  if (size <= 0 || size % fb) {
    fprintf (stderr, "%s: %ld bytes, not whole frames of %zu\n", argv[6],
        size, fb);
    return 1;
  }
  n = (int) (size / fb);
  clip = malloc (size);
  out = malloc (fb * per_frame * n);
  frames = calloc (n, sizeof (*frames));
  if (!clip || !out || !frames || fread (clip, 1, size, f) != (size_t) size)
    return 1;
  fclose (f);
  for (t = 0; t < n; t++)
    frame_at (&frames[t], clip + t * fb, w, h, planes, depth);
  for (t = 0; t < n; t++)
    for (k = 0; k < per_frame; k++) {
      /* output field k of the frame: the first in time, then the second */
      int first = per_frame == 2 ? k == 0 : ((strcmp (fields, "top") == 0) == tff);
      int parity = per_frame == 2 ? tff ^ first : !strcmp (fields, "bottom");
      int intra = (t == 0 && first) || (t == n - 1 && !first);

      frame_at (&dst, out + (t * per_frame + k) * fb, w, h, planes, depth);
      run_field (method, &dst, t > 0 ? &frames[t - 1] : NULL, &frames[t],
          t + 1 < n ? &frames[t + 1] : NULL, parity, tff, intra);
    }
  if (!(f = fopen (argv[7], "wb"))
      || fwrite (out, 1, fb * per_frame * n, f) != fb * per_frame * n
      || fclose (f)) {
    fprintf (stderr, "cannot write %s\n", argv[7]);
    return 1;
  }
  free (clip);
  free (out);
  free (frames);
  return 0;
}
