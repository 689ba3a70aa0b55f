// PLACEHOLDER: Pool2d reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunPool2d(const KernelContext&) { throw webnn::NotSupportedError("Pool2d: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
