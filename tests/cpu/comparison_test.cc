// cpu kernels of the comparison family against the reference device.
#include "cross_device.h"
