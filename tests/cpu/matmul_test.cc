// cpu kernels of the matmul family against the reference device.
#include "cross_device.h"
