// cpu kernel of concat. Viewed as [outer, axis, inner], output row o is the
// inputs' rows o one after another. With many rows, threads take whole output
// rows (sequential writes, every input's block in turn); with few (concat on
// axis 0), each input is one long copy split into byte ranges.
#include "ops/concat.h"
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
namespace {

void RunConcat(const KernelContext& ctx) {
  const uint32_t axis = AttrsAs<ConcatAttrs>(ctx.attrs).axis;
  const TensorView& out = ctx.outputs[0];
  const size_t element_bytes = ElementBytes(out.type);
  const uint64_t outer = DimProduct(out.shape, 0, axis);
  const uint64_t inner_bytes = element_bytes * DimProduct(out.shape, axis + 1, out.rank());
  const uint64_t row_bytes = out.shape[axis] * inner_bytes;
  std::vector<uint64_t> blocks, columns;
  uint64_t column = 0;
  for (const TensorView& input : ctx.inputs) {
    blocks.push_back(input.shape[axis] * inner_bytes);
    columns.push_back(column);
    column += blocks.back();
  }
  if (outer >= 4 * ctx.parallel.NumThreads()) {
    ctx.parallel.Run(outer, std::max<size_t>(1, kCopyGrainBytes / row_bytes), [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o)
        for (size_t k = 0; k < ctx.inputs.size(); ++k)
          CopyRun(out.data + o * row_bytes + columns[k], ctx.inputs[k].data + o * blocks[k], blocks[k]);
    });
    return;
  }
  for (size_t k = 0; k < ctx.inputs.size(); ++k)
    ParallelCopy2D(ctx.parallel, out.data + columns[k], row_bytes, ctx.inputs[k].data, blocks[k], outer, blocks[k]);
}

}  // namespace

// Every data type the schema allows: the kernel moves bytes.
void RegisterConcatKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunConcat, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
