/* The deinterlacer's host side that deinterlace.cu (8-bit samples, and the
 * entry points of both depths) and deinterlace16.cu (16-bit words) share:
 * argument checks, the strip length, and the 16-bit launch that the entry
 * points hand 16-bit components to. .cu files only. */
#ifndef CFX_DEINTERLACE_HOST_H
#define CFX_DEINTERLACE_HOST_H

#include "cudafx-kernels.h"

/* Which 16-bit kernel a launch runs (the tests' emulation passes these
 * values) */
enum Deint16Variant
{
  DEINT16_PAIRED,               /* windows, two columns a thread where the
                                 * component allows (yadif: up to 13 bits,
                                 * and only where every component allows) */
  DEINT16_ONE_COLUMN,           /* windows, one column a thread */
  DEINT16_WINDOWLESS,           /* one column a thread, every stencil row
                                 * from memory */
  DEINT16_TWO_COLUMNS,          /* windows, two columns a thread where the
                                 * component allows, yadif too when
                                 * another component cannot */
  DEINT16_ELEMENTS,             /* PAIRED, and yadif's long strips split
                                 * for two waves (deinterlace16.cu) */
};

/* deinterlace16.cu: 16-bit components deinterlaced by the kernel of
 * @variant with strips for @waves waves */
cudaError_t cfx_deinterlace16_launch (const CfxDeintComponent * comps,
    int n_comps, const CfxDeintField * field, int variant, double waves,
    cudaStream_t stream);

static inline bool
deint_method_known (int method)
{
  return method == CFX_DEINT_BWDIF || method == CFX_DEINT_YADIF
      || method == CFX_DEINT_ELA || method == CFX_DEINT_LINEAR;
}

/* Components and a field given, 1 to CFX_DEINT_MAX_COMPONENTS components,
 * a method the kernels know */
static inline bool
deint_args_ok (const CfxDeintComponent * comps, int n_comps,
    const CfxDeintField * field)
{
  return comps && field && n_comps >= 1
      && n_comps <= CFX_DEINT_MAX_COMPONENTS
      && deint_method_known (field->method);
}

/* Waves a launch may be shaped for (cfx_wave_shape ()'s range) */
static inline bool
deint_waves_ok (double waves)
{
  return waves > 0 && waves <= 1024;
}

/* Frame j of a component: 0 prev, 1 cur, 2 next, 3 dst */
static inline const CfxPlane *
deint_frame_of (const CfxDeintComponent * c, int j)
{
  return j == 0 ? &c->prev : j == 1 ? &c->cur : j == 2 ? &c->next : &c->dst;
}

/* A component's four frames are given, hold @bytes-byte samples and agree
 * on width, height and step */
static inline bool
deint_frames_agree (const CfxDeintComponent * c, int bytes)
{
  for (int j = 0; j < 4; j++) {
    const CfxPlane *p = deint_frame_of (c, j);

    if (!p->data || p->bytes != bytes || p->width != c->cur.width
        || p->height != c->cur.height || p->step != c->cur.step)
      return false;
  }
  return true;
}

/* The strip length (a multiple of @step between @shortest and @longest,
 * rounded up to a step) of a launch whose strips hold @work units in all:
 * the shortest that give @target_threads threads at most, in no more than
 * @max_blocks blocks (blocks past one wave would run in a second wave
 * after the first, doubling the time) while strips can grow; long strips
 * load each window row once, short ones fill the GPU. @count (strip)
 * sets the launch's strips and returns its blocks, left in @blocks. */
template < typename Count > static inline long
deint_strip_length (long work, long target_threads, long shortest,
    long longest, long step, long max_blocks, Count count, long *blocks)
{
  long strip = (work + target_threads - 1) / target_threads;

  strip = strip < shortest ? shortest : strip > longest ? longest : strip;
  strip += (step - strip % step) % step;
  while ((*blocks = count (strip)) > max_blocks && strip < longest)
    strip += step;
  return strip;
}

#endif
