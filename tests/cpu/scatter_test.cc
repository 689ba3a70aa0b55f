// cpu kernels of the scatter family against the reference device.
#include "cross_device.h"
