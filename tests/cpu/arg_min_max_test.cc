// cpu kernels of the arg_min_max family against the reference device.
#include "cross_device.h"
