// cpu kernels of the gather family against the reference device.
#include "cross_device.h"
