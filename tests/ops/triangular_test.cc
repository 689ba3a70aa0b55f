// Tests of the triangular family (validation and reference kernel).
#include "test_util.h"
