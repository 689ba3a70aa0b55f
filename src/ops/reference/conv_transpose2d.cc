// Reference kernel of convTranspose2d, written as a gather: output element
// (oy, ox) sums input (iy, ix) * filter (ky, kx) over every tap with
// iy * stride + ky * dilation == oy + padBegin (likewise for x). Padding crops
// the full transposed-convolution result; outputPadding/outputSizes extend it
// at the end, where rows past every tap receive only the bias. Accumulated in
// float64 and rounded once at the store.
#include "ops/conv_transpose2d.h"

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

uint64_t InputOffset(const ConvTranspose2dGeometry& g, bool nhwc, uint64_t n, uint64_t c, uint64_t y, uint64_t x) {
  if (nhwc) return ((n * g.in_h + y) * g.in_w + x) * g.in_channels + c;
  return ((n * g.in_channels + c) * g.in_h + y) * g.in_w + x;
}

uint64_t OutputOffset(const ConvTranspose2dGeometry& g, bool nhwc, uint64_t n, uint64_t c, uint64_t y, uint64_t x) {
  if (nhwc) return ((n * g.out_h + y) * g.out_w + x) * g.out_channels + c;
  return ((n * g.out_channels + c) * g.out_h + y) * g.out_w + x;
}

// Linear offset of filter element (input channel c, group-local output channel o, ky, kx).
uint64_t FilterOffset(const ConvTranspose2dGeometry& g, MLConvTranspose2dFilterOperandLayout layout, uint64_t c,
                      uint64_t o, uint64_t ky, uint64_t kx) {
  const uint64_t out_per_group = g.out_channels / g.groups;
  switch (layout) {
    case MLConvTranspose2dFilterOperandLayout::kIohw:
      return ((c * out_per_group + o) * g.kernel_h + ky) * g.kernel_w + kx;
    case MLConvTranspose2dFilterOperandLayout::kHwoi:
      return ((ky * g.kernel_w + kx) * out_per_group + o) * g.in_channels + c;
    case MLConvTranspose2dFilterOperandLayout::kOhwi:
      return ((o * g.kernel_h + ky) * g.kernel_w + kx) * g.in_channels + c;
  }
  return 0;
}

// The input index that tap k of output position `out` reads, or -1 if none:
// in * stride + k * dilation == out + pad_begin.
int64_t SourceIndex(uint32_t out, uint32_t k, uint32_t stride, uint32_t dilation, uint32_t pad_begin, uint32_t size) {
  const int64_t t = int64_t{out} + pad_begin - int64_t{k} * dilation;
  if (t < 0 || t % stride != 0) return -1;
  const int64_t in = t / stride;
  return in < size ? in : -1;
}

}  // namespace

void RunConvTranspose2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ConvTranspose2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& filter = ctx.inputs[1];
  const TensorView* bias = OptionalInput(ctx.inputs, 2);
  const TensorView& out = ctx.outputs[0];
  const ConvTranspose2dGeometry g = ComputeConvTranspose2dGeometry(attrs, input.shape, filter.shape);
  // The spec accepts any groups, but input channels that do not split evenly
  // into groups have no meaning for a grouped convolution.
  if (g.in_channels % g.groups != 0)
    throw NotSupportedError(
        core::StrCat("convTranspose2d: input channels ", g.in_channels, " are not divisible by groups ", g.groups));
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  const uint32_t in_per_group = g.in_channels / g.groups;
  const uint32_t out_per_group = g.out_channels / g.groups;

  for (uint64_t n = 0; n < g.batch; ++n) {
    for (uint32_t o = 0; o < g.out_channels; ++o) {
      const uint64_t group = o / out_per_group;
      const uint64_t o_in_group = o % out_per_group;
      const double b = bias ? Load<double>(*bias, o) : 0.0;
      for (uint32_t oy = 0; oy < g.out_h; ++oy) {
        for (uint32_t ox = 0; ox < g.out_w; ++ox) {
          double sum = 0.0;
          for (uint32_t i = 0; i < in_per_group; ++i) {
            const uint64_t c = group * in_per_group + i;
            for (uint32_t ky = 0; ky < g.kernel_h; ++ky) {
              const int64_t iy = SourceIndex(oy, ky, g.stride_h, g.dilation_h, g.pad_top, g.in_h);
              if (iy < 0) continue;
              for (uint32_t kx = 0; kx < g.kernel_w; ++kx) {
                const int64_t ix = SourceIndex(ox, kx, g.stride_w, g.dilation_w, g.pad_left, g.in_w);
                if (ix < 0) continue;
                sum += Load<double>(input, InputOffset(g, nhwc, n, c, iy, ix)) *
                       Load<double>(filter, FilterOffset(g, attrs.filterLayout, c, o_in_group, ky, kx));
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
