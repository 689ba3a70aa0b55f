// cpu kernels of the lstm family against the reference device.
#include "cross_device.h"
