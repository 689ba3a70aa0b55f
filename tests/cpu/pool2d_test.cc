// cpu kernels of the pool2d family against the reference device.
#include "cross_device.h"
