// Microbenchmarks of the expand family (cpu device).
#include "bench_util.h"
