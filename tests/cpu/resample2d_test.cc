// cpu kernels of the resample2d family against the reference device.
#include "cross_device.h"
