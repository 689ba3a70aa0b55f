// cpu kernels of the prelu family against the reference device.
#include "cross_device.h"
