// gpu kernel of convTranspose2d: shaders/conv_transpose2d.comp, a gather with
// one output element per invocation. Layouts become element strides.
#include <array>

#include "core/strings.h"
#include "ops/conv_transpose2d.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<ConvTranspose2dAttrs>(s.attrs);
  const GpuOperand& input = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const bool has_bias = s.has_input(2);
  const ConvTranspose2dGeometry g = ComputeConvTranspose2dGeometry(attrs, input.shape, s.inputs[1].shape);
  // As the reference: channels that do not split evenly into groups have no meaning.
  if (g.in_channels % g.groups != 0)
    throw NotSupportedError(
        core::StrCat("convTranspose2d: input channels ", g.in_channels, " are not divisible by groups ", g.groups));
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  const uint32_t cg = g.in_channels / g.groups, ocg = g.out_channels / g.groups;
  const uint32_t c = g.in_channels, kh = g.kernel_h, kw = g.kernel_w;
  const std::array<uint32_t, 4> xs = nhwc ? std::array<uint32_t, 4>{g.in_h * g.in_w * c, 1, g.in_w * c, c}
                                          : std::array<uint32_t, 4>{c * g.in_h * g.in_w, g.in_h * g.in_w, g.in_w, 1};
  // (input channel, group-local output channel, ky, kx)
  std::array<uint32_t, 4> ws{};
  switch (attrs.filterLayout) {
    case MLConvTranspose2dFilterOperandLayout::kIohw: ws = {ocg * kh * kw, kh * kw, kw, 1}; break;
    case MLConvTranspose2dFilterOperandLayout::kHwoi: ws = {1, c, kw * ocg * c, ocg * c}; break;
    case MLConvTranspose2dFilterOperandLayout::kOhwi: ws = {1, kh * kw * c, kw * c, c}; break;
  }
  const uint32_t total = Count32(out.elements());
  GpuDispatch d;
  d.shader = core::StrCat("conv_transpose2d.", TypeSuffix(out.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0), GpuBinding::Input(has_bias ? 2 : 0)};
  d.params = {total, nhwc ? 1u : 0u, g.out_channels, g.out_h, g.out_w, cg, ocg, kh, kw, g.in_h, g.in_w,
              g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_top, g.pad_left};
  d.params.insert(d.params.end(), xs.begin(), xs.end());
  d.params.insert(d.params.end(), ws.begin(), ws.end());
  d.params.push_back(has_bias ? 1 : 0);
  AddEpilogue(d, attrs.activation, out.type);
  d.groups = GridFor(total);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_conv_transpose2d() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
