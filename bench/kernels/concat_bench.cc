// Microbenchmarks of the concat family (cpu device).
#include "bench_util.h"
