/* deinterlace kernels: part of cudafx-kernels.h (include that, not this) */
#ifndef CUDAFX_DEINTERLACE_H
#define CUDAFX_DEINTERLACE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
