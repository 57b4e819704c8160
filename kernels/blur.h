/* blur kernels: part of cudafx-kernels.h (include that, not this) */
#ifndef CUDAFX_BLUR_H
#define CUDAFX_BLUR_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
