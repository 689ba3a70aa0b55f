// Microbenchmarks of the activation family (cpu device).
#include "bench_util.h"
