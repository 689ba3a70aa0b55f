// PLACEHOLDER: Lstm reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunLstm(const KernelContext&) { throw webnn::NotSupportedError("Lstm: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
