// cpu kernels of the gru family against the reference device.
#include "cross_device.h"
