// PLACEHOLDER: Scatter reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunScatter(const KernelContext&) { throw webnn::NotSupportedError("Scatter: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
