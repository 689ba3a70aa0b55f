// PLACEHOLDER: Logical reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunLogical(const KernelContext&) { throw webnn::NotSupportedError("Logical: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
