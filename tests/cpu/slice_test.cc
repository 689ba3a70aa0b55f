// cpu kernels of the slice family against the reference device.
#include "cross_device.h"
