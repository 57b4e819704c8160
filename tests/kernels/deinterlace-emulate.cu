/* The deinterlace kernels' per-thread code compiled for the host, with
 * cfx_deinterlace_frame_emulate (): see test-deinterlace-emulated.c */
#define CFX_DEINTERLACE_EMULATE 1
#include "../../kernels/deinterlace.cu"
