// Tests of the gather family (validation and reference kernel).
#include "test_util.h"
