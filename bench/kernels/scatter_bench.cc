// Microbenchmarks of the scatter family (cpu device).
#include "bench_util.h"
