// Microbenchmarks of the transpose family (cpu device).
#include "bench_util.h"
