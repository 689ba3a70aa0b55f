// PLACEHOLDER: ConvTranspose2d reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunConvTranspose2d(const KernelContext&) { throw webnn::NotSupportedError("ConvTranspose2d: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
