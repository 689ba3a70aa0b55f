// Tests of the scatter family (validation and reference kernel).
#include "test_util.h"
