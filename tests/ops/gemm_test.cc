// Tests of the gemm family (validation and reference kernel).
#include "test_util.h"
