// Tests of the pad family (validation and reference kernel).
#include "test_util.h"
