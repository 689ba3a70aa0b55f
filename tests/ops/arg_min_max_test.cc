// Tests of the arg_min_max family (validation and reference kernel).
#include "test_util.h"
