// PLACEHOLDER: Normalization reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunNormalization(const KernelContext&) { throw webnn::NotSupportedError("Normalization: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
