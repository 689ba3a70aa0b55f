// Tests of the matmul family (validation and reference kernel).
#include "test_util.h"
