// PLACEHOLDER: Comparison reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunComparison(const KernelContext&) { throw webnn::NotSupportedError("Comparison: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
