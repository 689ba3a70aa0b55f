// PLACEHOLDER: QuantizeLinear reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunQuantizeLinear(const KernelContext&) { throw webnn::NotSupportedError("QuantizeLinear: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
