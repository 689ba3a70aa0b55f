// cpu kernels of the conv2d family against the reference device.
#include "cross_device.h"
