// Tests of the logical family (validation and reference kernel).
#include "test_util.h"
