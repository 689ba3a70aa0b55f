// Microbenchmarks of the gather family (cpu device).
#include "bench_util.h"
