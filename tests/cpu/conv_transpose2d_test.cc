// cpu kernels of the conv_transpose2d family against the reference device.
#include "cross_device.h"
