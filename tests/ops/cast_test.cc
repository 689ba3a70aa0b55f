// Tests of the cast family (validation and reference kernel).
#include "test_util.h"
