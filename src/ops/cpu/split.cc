// PLACEHOLDER: cpu kernels of the Split family are not written yet; nothing is
// registered, so a cpu context reports no support for these ops.
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
void RegisterSplitKernels(OpKind, KernelRegistry&) {}
}  // namespace webnn::ops::cpu
