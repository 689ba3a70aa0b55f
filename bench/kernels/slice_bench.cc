// Microbenchmarks of the slice family (cpu device).
#include "bench_util.h"
