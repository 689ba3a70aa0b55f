// Microbenchmarks of the matmul family (cpu device).
#include "bench_util.h"
