// cpu kernels of the normalization family against the reference device.
#include "cross_device.h"
