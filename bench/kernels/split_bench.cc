// Microbenchmarks of the split family (cpu device).
#include "bench_util.h"
