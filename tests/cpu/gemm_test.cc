// cpu kernels of the gemm family against the reference device.
#include "cross_device.h"
