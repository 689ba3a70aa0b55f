// PLACEHOLDER: Where reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunWhere(const KernelContext&) { throw webnn::NotSupportedError("Where: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
