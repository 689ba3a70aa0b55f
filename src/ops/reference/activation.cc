// PLACEHOLDER: Activation reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunActivation(const KernelContext&) { throw webnn::NotSupportedError("Activation: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
