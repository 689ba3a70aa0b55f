// Microbenchmarks of the gemm family (cpu device).
#include "bench_util.h"
