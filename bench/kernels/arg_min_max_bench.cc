// Microbenchmarks of the arg_min_max family (cpu device).
#include "bench_util.h"
