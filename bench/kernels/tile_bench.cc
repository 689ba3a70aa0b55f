// Microbenchmarks of the tile family (cpu device).
#include "bench_util.h"
