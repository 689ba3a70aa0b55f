// cpu kernels of the tile family against the reference device.
#include "cross_device.h"
