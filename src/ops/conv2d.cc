// conv2d: validation, output shape, and the window arithmetic shared with
// convTranspose2d and the pooling operations.
#include "ops/conv2d.h"

#include <limits>

namespace webnn::ops {

int64_t ConvOutputSize(uint64_t input, uint64_t filter, uint64_t pad_begin, uint64_t pad_end, uint64_t stride,
                       uint64_t dilation, bool round_up) {
  // filter - 1 < 2^32 and dilation < 2^32, so the product does not wrap uint64.
  const uint64_t effective = (filter - 1) * dilation + 1;
  if (effective > uint64_t{std::numeric_limits<int64_t>::max() / 2}) return std::numeric_limits<int64_t>::min();
  const int64_t span = static_cast<int64_t>(input + pad_begin + pad_end) - static_cast<int64_t>(effective);
  // 1 + span / stride == (span + stride) / stride, rounded toward -inf or +inf.
  const int64_t numerator = span + static_cast<int64_t>(stride);
  const int64_t s = static_cast<int64_t>(stride);
  int64_t q = numerator / s;  // truncates toward zero
  const int64_t r = numerator % s;
  if (r != 0 && ((r < 0) != round_up)) q += round_up ? 1 : -1;
  return q;
}

void CheckWindowOptions(const InferContext& ctx, const std::vector<uint32_t>& padding,
                        const std::vector<uint32_t>& strides, const std::vector<uint32_t>& dilations) {
  if (padding.size() != 4) ctx.Fail("padding must have 4 entries, got ", padding.size());
  if (strides.size() != 2) ctx.Fail("strides must have 2 entries, got ", strides.size());
  if (strides[0] == 0 || strides[1] == 0) ctx.Fail("strides must be greater than 0, got ", core::ListToString(strides));
  if (dilations.size() != 2) ctx.Fail("dilations must have 2 entries, got ", dilations.size());
  if (dilations[0] == 0 || dilations[1] == 0)
    ctx.Fail("dilations must be greater than 0, got ", core::ListToString(dilations));
}

namespace {

// a * b, saturating at UINT64_MAX.
uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
  return a * b;
}

}  // namespace

void CheckPaddedInputSize(const InferContext& ctx, const OperandDesc& input, bool nhwc,
                          const std::vector<uint32_t>& padding) {
  const Shape& s = input.shape;
  const uint64_t padded_h = uint64_t{s[nhwc ? 1 : 2].size} + padding[0] + padding[1];
  const uint64_t padded_w = uint64_t{s[nhwc ? 2 : 3].size} + padding[2] + padding[3];
  uint64_t elements = SaturatingMul(s[0].size, s[nhwc ? 3 : 1].size);
  elements = SaturatingMul(SaturatingMul(elements, padded_h), padded_w);
  const uint64_t bytes = SaturatingMul(elements, ByteLengthFor(input.type, 1));
  if (bytes > core::kMaxTensorByteLength)
    ctx.Fail("the input padded by padding ", core::ListToString(padding), " would have ", padded_h, " x ", padded_w,
             " spatial elements, more than the maximum tensor byte length ", core::kMaxTensorByteLength, " allows");
}

namespace {

struct Conv2dDims {
  Dim batch, channels, height, width;
};
struct Conv2dFilterDims {
  Dim out_channels, in_channels, height, width;
};

Conv2dDims InputDims(const Shape& s, MLInputOperandLayout layout) {
  if (layout == MLInputOperandLayout::kNchw) return {s[0], s[1], s[2], s[3]};
  return {s[0], s[3], s[1], s[2]};
}

Conv2dFilterDims FilterDims(const Shape& f, MLConv2dFilterOperandLayout layout) {
  switch (layout) {
    case MLConv2dFilterOperandLayout::kOihw: return {f[0], f[1], f[2], f[3]};
    case MLConv2dFilterOperandLayout::kHwio: return {f[3], f[2], f[0], f[1]};
    case MLConv2dFilterOperandLayout::kOhwi: return {f[0], f[3], f[1], f[2]};
    case MLConv2dFilterOperandLayout::kIhwo: return {f[3], f[0], f[1], f[2]};
  }
  return {f[0], f[1], f[2], f[3]};
}

// One spatial output dimension of conv2d (floor rounding).
Dim Conv2dOutputDim(const InferContext& ctx, const Dim& input, const Dim& filter, uint32_t pad_begin, uint32_t pad_end,
                    uint32_t stride, uint32_t dilation, std::string_view what) {
  const int64_t size = ConvOutputSize(input.size, filter.size, pad_begin, pad_end, stride, dilation);
  if (size <= 0)
    ctx.Fail("output ", what, " would be ", size < -(int64_t{1} << 40) ? std::string("negative") : std::to_string(size),
             ": input ", what, " ", input.size, " with padding ", pad_begin, " + ", pad_end,
             " is smaller than the filter ", what, " ", filter.size, " dilated by ", dilation);
  return ctx.MakeDim(static_cast<uint64_t>(size), {input, filter}, core::StrCat("output ", what));
}

std::vector<OperandDesc> InferConv2d(const InferContext& ctx, const OpAttrs& base,
                                     std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<Conv2dAttrs>(base);
  const OperandDesc& input = *in[0];
  const OperandDesc& filter = *in[1];
  const OperandDesc* bias = in.size() > 2 ? in[2] : nullptr;

  CheckWindowOptions(ctx, attrs.padding, attrs.strides, attrs.dilations);
  const uint32_t groups = attrs.groups;
  if (groups == 0) ctx.Fail("groups must be greater than 0, got 0");

  const Conv2dDims x = InputDims(input.shape, attrs.inputLayout);
  const Conv2dFilterDims w = FilterDims(filter.shape, attrs.filterLayout);
  if (x.channels.IsStatic()) {
    if (x.channels.size % groups != 0)
      ctx.Fail("input channels ", x.channels.size, " must be divisible by groups ", groups);
    if (w.in_channels.IsStatic() && x.channels.size / groups != w.in_channels.size)
      ctx.Fail("filter input channels ", w.in_channels.size, " must equal input channels / groups (", x.channels.size,
               " / ", groups, " = ", x.channels.size / groups, ")");
  }
  if (w.out_channels.IsStatic() && w.out_channels.size % groups != 0)
    ctx.Fail("filter output channels ", w.out_channels.size, " must be divisible by groups ", groups);
  if (bias) CheckShape(ctx, *bias, {w.out_channels}, "bias");

  const Dim out_h = Conv2dOutputDim(ctx, x.height, w.height, attrs.padding[0], attrs.padding[1], attrs.strides[0],
                                    attrs.dilations[0], "height");
  const Dim out_w = Conv2dOutputDim(ctx, x.width, w.width, attrs.padding[2], attrs.padding[3], attrs.strides[1],
                                    attrs.dilations[1], "width");
  const bool nhwc = attrs.inputLayout == MLInputOperandLayout::kNhwc;
  CheckPaddedInputSize(ctx, input, nhwc, attrs.padding);

  Shape out = nhwc ? Shape{x.batch, out_h, out_w, w.out_channels} : Shape{x.batch, w.out_channels, out_h, out_w};
  return {OperandDesc{input.type, std::move(out)}};
}

}  // namespace

Conv2dGeometry ComputeConv2dGeometry(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                                     const std::vector<uint32_t>& filter_shape) {
  const Conv2dDims x = InputDims(core::StaticShape(input_shape), attrs.inputLayout);
  const Conv2dFilterDims w = FilterDims(core::StaticShape(filter_shape), attrs.filterLayout);
  Conv2dGeometry g{};
  g.batch = x.batch.size;
  g.in_channels = x.channels.size;
  g.in_h = x.height.size;
  g.in_w = x.width.size;
  g.out_channels = w.out_channels.size;
  g.kernel_h = w.height.size;
  g.kernel_w = w.width.size;
  g.groups = attrs.groups;
  g.stride_h = attrs.strides[0];
  g.stride_w = attrs.strides[1];
  g.dilation_h = attrs.dilations[0];
  g.dilation_w = attrs.dilations[1];
  g.pad_top = attrs.padding[0];
  g.pad_bottom = attrs.padding[1];
  g.pad_left = attrs.padding[2];
  g.pad_right = attrs.padding[3];
  g.out_h =
      static_cast<uint32_t>(ConvOutputSize(g.in_h, g.kernel_h, g.pad_top, g.pad_bottom, g.stride_h, g.dilation_h));
  g.out_w =
      static_cast<uint32_t>(ConvOutputSize(g.in_w, g.kernel_w, g.pad_left, g.pad_right, g.stride_w, g.dilation_w));
  return g;
}

const OpSchema& Conv2dSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::conv2d,
                                {{"input", core::kFloatTypes, -1, Rank(4)},
                                 {"filter", {}, 0, Rank(4)},
                                 {"bias", {}, 0, Rank(1), /*optional=*/true}},
                                {{"output", {}, 0, Rank(4)}},
                                &InferConv2d};
  if (op != OpKind::conv2d) throw std::logic_error("Conv2dSchema: not conv2d");
  return kSchema;
}

}  // namespace webnn::ops
