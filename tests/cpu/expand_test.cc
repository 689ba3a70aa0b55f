// cpu kernels of the expand family against the reference device.
#include "cross_device.h"
