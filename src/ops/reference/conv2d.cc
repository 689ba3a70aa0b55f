// Reference kernel of conv2d: a direct convolution over every output element,
// accumulated in float64 and rounded once at the store. Taps on the padding
// read the value 0 and are still multiplied, as on an explicitly zero-padded
// input: a NaN or infinite weight there makes the result NaN.
#include "ops/conv2d.h"

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

// Linear offset of input element (n, c, y, x) for the given layout.
uint64_t InputOffset(const Conv2dGeometry& g, bool nhwc, uint64_t n, uint64_t c, uint64_t y, uint64_t x) {
  if (nhwc) return ((n * g.in_h + y) * g.in_w + x) * g.in_channels + c;
  return ((n * g.in_channels + c) * g.in_h + y) * g.in_w + x;
}

uint64_t OutputOffset(const Conv2dGeometry& g, bool nhwc, uint64_t n, uint64_t c, uint64_t y, uint64_t x) {
  if (nhwc) return ((n * g.out_h + y) * g.out_w + x) * g.out_channels + c;
  return ((n * g.out_channels + c) * g.out_h + y) * g.out_w + x;
}

// Linear offset of filter element (output channel o, group-local input channel i, ky, kx).
uint64_t FilterOffset(const Conv2dGeometry& g, MLConv2dFilterOperandLayout layout, uint64_t o, uint64_t i, uint64_t ky,
                      uint64_t kx) {
  const uint64_t in_per_group = g.in_channels / g.groups;
  switch (layout) {
    case MLConv2dFilterOperandLayout::kOihw: return ((o * in_per_group + i) * g.kernel_h + ky) * g.kernel_w + kx;
    case MLConv2dFilterOperandLayout::kHwio: return ((ky * g.kernel_w + kx) * in_per_group + i) * g.out_channels + o;
    case MLConv2dFilterOperandLayout::kOhwi: return ((o * g.kernel_h + ky) * g.kernel_w + kx) * in_per_group + i;
    case MLConv2dFilterOperandLayout::kIhwo: return ((i * g.kernel_h + ky) * g.kernel_w + kx) * g.out_channels + o;
  }
  return 0;
}

}  // namespace

void RunConv2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<Conv2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& filter = ctx.inputs[1];
  const TensorView* bias = OptionalInput(ctx.inputs, 2);
  const TensorView& out = ctx.outputs[0];
  const Conv2dGeometry g = ComputeConv2dGeometry(attrs, input.shape, filter.shape);
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  const uint32_t in_per_group = g.in_channels / g.groups;
  const uint32_t out_per_group = g.out_channels / g.groups;

  for (uint64_t n = 0; n < g.batch; ++n) {
    for (uint32_t o = 0; o < g.out_channels; ++o) {
      const uint64_t group = o / out_per_group;
      const double b = bias ? Load<double>(*bias, o) : 0.0;
      for (uint32_t oy = 0; oy < g.out_h; ++oy) {
        for (uint32_t ox = 0; ox < g.out_w; ++ox) {
          double sum = 0.0;
          for (uint32_t i = 0; i < in_per_group; ++i) {
            const uint64_t c = group * in_per_group + i;
            for (uint32_t ky = 0; ky < g.kernel_h; ++ky) {
              // Position in the unpadded input; negative or past the end is padding.
              const int64_t y = int64_t{oy} * g.stride_h + int64_t{ky} * g.dilation_h - g.pad_top;
              const bool y_inside = y >= 0 && y < g.in_h;
              for (uint32_t kx = 0; kx < g.kernel_w; ++kx) {
                const int64_t x = int64_t{ox} * g.stride_w + int64_t{kx} * g.dilation_w - g.pad_left;
                const bool inside = y_inside && x >= 0 && x < g.in_w;
                const double value = inside ? Load<double>(input, InputOffset(g, nhwc, n, c, y, x)) : 0.0;
                sum += value * Load<double>(filter, FilterOffset(g, attrs.filterLayout, o, i, ky, kx));
              }
            }
          }
          Store<double>(out, OutputOffset(g, nhwc, n, o, oy, ox), sum + b);
        }
      }
    }
  }
}

}  // namespace webnn::ops::ref
