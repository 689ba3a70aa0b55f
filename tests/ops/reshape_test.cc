// Tests of the reshape family (validation and reference kernel).
#include "test_util.h"
