// Microbenchmarks of the reduce family (cpu device).
#include "bench_util.h"
