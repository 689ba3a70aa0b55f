// cpu kernel of split: concat's inverse. Viewed as [outer, axis, inner], output
// k takes its block of every input row. Many rows: threads take whole input
// rows (sequential reads); few (split on axis 0): each output is one long copy
// split into byte ranges.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/split.h"

namespace webnn::ops::cpu {
namespace {

void RunSplit(const KernelContext& ctx) {
  const uint32_t axis = AttrsAs<SplitAttrs>(ctx.attrs).axis;
  const TensorView& input = ctx.inputs[0];
  const size_t element_bytes = ElementBytes(input.type);
  const uint64_t outer = DimProduct(input.shape, 0, axis);
  const uint64_t inner_bytes = element_bytes * DimProduct(input.shape, axis + 1, input.rank());
  const uint64_t row_bytes = input.shape[axis] * inner_bytes;
  std::vector<uint64_t> blocks, columns;
  uint64_t column = 0;
  for (const TensorView& output : ctx.outputs) {
    blocks.push_back(output.shape[axis] * inner_bytes);
    columns.push_back(column);
    column += blocks.back();
  }
  if (outer >= 4 * ctx.parallel.NumThreads()) {
    ctx.parallel.Run(outer, std::max<size_t>(1, kCopyGrainBytes / row_bytes), [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o)
        for (size_t k = 0; k < ctx.outputs.size(); ++k)
          CopyRun(ctx.outputs[k].data + o * blocks[k], input.data + o * row_bytes + columns[k], blocks[k]);
    });
    return;
  }
  for (size_t k = 0; k < ctx.outputs.size(); ++k)
    ParallelCopy2D(ctx.parallel, ctx.outputs[k].data, blocks[k], input.data + columns[k], row_bytes, outer, blocks[k]);
}

}  // namespace

// Every data type the schema allows: the kernel moves bytes.
void RegisterSplitKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunSplit, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
