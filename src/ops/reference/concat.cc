// PLACEHOLDER: Concat reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunConcat(const KernelContext&) { throw webnn::NotSupportedError("Concat: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
