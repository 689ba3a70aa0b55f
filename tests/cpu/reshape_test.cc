// cpu kernels of the reshape family against the reference device.
#include "cross_device.h"
