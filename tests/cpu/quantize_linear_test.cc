// cpu kernels of the quantize_linear family against the reference device.
#include "cross_device.h"
