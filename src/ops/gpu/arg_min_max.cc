// gpu kernel of argMin and argMax: shaders/arg_min_max.comp. The input is
// viewed as [outer, length, inner] around the axis; each of the outer * inner
// rows yields one index.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/reduce.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const uint32_t axis = AttrsAs<ArgMinMaxAttrs>(s.attrs).axis;
  const GpuOperand& in = s.inputs[0];
  uint64_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= in.shape[d];
  for (size_t d = axis + 1; d < in.shape.size(); ++d) inner *= in.shape[d];
  const uint32_t length = in.shape[axis];
  const uint32_t rows = Count32(outer * inner);
  Count32(in.elements());
  // As softmax: a workgroup per long contiguous row (or when rows are too few
  // to fill the device), else a thread per row with neighbouring threads on
  // neighbouring elements.
  const bool workgroup_per_row = length >= 64 && (inner == 1 || rows < 2048);
  GpuDispatch d;
  d.shader = core::StrCat("arg_min_max.", TypeSuffix(in.type), ".", TypeSuffix(s.outputs[0].type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {rows, length, static_cast<uint32_t>(inner), workgroup_per_row ? 1u : 0u,
              s.op == OpKind::argMax ? 1u : 0u};
  d.groups = workgroup_per_row ? std::array<uint32_t, 3>{std::min<uint32_t>(rows, 65535), 1, 1} : GridFor(rows);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_arg_min_max() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
