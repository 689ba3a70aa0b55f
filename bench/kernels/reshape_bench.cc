// Microbenchmarks of the reshape family (cpu device).
#include "bench_util.h"
