// Microbenchmarks of the where family (cpu device).
#include "bench_util.h"
