/* The fused 16-bit Gaussian compiled for the host too, with
 * cfx_blur16_fused_emulate (): see test-blur16-emulated.c */
#define CFX_BLUR16_EMULATE 1
#include "../../kernels/blur16-fused.cu"
