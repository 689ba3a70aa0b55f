// Tests of the elementwise_unary family (validation and reference kernel).
#include "test_util.h"
