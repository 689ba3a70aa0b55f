// cpu kernels of the triangular family against the reference device.
#include "cross_device.h"
