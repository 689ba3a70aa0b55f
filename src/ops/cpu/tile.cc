// cpu kernel of tile: output dim d of size reps * n is the pair of dims
// (reps, n) in row-major order, the first with input stride 0; StridedCopy
// (transpose.cc) then copies whole input rows per repetition.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/tile.h"

namespace webnn::ops::cpu {
namespace {

void RunTile(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<TileAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t element_bytes = ElementBytes(input.type);
  const std::vector<int64_t> in_strides = ByteStrides(input.shape, element_bytes);
  StridedView view;
  view.element_bytes = element_bytes;
  for (uint32_t d = 0; d < input.rank(); ++d) {
    view.sizes.push_back(attrs.repetitions[d]);
    view.strides.push_back(0);
    view.sizes.push_back(input.shape[d]);
    view.strides.push_back(in_strides[d]);
  }
  StridedCopy(view, input.data, out.data, ctx.parallel);
}

}  // namespace

// Every data type the schema allows: the kernel moves 1, 2, 4 or 8-byte elements.
void RegisterTileKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunTile, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
