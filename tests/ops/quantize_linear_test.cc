// Tests of the quantize_linear family (validation and reference kernel).
#include "test_util.h"
