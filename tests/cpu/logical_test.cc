// cpu kernels of the logical family against the reference device.
#include "cross_device.h"
