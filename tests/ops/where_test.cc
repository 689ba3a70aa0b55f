// Tests of the where family (validation and reference kernel).
#include "test_util.h"
