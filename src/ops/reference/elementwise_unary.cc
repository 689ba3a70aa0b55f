// PLACEHOLDER: ElementwiseUnary reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunElementwiseUnary(const KernelContext&) { throw webnn::NotSupportedError("ElementwiseUnary: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
