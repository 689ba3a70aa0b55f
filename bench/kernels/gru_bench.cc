// Microbenchmarks of the gru family (cpu device).
#include "bench_util.h"
