// Microbenchmarks of the lstm family (cpu device).
#include "bench_util.h"
