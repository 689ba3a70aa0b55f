// PLACEHOLDER: Reshape reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunReshape(const KernelContext&) { throw webnn::NotSupportedError("Reshape: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
