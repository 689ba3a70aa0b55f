// Tests of the gru family (validation and reference kernel).
#include "test_util.h"
