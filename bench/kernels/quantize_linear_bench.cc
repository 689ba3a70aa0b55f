// Microbenchmarks of the quantize_linear family (cpu device).
#include "bench_util.h"
