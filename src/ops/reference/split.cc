// PLACEHOLDER: Split reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunSplit(const KernelContext&) { throw webnn::NotSupportedError("Split: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
