/* deinterlace kernels (in progress) */
#include "cudafx-kernels.h"
