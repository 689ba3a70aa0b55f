// PLACEHOLDER: CumulativeSum reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunCumulativeSum(const KernelContext&) { throw webnn::NotSupportedError("CumulativeSum: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
