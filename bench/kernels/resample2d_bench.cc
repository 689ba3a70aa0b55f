// Microbenchmarks of the resample2d family (cpu device).
#include "bench_util.h"
