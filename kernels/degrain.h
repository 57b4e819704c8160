/* degrain kernels: part of cudafx-kernels.h (include that, not this) */
#ifndef CUDAFX_DEGRAIN_H
#define CUDAFX_DEGRAIN_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
