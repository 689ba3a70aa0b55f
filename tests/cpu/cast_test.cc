// cpu kernels of the cast family against the reference device.
#include "cross_device.h"
