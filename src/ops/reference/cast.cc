// PLACEHOLDER: Cast reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunCast(const KernelContext&) { throw webnn::NotSupportedError("Cast: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
