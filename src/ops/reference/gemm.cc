// PLACEHOLDER: Gemm reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunGemm(const KernelContext&) { throw webnn::NotSupportedError("Gemm: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
