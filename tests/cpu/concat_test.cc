// cpu kernels of the concat family against the reference device.
#include "cross_device.h"
