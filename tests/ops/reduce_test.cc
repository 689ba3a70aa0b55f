// Tests of the reduce family (validation and reference kernel).
#include "test_util.h"
