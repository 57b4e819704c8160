/* The 16-bit deinterlace kernel's per-thread code compiled for the host,
 * with cfx_deinterlace16_frame_emulate (): see
 * test-deinterlace16-emulated.c */
#define CFX_DEINTERLACE16_EMULATE 1
#include "../../kernels/deinterlace16.cu"
