// Microbenchmarks of the cast family (cpu device).
#include "bench_util.h"
