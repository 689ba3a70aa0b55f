// Tests of the lstm family (validation and reference kernel).
#include "test_util.h"
