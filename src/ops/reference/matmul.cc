// PLACEHOLDER: Matmul reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunMatmul(const KernelContext&) { throw webnn::NotSupportedError("Matmul: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
