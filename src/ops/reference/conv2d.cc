// PLACEHOLDER: Conv2d reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunConv2d(const KernelContext&) { throw webnn::NotSupportedError("Conv2d: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
