// Microbenchmarks of the cumulative_sum family (cpu device).
#include "bench_util.h"
