// PLACEHOLDER: Expand reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunExpand(const KernelContext&) { throw webnn::NotSupportedError("Expand: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
