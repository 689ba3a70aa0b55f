// cpu kernels of the reduce family against the reference device.
#include "cross_device.h"
