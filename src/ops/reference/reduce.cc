// PLACEHOLDER: Reduce reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunReduce(const KernelContext&) { throw webnn::NotSupportedError("Reduce: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
