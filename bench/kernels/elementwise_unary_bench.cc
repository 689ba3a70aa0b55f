// Microbenchmarks of the elementwise_unary family (cpu device).
#include "bench_util.h"
