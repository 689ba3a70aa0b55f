// PLACEHOLDER: Resample2d reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunResample2d(const KernelContext&) { throw webnn::NotSupportedError("Resample2d: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
