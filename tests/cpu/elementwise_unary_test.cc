// cpu kernels of the elementwise_unary family against the reference device.
#include "cross_device.h"
