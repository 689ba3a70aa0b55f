// Tests of the resample2d family (validation and reference kernel).
#include "test_util.h"
