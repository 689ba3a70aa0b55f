// Microbenchmarks of the triangular family (cpu device).
#include "bench_util.h"
