// gpu kernel of conv2d: shaders/conv2d.comp (implicit GEMM, tiled through
// shared memory) or, when a group has few output channels (depthwise),
// shaders/conv2d_direct.comp. Layouts become element strides of the input,
// filter and output, so one shader covers every inputLayout/filterLayout.
#include <algorithm>
#include <array>

#include "core/strings.h"
#include "ops/conv2d.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

// Below this many output channels per group the 64-wide channel tile of the
// implicit GEMM wastes over 7/8 of its lanes; one thread per output wins.
constexpr uint32_t kDirectMaxChannelsPerGroup = 8;

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<Conv2dAttrs>(s.attrs);
  const GpuOperand& input = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const bool has_bias = s.has_input(2);
  const Conv2dGeometry g = ComputeConv2dGeometry(attrs, input.shape, s.inputs[1].shape);
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  const uint32_t cg = g.in_channels / g.groups, ocg = g.out_channels / g.groups;
  const uint32_t kh = g.kernel_h, kw = g.kernel_w, oc = g.out_channels;

  // Element strides (n, c, y, x) of the input and output, (o, i, ky, kx) of the filter.
  auto layout_strides = [&](uint32_t c, uint32_t h, uint32_t w) -> std::array<uint32_t, 4> {
    if (nhwc) return {h * w * c, 1, w * c, c};
    return {c * h * w, h * w, w, 1};
  };
  const auto xs = layout_strides(g.in_channels, g.in_h, g.in_w);
  const auto os = layout_strides(g.out_channels, g.out_h, g.out_w);
  std::array<uint32_t, 4> ws{};
  switch (attrs.filterLayout) {
    case MLConv2dFilterOperandLayout::kOihw: ws = {cg * kh * kw, kh * kw, kw, 1}; break;
    case MLConv2dFilterOperandLayout::kHwio: ws = {1, oc, kw * cg * oc, cg * oc}; break;
    case MLConv2dFilterOperandLayout::kOhwi: ws = {kh * kw * cg, 1, kw * cg, cg}; break;
    case MLConv2dFilterOperandLayout::kIhwo: ws = {1, kh * kw * oc, kw * oc, oc}; break;
  }
  const uint32_t pixels = Count32(uint64_t{g.batch} * g.out_h * g.out_w);
  const uint32_t total = Count32(out.elements());

  GpuDispatch d;
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0), GpuBinding::Input(has_bias ? 2 : 0)};
  d.params = {pixels, g.out_h, g.out_w, ocg, cg, kh, kw, g.groups, g.in_h, g.in_w, g.stride_h, g.stride_w,
              g.dilation_h, g.dilation_w, g.pad_top, g.pad_left};
  d.params.insert(d.params.end(), xs.begin(), xs.end());
  d.params.insert(d.params.end(), ws.begin(), ws.end());
  d.params.insert(d.params.end(), os.begin(), os.end());
  d.params.push_back(has_bias ? 1 : 0);
  d.params.push_back(nhwc ? 1 : 0);
  d.params.push_back(ws[0] == 1 ? 1 : 0);
  d.params.push_back(total);
  AddEpilogue(d, attrs.activation, out.type);
  if (ocg <= kDirectMaxChannelsPerGroup) {
    d.shader = core::StrCat("conv2d_direct.", TypeSuffix(out.type));
    d.groups = GridFor(total);
  } else {
    d.shader = core::StrCat("conv2d.", TypeSuffix(out.type));
    d.groups = {std::min<uint32_t>((ocg + 63) / 64, 65535), std::min<uint32_t>((pixels + 63) / 64, 65535),
                std::min<uint32_t>(g.groups, 65535)};
  }
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_conv2d() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
