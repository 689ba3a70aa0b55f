// convTranspose2d: validation and output shape.
#include "ops/conv_transpose2d.h"

#include "ops/conv2d.h"

namespace webnn::ops {
namespace {

// (input - 1) * stride + (filter - 1) * dilation + 1 reaches 2^64 for 32-bit
// arguments, so the spec's "calculate convtranspose output size" is done in 128 bits.
__extension__ typedef __int128 Int128;

struct InputDims {
  Dim batch, channels, height, width;
};
struct FilterDims {
  Dim in_channels, out_channels_per_group, height, width;
};

InputDims GetInputDims(const Shape& s, MLInputOperandLayout layout) {
  if (layout == MLInputOperandLayout::kNchw) return {s[0], s[1], s[2], s[3]};
  return {s[0], s[3], s[1], s[2]};
}

FilterDims GetFilterDims(const Shape& f, MLConvTranspose2dFilterOperandLayout layout) {
  switch (layout) {
    case MLConvTranspose2dFilterOperandLayout::kIohw: return {f[0], f[1], f[2], f[3]};
    case MLConvTranspose2dFilterOperandLayout::kHwoi: return {f[3], f[2], f[0], f[1]};
    case MLConvTranspose2dFilterOperandLayout::kOhwi: return {f[3], f[0], f[1], f[2]};
  }
  return {f[0], f[1], f[2], f[3]};
}

Int128 CalculatedOutputSize(uint64_t input, uint64_t filter, uint64_t pad_begin, uint64_t pad_end, uint64_t stride,
                            uint64_t dilation) {
  const Int128 effective = Int128(filter - 1) * dilation + 1;
  return Int128(input - 1) * stride + effective - Int128(pad_begin) - Int128(pad_end);
}

std::string ToString(Int128 v) {
  if (v >= Int128(INT64_MIN) && v <= Int128(INT64_MAX)) return std::to_string(static_cast<int64_t>(v));
  return v < 0 ? "a huge negative value" : "a huge value";
}

// One spatial output dimension: outputSizes[i] if given (within [calculated,
// calculated + stride)), else calculated + outputPadding[i].
Dim OutputDim(const InferContext& ctx, const ConvTranspose2dAttrs& attrs, size_t i, const Dim& input, const Dim& filter,
              std::string_view what) {
  const Int128 calculated = CalculatedOutputSize(input.size, filter.size, attrs.padding[2 * i],
                                                 attrs.padding[2 * i + 1], attrs.strides[i], attrs.dilations[i]);
  if (attrs.outputSizes) {
    const uint32_t size = (*attrs.outputSizes)[i];
    // A size calculated from a dynamic dimension's upper bound says nothing
    // about the dispatched size; dispatch runs this check again with concrete dims.
    const bool dynamic = !input.IsStatic() || !filter.IsStatic();
    if (!dynamic && (size < calculated || size >= calculated + attrs.strides[i]))
      ctx.Fail("outputSizes[", i, "] (output ", what, ") must be in [", ToString(calculated), ", ",
               ToString(calculated + attrs.strides[i]), ") for input ", what, " ", input.size, ", filter ", what, " ",
               filter.size, ", stride ", attrs.strides[i], ", dilation ", attrs.dilations[i], " and padding ",
               attrs.padding[2 * i], " + ", attrs.padding[2 * i + 1], "; got ", size);
    return ctx.MakeDim(size, {}, core::StrCat("output ", what));
  }
  const Int128 size = calculated + attrs.outputPadding[i];
  if (size <= 0)
    ctx.Fail("output ", what, " would be ", ToString(size), ": padding ", attrs.padding[2 * i], " + ",
             attrs.padding[2 * i + 1], " is too large for input ", what, " ", input.size, ", filter ", what, " ",
             filter.size, ", stride ", attrs.strides[i], " and dilation ", attrs.dilations[i]);
  if (size > Int128(core::kMaxDimension))
    ctx.Fail("output ", what, " would be ", ToString(size), ", more than the maximum ", core::kMaxDimension);
  return ctx.MakeDim(static_cast<uint64_t>(size), {input, filter}, core::StrCat("output ", what));
}

std::vector<OperandDesc> InferConvTranspose2d(const InferContext& ctx, const OpAttrs& base,
                                              std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<ConvTranspose2dAttrs>(base);
  const OperandDesc& input = *in[0];
  const OperandDesc& filter = *in[1];
  const OperandDesc* bias = in.size() > 2 ? in[2] : nullptr;

  CheckWindowOptions(ctx, attrs.padding, attrs.strides, attrs.dilations);
  if (attrs.outputPadding.size() != 2) ctx.Fail("outputPadding must have 2 entries, got ", attrs.outputPadding.size());
  if (attrs.outputSizes) {
    const auto& sizes = *attrs.outputSizes;
    if (sizes.size() != 2) ctx.Fail("outputSizes must have 2 entries, got ", sizes.size());
    if (sizes[0] == 0 || sizes[1] == 0) ctx.Fail("outputSizes must be greater than 0, got ", core::ListToString(sizes));
  } else {
    for (size_t i = 0; i < 2; ++i)
      if (attrs.outputPadding[i] >= attrs.strides[i])
        ctx.Fail("outputPadding[", i, "] must be smaller than strides[", i, "] (", attrs.strides[i], "), got ",
                 attrs.outputPadding[i]);
  }
  if (attrs.groups == 0) ctx.Fail("groups must be greater than 0, got 0");

  const InputDims x = GetInputDims(input.shape, attrs.inputLayout);
  const FilterDims w = GetFilterDims(filter.shape, attrs.filterLayout);
  if (!MaybeEqual(x.channels, w.in_channels))
    ctx.Fail("filter input channels ", w.in_channels.size, " must equal input channels ", x.channels.size);
  const Dim out_channels = ctx.MakeDim(uint64_t{w.out_channels_per_group.size} * attrs.groups,
                                       {w.out_channels_per_group}, "output channels (filter output channels * groups)");
  if (bias) CheckShape(ctx, *bias, {out_channels}, "bias");

  const Dim out_h = OutputDim(ctx, attrs, 0, x.height, w.height, "height");
  const Dim out_w = OutputDim(ctx, attrs, 1, x.width, w.width, "width");
  Shape out = attrs.inputLayout == MLInputOperandLayout::kNhwc ? Shape{x.batch, out_h, out_w, out_channels}
                                                               : Shape{x.batch, out_channels, out_h, out_w};
  return {OperandDesc{input.type, std::move(out)}};
}

}  // namespace

ConvTranspose2dGeometry ComputeConvTranspose2dGeometry(const ConvTranspose2dAttrs& attrs,
                                                       const std::vector<uint32_t>& input_shape,
                                                       const std::vector<uint32_t>& filter_shape) {
  const InputDims x = GetInputDims(core::StaticShape(input_shape), attrs.inputLayout);
  const FilterDims w = GetFilterDims(core::StaticShape(filter_shape), attrs.filterLayout);
  ConvTranspose2dGeometry g{};
  g.batch = x.batch.size;
  g.in_channels = x.channels.size;
  g.in_h = x.height.size;
  g.in_w = x.width.size;
  g.groups = attrs.groups;
  g.out_channels = w.out_channels_per_group.size * attrs.groups;
  g.kernel_h = w.height.size;
  g.kernel_w = w.width.size;
  g.stride_h = attrs.strides[0];
  g.stride_w = attrs.strides[1];
  g.dilation_h = attrs.dilations[0];
  g.dilation_w = attrs.dilations[1];
  g.pad_top = attrs.padding[0];
  g.pad_bottom = attrs.padding[1];
  g.pad_left = attrs.padding[2];
  g.pad_right = attrs.padding[3];
  if (attrs.outputSizes) {
    g.out_h = (*attrs.outputSizes)[0];
    g.out_w = (*attrs.outputSizes)[1];
  } else {
    g.out_h = static_cast<uint32_t>(
        CalculatedOutputSize(g.in_h, g.kernel_h, g.pad_top, g.pad_bottom, g.stride_h, g.dilation_h) +
        attrs.outputPadding[0]);
    g.out_w = static_cast<uint32_t>(
        CalculatedOutputSize(g.in_w, g.kernel_w, g.pad_left, g.pad_right, g.stride_w, g.dilation_w) +
        attrs.outputPadding[1]);
  }
  return g;
}

const OpSchema& ConvTranspose2dSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::convTranspose2d,
                                {{"input", core::kFloatTypes, -1, Rank(4)},
                                 {"filter", {}, 0, Rank(4)},
                                 {"bias", {}, 0, Rank(1), /*optional=*/true}},
                                {{"output", {}, 0, Rank(4)}},
                                &InferConvTranspose2d};
  if (op != OpKind::convTranspose2d) throw std::logic_error("ConvTranspose2dSchema: not convTranspose2d");
  return kSchema;
}

}  // namespace webnn::ops
