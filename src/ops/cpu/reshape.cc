// cpu kernel of reshape: the row-major bytes are unchanged, so it is one copy
// (split over threads when large); nothing to do when the graph runs it in
// place.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
namespace {

void RunReshape(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  ParallelCopy(ctx.parallel, out.data, input.data, input.bytes());
}

}  // namespace

// Every data type the schema allows.
void RegisterReshapeKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunReshape, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
