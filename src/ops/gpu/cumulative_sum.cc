// gpu kernel of cumulativeSum: shaders/cumulative_sum.comp.
#include <algorithm>

#include "core/strings.h"
#include "ops/cumulative_sum.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

std::string_view Variant(DataType type) {
  switch (type) {
    case DataType::kFloat32: return "f32";
    case DataType::kFloat16: return "f16";
    case DataType::kInt32:
    case DataType::kUint32: return "u32";
    case DataType::kInt64:
    case DataType::kUint64: return "u64";
    default:
      throw NotSupportedError(core::StrCat("gpu device: cumulativeSum of ", ToString(type), " is not supported"));
  }
}

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& a = AttrsAs<CumulativeSumAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  uint64_t inner = 1;
  for (size_t d = a.axis + 1; d < in.shape.size(); ++d) inner *= in.shape[d];
  const uint32_t axis = in.shape[a.axis];
  const uint32_t lines = Count32(in.elements() / axis);
  // A thread per line keeps every element's sum serial and reads coalesced
  // across lines, but leaves the GPU idle when lines are few: below 16384
  // lines (64 workgroups) of at least 256 elements, a workgroup scans each line.
  const bool per_workgroup = axis >= 256 && lines < 16384;
  GpuDispatch d;
  d.shader = core::StrCat("cumulative_sum.", Variant(in.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {per_workgroup ? 1u : 0u, lines, axis, Count32(inner), a.exclusive ? 1u : 0u, a.reversed ? 1u : 0u};
  d.groups = per_workgroup ? std::array<uint32_t, 3>{std::min<uint32_t>(lines, 65535), 1, 1} : GridFor(lines);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_cumulative_sum() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
