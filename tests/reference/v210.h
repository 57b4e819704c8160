/* gst-cudafx CPU reference for the v210 format: packing to and unpacking
 * from a planar 4:2:2 10-bit layout. The oracle for GPU v210 kernels.
 *
 * v210, as this reference reads and writes it:
 *
 * - 4:2:2, 10 bits per sample. A row is a run of groups of 6 pixels; a
 *   group is 16 bytes, four 32-bit little-endian words. A word carries
 *   three 10-bit samples, in bits 0-9, 10-19 and 20-29; bits 30-31 are 0.
 * - Samples of a group, word by word (Cb k / Cr k belong to luma pixels
 *   2k and 2k+1 of the group):
 *     word 0: Cb0 Y0  Cr0
 *     word 1: Y1  Cb1 Y2
 *     word 2: Cr1 Y3  Cb2
 *     word 3: Y4  Cr2 Y5
 * - Rows are padded to a multiple of 128 bytes (48 pixels):
 *     stride = ((width + 47) / 48) * 128.
 * - When width is not a multiple of 6 the last group is partial: it still
 *   takes its full 16 bytes, but only the slots of existing samples (luma
 *   index < width, chroma index < (width + 1) / 2) are used.
 *
 * Planar side (I422_10LE-like): three planes of uint16_t, one sample in
 * the low 10 bits (0..1023). Luma is width samples a row, each chroma
 * plane (width + 1) / 2. Planar strides are counted in samples.
 *
 * ref_v210_pack writes, in every row, dst_stride bytes: the groups, then
 * zeros. Bits 30-31, unused slots of a partial last group and every byte
 * after the last group are written as 0. Input samples are masked to their
 * low 10 bits (1024 packs as 0, 0xffff as 1023): the format has no room
 * for more, and a kernel has to do the same rather than spill into the
 * neighbouring slot. dst_stride must be at least 16 * ceil(width / 6);
 * ref_v210_stride (width) is the usual value.
 *
 * ref_v210_unpack reads only the used slots: bits 30-31, unused slots of
 * the last group and the row padding are ignored, whatever they hold. It
 * writes width luma and (width + 1) / 2 chroma samples a row, nothing
 * else. */
#ifndef CFX_REF_V210_H
#define CFX_REF_V210_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per v210 row of width pixels, padding included. */
int ref_v210_stride (int width);

void ref_v210_unpack (const uint8_t * src, int src_stride, int width,
    int height, uint16_t * y, int y_stride, uint16_t * u, int u_stride,
    uint16_t * v, int v_stride);

void ref_v210_pack (const uint16_t * y, int y_stride, const uint16_t * u,
    int u_stride, const uint16_t * v, int v_stride, int width, int height,
    uint8_t * dst, int dst_stride);

#ifdef __cplusplus
}
#endif

#endif /* CFX_REF_V210_H */
