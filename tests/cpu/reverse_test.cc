// cpu kernels of the reverse family against the reference device.
#include "cross_device.h"
