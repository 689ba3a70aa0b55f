// Tests of the comparison family (validation and reference kernel).
#include "test_util.h"
