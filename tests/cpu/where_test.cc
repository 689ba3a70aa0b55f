// cpu kernels of the where family against the reference device.
#include "cross_device.h"
