// PLACEHOLDER: Slice reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunSlice(const KernelContext&) { throw webnn::NotSupportedError("Slice: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
