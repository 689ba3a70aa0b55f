// PLACEHOLDER: Triangular reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunTriangular(const KernelContext&) { throw webnn::NotSupportedError("Triangular: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
