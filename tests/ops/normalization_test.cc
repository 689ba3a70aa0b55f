// Tests of the normalization family (validation and reference kernel).
#include "test_util.h"
