// Tests of the prelu family (validation and reference kernel).
#include "test_util.h"
