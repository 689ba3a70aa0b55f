// Tests of the concat family (validation and reference kernel).
#include "test_util.h"
