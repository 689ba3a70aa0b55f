// Microbenchmarks of the conv_transpose2d family (cpu device).
#include "bench_util.h"
