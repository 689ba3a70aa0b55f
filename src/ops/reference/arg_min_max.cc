// PLACEHOLDER: ArgMinMax reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunArgMinMax(const KernelContext&) { throw webnn::NotSupportedError("ArgMinMax: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
