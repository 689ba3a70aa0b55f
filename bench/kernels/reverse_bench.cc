// Microbenchmarks of the reverse family (cpu device).
#include "bench_util.h"
