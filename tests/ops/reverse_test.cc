// Tests of the reverse family (validation and reference kernel).
#include "test_util.h"
