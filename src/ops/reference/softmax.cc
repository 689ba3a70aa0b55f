// PLACEHOLDER: Softmax reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunSoftmax(const KernelContext&) { throw webnn::NotSupportedError("Softmax: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
