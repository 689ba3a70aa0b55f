// PLACEHOLDER: Prelu reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunPrelu(const KernelContext&) { throw webnn::NotSupportedError("Prelu: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
