// Tests of the slice family (validation and reference kernel).
#include "test_util.h"
