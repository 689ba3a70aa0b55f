// Microbenchmarks of the softmax family (cpu device).
#include "bench_util.h"
