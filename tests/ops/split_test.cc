// Tests of the split family (validation and reference kernel).
#include "test_util.h"
