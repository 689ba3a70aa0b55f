// Tests of the conv2d family (validation and reference kernel).
#include "test_util.h"
