/* Deinterlace kernels, part 4 of 5 (one per method family): the
 * intra-field methods, ELA and linear, which read the current frame
 * alone: one interpolated word, then a thread's strip (window and edge
 * rows, mirrored). */
#ifndef CFX_DEINTERLACE_INTRA_CUH
#define CFX_DEINTERLACE_INTRA_CUH

#include "deinterlace-memory.cuh"

namespace
{

/* ---- ELA ---------------------------------------------------------------- */

/* C's rows y - 1 and y + 1 at x - 1, x, x + 1 (clamped into the row) */
CFX_HD u32
ela_word (const u32 * cm, const u32 * cp)
{
  Half c0 = unpack (absdiff4 (cm[1], cp[1]));
  Half cl = unpack (absdiff4 (cm[0], cp[2]));   /* j = -1 */
  Half cr = unpack (absdiff4 (cm[2], cp[0]));   /* j = +1 */
  Half l, r;

  /* ties to j = 0, then to -1 */
  l.e = sub2 (cl.e, c0.e);
  l.o = sub2 (cl.o, c0.o);
  r.e = sub2 (cr.e, min2 (c0.e, cl.e));
  r.o = sub2 (cr.o, min2 (c0.o, cl.o));

  u32 ml = neg_bytes (l), mr = neg_bytes (r);
  u32 a = blend (mr, cm[2], blend (ml, cm[0], cm[1]));
  u32 b = blend (mr, cp[0], blend (ml, cp[2], cp[1]));

  return avg4 (a, b);
}

/* mirror for the intra-field modes: -1 -> 1, h -> h - 2 */
CFX_HD int
mirror_row (int y, int h)
{
  return y < 0 ? -y : y >= h ? 2 * h - 2 - y : y;
}

/* C's words of a row at x - 1, x, x + 1; EDGE: clamped into the row */
template < int LAYOUT, int MODE > CFX_HD void
ela_shifts (const u32 * W, u32 * s, u32 left_edge, u32 right_edge)
{
  s[0] = shifted < LAYOUT, -1, 1 > (W);
  s[1] = W[1];
  s[2] = shifted < LAYOUT, 1, 1 > (W);
  if (MODE != MODE_FAST) {
    s[0] = blend (left_edge, s[1], s[0]);
    s[2] = blend (right_edge, s[1], s[2]);
  }
}

template < int LAYOUT, int MODE > CFX_HD void
ela_row (const View & v, int y, u32 * s, u32 left_edge, u32 right_edge)
{
  u32 W[3];

  c_words < 1, MODE > (v, y, W);
  ela_shifts < LAYOUT, MODE > (W, s, left_edge, right_edge);
}

/* ELA and linear: the window over 1 <= y, y + 2 <= h */
template < int LAYOUT, int MODE > CFX_HD void
ela_run (const Strip & s, const View & v, u32 left_edge, u32 right_edge)
{
  const int par = s.par, last = v.height - 1 - (MODE == MODE_EDGE);
  int k = s.fa, y = 2 * k + 1 - par;
  u32 cm[3], cp[3];
  /* q[i]: C's row y + 1 + 2i, loads in flight */
  u32 q[ELA_PREFETCH][3];

  ela_row < LAYOUT, MODE > (v, y - 1, cp, left_edge, right_edge);
UNROLL
  for (int i = 0; i < ELA_PREFETCH; i++)
    c_words < 1, MODE > (v, imin (y + 1 + 2 * i, last), q[i]);
NO_UNROLL
  for (;;) {
    cm[0] = cp[0];
    cm[1] = cp[1];
    cm[2] = cp[2];
    ela_shifts < LAYOUT, MODE > (q[0], cp, left_edge, right_edge);
    st < MODE > (v, y, ela_word (cm, cp));
    st < MODE > (v, y - 1 + 2 * par, par ? cp[1] : cm[1]);
    if (++k == s.fb)
      return;
    y += 2;
UNROLL
    for (int i = 0; i < ELA_PREFETCH - 1; i++) {
      q[i][0] = q[i + 1][0];
      q[i][1] = q[i + 1][1];
      q[i][2] = q[i + 1][2];
    }
    c_words < 1, MODE > (v, imin (y - 1 + 2 * ELA_PREFETCH, last),
        q[ELA_PREFETCH - 1]);
  }
}

/* the intra-field modes' edge rows: mirrored rows */
template < int LAYOUT, int MODE > CFX_HD void
ela_slow (int par, const View & v, int k, u32 left_edge, u32 right_edge)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h) {
    u32 cm[3], cp[3];

    ela_row < LAYOUT, MODE > (v, mirror_row (y - 1, h), cm, left_edge,
        right_edge);
    ela_row < LAYOUT, MODE > (v, mirror_row (y + 1, h), cp, left_edge,
        right_edge);
    st < MODE > (v, y, ela_word (cm, cp));
  }
  copy_row < MODE > (v, 2 * k + par);
}

template < int MODE > CFX_HD void
linear_run (const Strip & s, const View & v)
{
  const int par = s.par, last = v.height - 1;
  int k = s.fa, y = 2 * k + 1 - par;
  /* q[i]: C's row y - 1 + 2i; the rows after y + 1 are loads in flight */
  u32 q[2 + PREFETCH];

UNROLL
  for (int i = 0; i < 2 + PREFETCH; i++)
    q[i] = ld < MODE > (v, FC, imin (y - 1 + 2 * i, last));
NO_UNROLL
  for (;;) {
    st < MODE > (v, y, avg4 (q[0], q[1]));
    st < MODE > (v, y - 1 + 2 * par, par ? q[1] : q[0]);
    if (++k == s.fb)
      return;
    y += 2;
UNROLL
    for (int i = 0; i < 1 + PREFETCH; i++)
      q[i] = q[i + 1];
    q[1 + PREFETCH] = ld < MODE > (v, FC, imin (y + 1 + 2 * PREFETCH, last));
  }
}

template < int MODE > CFX_HD void
linear_slow (int par, const View & v, int k)
{
  const int h = v.height, y = 2 * k + 1 - par;

  if (y < h)
    st < MODE > (v, y, avg4 (ld < MODE > (v, FC, mirror_row (y - 1, h)),
            ld < MODE > (v, FC, mirror_row (y + 1, h))));
  copy_row < MODE > (v, 2 * k + par);
}

}                               /* namespace */
#endif
