// Microbenchmarks of the pool2d family (cpu device).
#include "bench_util.h"
