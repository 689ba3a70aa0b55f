// Tests of the activation family (validation and reference kernel).
#include "test_util.h"
