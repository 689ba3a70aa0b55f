// cpu kernels of the pad family against the reference device.
#include "cross_device.h"
