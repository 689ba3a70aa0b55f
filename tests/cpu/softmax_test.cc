// cpu kernels of the softmax family against the reference device.
#include "cross_device.h"
