// cpu kernels of the split family against the reference device.
#include "cross_device.h"
