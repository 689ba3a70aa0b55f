// Microbenchmarks of the normalization family (cpu device).
#include "bench_util.h"
