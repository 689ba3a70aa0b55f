// PLACEHOLDER: cpu kernels of the Comparison family are not written yet; nothing is
// registered, so a cpu context reports no support for these ops.
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
void RegisterComparisonKernels(OpKind, KernelRegistry&) {}
}  // namespace webnn::ops::cpu
