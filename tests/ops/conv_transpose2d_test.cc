// Tests of the conv_transpose2d family (validation and reference kernel).
#include "test_util.h"
