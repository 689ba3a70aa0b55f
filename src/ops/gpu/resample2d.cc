// gpu kernel of resample2d: shaders/resample2d.comp, one output element per
// invocation; the coordinate mapping is computed exactly in the shader.
#include <array>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/resample2d.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<Resample2dAttrs>(s.attrs);
  const GpuOperand& input = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const uint32_t total = Count32(out.elements());
  Count32(input.elements());
  GpuDispatch d;
  d.shader = core::StrCat("resample2d.", TypeSuffix(out.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {total, attrs.mode == MLInterpolationMode::kLinear ? 1u : 0u};
  for (uint32_t dim : out.shape) d.params.push_back(dim);
  uint32_t stride = 1;
  std::array<uint32_t, 4> strides{};
  for (size_t i = 4; i-- > 0;) {
    strides[i] = stride;
    stride *= input.shape[i];
  }
  d.params.insert(d.params.end(), strides.begin(), strides.end());
  d.params.push_back(attrs.axes[0]);
  d.params.push_back(attrs.axes[1]);
  d.params.push_back(input.shape[attrs.axes[0]]);
  d.params.push_back(input.shape[attrs.axes[1]]);
  d.groups = GridFor(total);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_resample2d() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
