// Microbenchmarks of the comparison family (cpu device).
#include "bench_util.h"
