// Tests of the expand family (validation and reference kernel).
#include "test_util.h"
