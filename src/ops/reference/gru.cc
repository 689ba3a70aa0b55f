// PLACEHOLDER: Gru reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunGru(const KernelContext&) { throw webnn::NotSupportedError("Gru: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
