/* CPU test of the deinterlace kernel's logic (no GPU needed): every thread
 * of a launch is run on the CPU (cfx_deinterlace_frame_emulate, the same
 * __host__ __device__ code the GPU runs, minus the intrinsics and the
 * launch) and every sample is compared with the reference
 * (tests/reference/deinterlace.c): all methods, parities, field orders,
 * spatial check on and off, bwdif's intra fields, the four plane layouts
 * (and the formats that share them: NV21, VYUY, YVYU, components in any
 * order), several planes in one launch, minimum, odd and even sizes, long
 * and short strips (window warm-up and sliding), the word and the byte
 * paths, random, smooth and nearly-still content, and no write past a
 * row on the byte path. Then the GPU's launch math
 * (cfx_deinterlace_frame_spread) for 1/8 of a wave to 4 waves of a few
 * blocks, launches of more blocks than one wave included, and the waves
 * it must refuse; then the host code's grouping of components into
 * planes: every arrangement it must refuse.
 *
 * Exit status: 0 pass, 1 fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudafx-kernels.h"
#include "cudafx-testing.h"
#include "cfx-reference.h"
#include "deinterlace-emulate.h"

#define POISON 0xa5

static uint64_t rng_state = 88172645463325252ull;

static uint32_t
rng (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t) (rng_state >> 11);
}

static long failures, checked;

/* The arrangements of a plane's components, as GStreamer describes them:
 * component k at byte offset[k] of each pixel group, step[k] bytes apart,
 * full[k]: as many samples as the plane is wide (else (w + 1) / 2: packed
 * chroma). kernel: the kernel's layout (which the four first are). */
typedef struct
{
  const char *name;
  int n, offset[3], step[3], full[3];
  int kernel;
} Layout;

enum
{ K_PLANAR, K_PAIRS, K_UYVY, K_YUY2 };

static const Layout layouts[] = {
  {"planar", 1, {0}, {1}, {1}, K_PLANAR},
  {"NV12 UV", 2, {0, 1}, {2, 2}, {1, 1}, K_PAIRS},
  {"UYVY", 3, {1, 0, 2}, {2, 4, 4}, {1, 0, 0}, K_UYVY},
  {"YUY2", 3, {0, 1, 3}, {2, 4, 4}, {1, 0, 0}, K_YUY2},
  {"NV21 VU", 2, {1, 0}, {2, 2}, {1, 1}, K_PAIRS},
  {"VYUY", 3, {1, 2, 0}, {2, 4, 4}, {1, 0, 0}, K_UYVY},
  {"YVYU", 3, {0, 3, 1}, {2, 4, 4}, {1, 0, 0}, K_YUY2},
};

#define N_KERNEL_LAYOUTS 4
#define N_LAYOUTS ((int) (sizeof (layouts) / sizeof (layouts[0])))

static int
row_bytes (const Layout * l, int w)
{
  return l->kernel == K_PLANAR ? w : l->kernel == K_PAIRS ? 2 * w :
      4 * ((w + 1) / 2);
}

static int
comp_width (const Layout * l, int k, int w)
{
  return l->full[k] ? w : (w + 1) / 2;
}

/* kind: 0 random, 1 smooth with noise, 2 low contrast, 3 nearly still */
static void
fill (uint8_t * p, int pitch, int h, int kind, const uint8_t * base)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < pitch; x++) {
      int v;

      switch (kind) {
        case 0:
          v = rng () & 255;
          break;
        case 1:
          v = (x * 7 + y * 13 + (int) (rng () % 9)) & 255;
          break;
        case 2:
          v = 120 + (int) (rng () % 12);
          break;
        default:
          v = base ? base[y * pitch + x] + (rng () % 5 == 0 ?
              (int) (rng () % 3) : 0) : (int) (rng () & 255);
          break;
      }
      p[y * pitch + x] = (uint8_t) v;
    }
}

/* One plane of a case: its layout and size, and its frames in memory */
typedef struct
{
  int layout, w, h;
  int pitch;
  uint8_t *mem[4], *f[4];       /* P, C, N, D */
} Plane;

#define MAX_CASE_PLANES 3

/* where set (wave > 0), run_case launches as the GPU would for @waves
 * waves of @wave blocks (cfx_deinterlace_frame_emulate_waves) instead of
 * for a target thread count */
static struct
{
  long wave;
  double waves;
  long launches, past_one_wave;
} shape;

/* One launch over @n planes; the components go to the kernel in the
 * order rotated by @rot. */
static void
run_case (CfxDeintMethod method, Plane * pl, int n, int parity, int tff,
    int sc, int intra, int kind, int aligned, int target, int rot)
{
  CfxDeintComponent comps[CFX_DEINT_MAX_COMPONENTS + 3];
  CfxDeintField f = { method, parity, tff, sc, intra };
  int n_comps = 0, p, c, i, x, y;

  for (p = 0; p < n; p++) {
    const Layout *l = &layouts[pl[p].layout];
    int rb = row_bytes (l, pl[p].w);
    size_t size;

    pl[p].pitch = aligned ? (rb + 255) / 256 * 256 : rb + 3;
    size = (size_t) pl[p].pitch * pl[p].h;
    for (i = 0; i < 4; i++) {
      pl[p].mem[i] = aligned_alloc (256, (size + 16 + 255) / 256 * 256);
      /* the byte path: bases one byte in */
      pl[p].f[i] = pl[p].mem[i] + !aligned;
    }
    fill (pl[p].f[1], pl[p].pitch, pl[p].h, kind, NULL);
    fill (pl[p].f[0], pl[p].pitch, pl[p].h, kind, kind == 3 ? pl[p].f[1] :
        NULL);
    fill (pl[p].f[2], pl[p].pitch, pl[p].h, kind, kind == 3 ? pl[p].f[1] :
        NULL);
    memset (pl[p].f[3], POISON, size);
    for (c = 0; c < l->n; c++) {
      CfxPlane *fr[4] = { &comps[n_comps].prev, &comps[n_comps].cur,
        &comps[n_comps].next, &comps[n_comps].dst
      };
      for (i = 0; i < 4; i++)
        *fr[i] = cfx_plane_8bit (pl[p].f[i] + l->offset[c], pl[p].pitch,
            comp_width (l, c, pl[p].w), pl[p].h, l->step[c], l->offset[c]);
      n_comps++;
    }
  }
  /* any order of the components makes the same planes */
  for (i = 0; i < rot % n_comps; i++) {
    CfxDeintComponent first = comps[0];
    memmove (&comps[0], &comps[1], (n_comps - 1) * sizeof (comps[0]));
    comps[n_comps - 1] = first;
  }

  if (shape.wave > 0) {
    long blocks = cfx_deinterlace_frame_emulate_waves (comps, n_comps, &f,
        shape.wave, shape.waves);

    shape.launches++;
    shape.past_one_wave += blocks > shape.wave;
    if (blocks < 1) {
      printf ("FAIL: method %d, %g waves of %ld blocks refused\n", method,
          shape.waves, shape.wave);
      failures++;
      goto out;
    }
  } else if (cfx_deinterlace_frame_emulate (comps, n_comps, &f, target)
      != 0) {
    printf ("FAIL: method %d, %d planes (%s %dx%d first) refused\n", method,
        n, layouts[pl[0].layout].name, pl[0].w, pl[0].h);
    failures++;
    goto out;
  }

  for (p = 0; p < n; p++) {
    const Layout *l = &layouts[pl[p].layout];
    int h = pl[p].h, pitch = pl[p].pitch, rb = row_bytes (l, pl[p].w);
    uint8_t *P = pl[p].f[0], *C = pl[p].f[1], *N = pl[p].f[2];
    uint8_t *D = pl[p].f[3];

    for (c = 0; c < l->n; c++) {
      int off = l->offset[c], step = l->step[c];
      int cw = comp_width (l, c, pl[p].w);
      uint8_t *buf[4];
      CfxRefPlane rp[4];
      long bad = 0;

      for (i = 0; i < 4; i++) {
        buf[i] = malloc ((size_t) cw * h);
        rp[i] = (CfxRefPlane) {
        buf[i], cw, cw, h};
      }
      for (y = 0; y < h; y++)
        for (x = 0; x < cw; x++) {
          buf[0][y * cw + x] = P[y * pitch + off + x * step];
          buf[1][y * cw + x] = C[y * pitch + off + x * step];
          buf[2][y * cw + x] = N[y * pitch + off + x * step];
        }
      cfx_ref_deinterlace_plane (&rp[3], &rp[0], &rp[1], &rp[2], parity,
          tff, (CfxRefDeintMethod) method, sc, intra);
      for (y = 0; y < h; y++)
        for (x = 0; x < cw; x++) {
          int got = D[y * pitch + off + x * step], want = buf[3][y * cw + x];

          checked++;
          if (got != want && bad++ < 3)
            printf ("FAIL: method %d %s %dx%d (plane %d of %d, rotated %d) "
                "parity %d tff %d sc %d intra %d kind %d aligned %d target "
                "%d component %d x=%d y=%d: got %d, reference %d\n", method,
                l->name, pl[p].w, h, p, n, rot, parity, tff, sc, intra, kind,
                aligned, target, c, x, y, got, want);
        }
      failures += bad != 0;
      for (i = 0; i < 4; i++)
        free (buf[i]);
    }
    /* the byte path stops at the row's end */
    if (!aligned)
      for (y = 0; y < h; y++)
        for (x = rb; x < pitch; x++)
          if (D[y * pitch + x] != POISON) {
            printf ("FAIL: row padding written at x=%d y=%d\n", x, y);
            failures++;
            y = h;
            break;
          }
  }
out:
  for (p = 0; p < n; p++)
    for (i = 0; i < 4; i++)
      free (pl[p].mem[i]);
}

static void
run_one (CfxDeintMethod method, int layout, int w, int h, int parity,
    int tff, int sc, int intra, int kind, int aligned, int target, int rot)
{
  Plane pl = { layout, w, h };

  run_case (method, &pl, 1, parity, tff, sc, intra, kind, aligned, target, rot);
}

static int
size_ok (CfxDeintMethod m, int layout, int w, int h)
{
  int min_w, min_h, cw = layouts[layout].kernel >= K_UYVY ? (w + 1) / 2 : w;

  cfx_deinterlace_min_size (m, 1, &min_w, &min_h);
  return w >= min_w && cw >= min_w && h >= min_h;
}

/* ---- components the kernel must refuse ----------------------------------- */

static uint8_t arena[4][4096];

/* A UYVY-like plane of 8x6 pixels in all four frames: Y, U, V */
static int
uyvy_comps (CfxDeintComponent * comps)
{
  static const int off[3] = { 1, 0, 2 }, step[3] = { 2, 4, 4 };
  int c, i;

  for (c = 0; c < 3; c++) {
    CfxPlane *fr[4] = { &comps[c].prev, &comps[c].cur, &comps[c].next,
      &comps[c].dst
    };
    for (i = 0; i < 4; i++)
      *fr[i] = cfx_plane_8bit (arena[i] + off[c], 64, c ? 4 : 8, 6, step[c],
          off[c]);
  }
  return 3;
}

/* Planar components of 8x6, each its own plane at @i * 512 of each frame */
static void
planar_comp (CfxDeintComponent * comp, int i)
{
  comp->prev = cfx_plane_8bit (arena[0] + 512 * i, 64, 8, 6, 1, 0);
  comp->cur = cfx_plane_8bit (arena[1] + 512 * i, 64, 8, 6, 1, 0);
  comp->next = cfx_plane_8bit (arena[2] + 512 * i, 64, 8, 6, 1, 0);
  comp->dst = cfx_plane_8bit (arena[3] + 512 * i, 64, 8, 6, 1, 0);
}

static void
expect (int want_ok, const CfxDeintComponent * comps, int n, const char *what)
{
  CfxDeintField f = { CFX_DEINT_LINEAR, 0, 1, 1, 0 };
  int got = cfx_deinterlace_frame_emulate (comps, n, &f, 64);

  if ((got == 0) != want_ok) {
    printf ("FAIL: %s: %s\n", what, want_ok ? "refused" : "accepted");
    failures++;
  }
}

static void
test_refusals (void)
{
  CfxDeintComponent c[CFX_DEINT_MAX_COMPONENTS + 1];
  int i;

  uyvy_comps (c);
  expect (1, c, 3, "UYVY");
  expect (0, c, 0, "no component");
  expect (0, c, 2, "packed 4:2:2 without its V");
  expect (0, c + 1, 2, "packed chroma alone");
  uyvy_comps (c);
  c[0].cur.bytes = c[0].prev.bytes = c[0].next.bytes = c[0].dst.bytes = 2;
  expect (0, c, 3, "16-bit samples");
  uyvy_comps (c);
  c[0].dst.bytes = 2;
  expect (0, c, 3, "16-bit output samples");
  uyvy_comps (c);
  c[1].cur.width = 5;
  expect (0, c, 3, "chroma of another width in cur");
  uyvy_comps (c);
  for (i = 1; i < 3; i++)
    c[i].prev.width = c[i].cur.width = c[i].next.width = c[i].dst.width = 5;
  expect (0, c, 3, "chroma not (w + 1) / 2 wide");
  uyvy_comps (c);
  c[2].prev.height = c[2].cur.height = c[2].next.height = c[2].dst.height = 5;
  expect (0, c, 3, "chroma of another height");
  uyvy_comps (c);
  /* V at U's offset: two chroma at byte 0 */
  c[2].prev.data -= 2, c[2].cur.data -= 2, c[2].next.data -= 2;
  c[2].dst.data -= 2;
  c[2].prev.offset = c[2].cur.offset = c[2].next.offset = c[2].dst.offset = 0;
  expect (0, c, 3, "both chroma at one offset");
  uyvy_comps (c);
  /* luma at the even bytes with chroma at 0 and 2 */
  for (i = 0; i < 3; i++) {
    CfxPlane *fr[4] = { &c[i].prev, &c[i].cur, &c[i].next, &c[i].dst };
    int j;
    for (j = 0; j < 4; j++) {
      if (i == 0) {
        fr[j]->data -= 1;
        fr[j]->offset = 0;
      }
    }
  }
  expect (0, c, 3, "luma and chroma at even bytes");
  uyvy_comps (c);
  c[0].next.pitch = 128;
  expect (0, c, 3, "a component's frames of different pitches");
  uyvy_comps (c);
  c[1].next.data += 256;
  expect (0, c, 3, "a component apart from its plane in one frame");
  uyvy_comps (c);
  c[1].cur.step = c[1].prev.step = c[1].next.step = c[1].dst.step = 3;
  expect (0, c, 3, "step 3");
  uyvy_comps (c);
  c[0].cur.data = NULL;
  expect (0, c, 3, "no data");

  /* NV12's UV plane: pairs at 0 and 1 only */
  for (i = 0; i < 2; i++) {
    CfxPlane *fr[4] = { &c[i].prev, &c[i].cur, &c[i].next, &c[i].dst };
    int j;
    for (j = 0; j < 4; j++)
      *fr[j] = cfx_plane_8bit (arena[j] + i, 64, 8, 6, 2, i);
  }
  expect (1, c, 2, "UV pairs");
  expect (0, c, 1, "U of a pair alone");
  c[1].prev = c[0].prev, c[1].cur = c[0].cur, c[1].next = c[0].next;
  c[1].dst = c[0].dst;
  expect (0, c, 2, "both of a pair at offset 0");

  /* planes: at most three */
  for (i = 0; i < 4; i++)
    planar_comp (&c[i], i);
  expect (1, c, 3, "three planar planes");
  expect (0, c, 4, "four planar planes");
  for (i = 0; i < CFX_DEINT_MAX_COMPONENTS + 1; i++)
    planar_comp (&c[i], i % 2);
  expect (0, c, CFX_DEINT_MAX_COMPONENTS + 1, "too many components");
  /* two planar components in one plane */
  planar_comp (&c[0], 0);
  planar_comp (&c[1], 0);
  expect (0, c, 2, "two step-1 components sharing a plane");
  /* a step-1 component that is not where its plane's rows start */
  planar_comp (&c[0], 0);
  c[0].prev.data += 3, c[0].cur.data += 3, c[0].next.data += 3;
  c[0].dst.data += 3;
  c[0].prev.offset = c[0].cur.offset = c[0].next.offset = 3;
  c[0].dst.offset = 3;
  expect (1, c, 1, "a planar component 3 bytes into its rows");
}

int
main (void)
{
  static const int sizes[][2] = { {1, 2}, {2, 2}, {3, 3}, {3, 4}, {4, 4},
  {5, 5}, {6, 5}, {7, 9}, {16, 8}, {17, 11}, {33, 20}, {40, 31}, {64, 64},
  {100, 37}, {130, 70},
  /* wide enough for warps (32 words) with no edge column */
  {300, 13}, {517, 10}
  };
  int m, layout, s, parity, tff, sc, intra, kind;

  for (m = 0; m < 4; m++)
    for (layout = 0; layout < N_KERNEL_LAYOUTS; layout++)
      for (s = 0; s < (int) (sizeof (sizes) / sizeof (sizes[0])); s++)
        for (parity = 0; parity < 2; parity++)
          for (tff = 0; tff < 2; tff++)
            for (sc = 0; sc < 2; sc++)
              for (intra = 0; intra < 2; intra++) {
                int w = sizes[s][0], h = sizes[s][1];

                if (!size_ok ((CfxDeintMethod) m, layout, w, h))
                  continue;
                if ((m != CFX_DEINT_YADIF && !sc)
                    || (m != CFX_DEINT_BWDIF && intra))
                  continue;
                for (kind = 0; kind < 4; kind++) {
                  /* one long strip per column, one-pair strips, and
                   * strips of a few pairs */
                  run_one ((CfxDeintMethod) m, layout, w, h, parity, tff,
                      sc, intra, kind, 1, 1, 0);
                  run_one ((CfxDeintMethod) m, layout, w, h, parity, tff,
                      sc, intra, kind, 1, 1 << 20, 0);
                  if (kind == 0) {
                    run_one ((CfxDeintMethod) m, layout, w, h, parity, tff,
                        sc, intra, kind, 1, 200, 0);
                    run_one ((CfxDeintMethod) m, layout, w, h, parity, tff,
                        sc, intra, kind, 0, 64, 0);
                  }
                }
              }

  /* the formats that share a layout, components in every order */
  for (m = 0; m < 4; m++)
    for (layout = 0; layout < N_LAYOUTS; layout++)
      for (s = 0; s < (int) (sizeof (sizes) / sizeof (sizes[0])); s++) {
        int w = sizes[s][0], h = sizes[s][1], rot;

        if (!size_ok ((CfxDeintMethod) m, layout, w, h))
          continue;
        for (rot = 0; rot < layouts[layout].n; rot++)
          run_one ((CfxDeintMethod) m, layout, w, h, s & 1, 1, 1, 0, 0,
              s & 1, 64, rot);
      }

  /* several planes in one launch: I420, NV12 and NV21 shapes of odd
   * sizes, components in every order */
  for (m = 0; m < 4; m++)
    for (s = 0; s < 3; s++) {
      static const int dims[3][2] = { {33, 20}, {130, 71}, {7, 9} };
      int w = dims[s][0], h = dims[s][1], rot;
      Plane i420[3] = { {0, w, h}, {0, (w + 1) / 2, (h + 1) / 2},
      {0, (w + 1) / 2, (h + 1) / 2}
      };
      Plane nv[2] = { {0, w, h}, {s == 1 ? 4 : 1, (w + 1) / 2, (h + 1) / 2}
      };

      if (!size_ok ((CfxDeintMethod) m, 0, (w + 1) / 2, (h + 1) / 2))
        continue;
      for (rot = 0; rot < 3; rot++) {
        run_case ((CfxDeintMethod) m, i420, 3, rot & 1, 1, 1, 0, 0, 1, 300,
            rot);
        run_case ((CfxDeintMethod) m, nv, 2, rot & 1, 0, 1, 0, 1, rot & 1,
            300, rot);
      }
    }

  /* the GPU's launch math (cfx_deinterlace_frame_spread): 1/8 of a wave
   * to 4 waves, of waves of a few blocks, so that launches of more blocks
   * than one wave run */
  for (m = 0; m < 4; m++)
    for (layout = 0; layout < N_KERNEL_LAYOUTS; layout++)
      for (s = 9; s < (int) (sizeof (sizes) / sizeof (sizes[0])); s += 3) {
        static const double waves[] = { 0.125, 0.25, 0.5, 1, 2, 4 };
        static const long wave_sizes[] = { 1, 2, 3, 7 };
        int w = sizes[s][0], h = sizes[s][1];
        unsigned v, z;

        if (!size_ok ((CfxDeintMethod) m, layout, w, h))
          continue;
        for (v = 0; v < sizeof waves / sizeof waves[0]; v++)
          for (z = 0; z < sizeof wave_sizes / sizeof wave_sizes[0]; z++) {
            int i = (int) (m + layout + s + v + z);

            shape.wave = wave_sizes[z];
            shape.waves = waves[v];
            run_one ((CfxDeintMethod) m, layout, w, h, i & 1, (i >> 1) & 1,
                1, m == CFX_DEINT_BWDIF && i % 3 == 0, i % 4, i % 5 != 0, 0,
                0);
          }
      }
  shape.wave = 0;
  if (shape.past_one_wave == 0) {
    printf ("FAIL: no launch of more blocks than one wave\n");
    failures++;
  }
  printf ("%ld launches by the GPU's launch math, %ld of more blocks than "
      "one wave\n", shape.launches, shape.past_one_wave);
  {
    static const double bad[] = { 0, -1, 0.0 / 0.0, 2048, 1.0 / 0.0 };
    CfxDeintComponent c[3];
    CfxDeintField f = { CFX_DEINT_YADIF, 0, 1, 1, 0 };
    unsigned b;

    planar_comp (&c[0], 0);
    for (b = 0; b < sizeof bad / sizeof bad[0]; b++)
      if (cfx_deinterlace_frame_emulate_waves (c, 1, &f, 4, bad[b]) != -1) {
        printf ("FAIL: %g waves accepted\n", bad[b]);
        failures++;
      }
    if (cfx_deinterlace_frame_emulate_waves (c, 1, &f, 4, 1) < 1) {
      printf ("FAIL: one wave refused\n");
      failures++;
    }
  }

  test_refusals ();
  printf ("%ld samples checked, %ld failing cases\n", checked, failures);
  return failures != 0;
}
