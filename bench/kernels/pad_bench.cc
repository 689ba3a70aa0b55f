// Microbenchmarks of the pad family (cpu device).
#include "bench_util.h"
