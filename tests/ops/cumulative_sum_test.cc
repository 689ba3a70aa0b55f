// Tests of the cumulative_sum family (validation and reference kernel).
#include "test_util.h"
