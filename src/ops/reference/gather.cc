// PLACEHOLDER: Gather reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunGather(const KernelContext&) { throw webnn::NotSupportedError("Gather: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
