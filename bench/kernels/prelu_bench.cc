// Microbenchmarks of the prelu family (cpu device).
#include "bench_util.h"
