// cpu kernels of the transpose family against the reference device.
#include "cross_device.h"
