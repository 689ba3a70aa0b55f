// PLACEHOLDER: Reverse reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunReverse(const KernelContext&) { throw webnn::NotSupportedError("Reverse: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
