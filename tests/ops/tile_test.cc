// Tests of the tile family (validation and reference kernel).
#include "test_util.h"
