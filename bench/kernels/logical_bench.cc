// Microbenchmarks of the logical family (cpu device).
#include "bench_util.h"
