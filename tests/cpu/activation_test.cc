// cpu kernels of the activation family against the reference device.
#include "cross_device.h"
