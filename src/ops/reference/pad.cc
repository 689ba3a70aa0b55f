// PLACEHOLDER: Pad reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunPad(const KernelContext&) { throw webnn::NotSupportedError("Pad: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
