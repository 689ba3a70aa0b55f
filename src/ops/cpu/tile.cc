// PLACEHOLDER: cpu kernels of the Tile family are not written yet; nothing is
// registered, so a cpu context reports no support for these ops.
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
void RegisterTileKernels(OpKind, KernelRegistry&) {}
}  // namespace webnn::ops::cpu
