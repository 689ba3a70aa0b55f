// PLACEHOLDER: Tile reference kernel not implemented yet.
#include "ops/kernel.h"
namespace webnn::ops::ref {
void RunTile(const KernelContext&) { throw webnn::NotSupportedError("Tile: reference kernel not implemented yet"); }
}  // namespace webnn::ops::ref
