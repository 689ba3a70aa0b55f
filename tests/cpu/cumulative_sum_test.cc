// cpu kernels of the cumulative_sum family against the reference device.
#include "cross_device.h"
