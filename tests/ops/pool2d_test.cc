// Tests of the pool2d family (validation and reference kernel).
#include "test_util.h"
