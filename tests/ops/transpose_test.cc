// Tests of the transpose family (validation and reference kernel).
#include "test_util.h"
