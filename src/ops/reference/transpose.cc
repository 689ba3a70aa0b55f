// PLACEHOLDER: Transpose reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunTranspose(const KernelContext&) { throw webnn::NotSupportedError("Transpose: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
