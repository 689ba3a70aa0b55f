// Microbenchmarks of the conv2d family (cpu device).
#include "bench_util.h"
