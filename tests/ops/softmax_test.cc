// Tests of the softmax family (validation and reference kernel).
#include "test_util.h"
