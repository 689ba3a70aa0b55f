// averagePool2d, l2Pool2d, maxPool2d: validation and output shape.
//
// Two steps of the spec's "create a pooling operation" are not applied, because
// WPT (and every implementation) contradicts them: "if outputSizes exists, set
// padding to [0, 0, 0, 0]" (WPT expects outputSizes checked against the padded
// sizes) and "if outputSizes' items are not smaller than strides' items, throw"
// (WPT expects outputSizes [3, 3] with strides [2, 2] to succeed).
#include "ops/pool2d.h"

#include "ops/conv2d.h"

namespace webnn::ops {
namespace {

struct PoolInputDims {
  Dim batch, channels, height, width;
};

PoolInputDims GetInputDims(const Shape& s, MLInputOperandLayout layout) {
  if (layout == MLInputOperandLayout::kNchw) return {s[0], s[1], s[2], s[3]};
  return {s[0], s[3], s[1], s[2]};
}

// The floor- and ceil-rounded output size of one spatial dimension.
struct RoundedSizes {
  int64_t floor, ceil;
};

std::vector<OperandDesc> InferPool2d(const InferContext& ctx, const OpAttrs& base,
                                     std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<Pool2dAttrs>(base);
  const OperandDesc& input = *in[0];
  const PoolInputDims x = GetInputDims(input.shape, attrs.layout);

  std::vector<uint32_t> window{x.height.size, x.width.size};
  if (attrs.windowDimensions) {
    window = *attrs.windowDimensions;
    if (window.size() != 2) ctx.Fail("windowDimensions must have 2 entries, got ", window.size());
    if (window[0] == 0 || window[1] == 0)
      ctx.Fail("windowDimensions must be greater than 0, got ", core::ListToString(window));
  }
  CheckWindowOptions(ctx, attrs.padding, attrs.strides, attrs.dilations);
  if (attrs.outputSizes) {
    if (attrs.outputSizes->size() != 2) ctx.Fail("outputSizes must have 2 entries, got ", attrs.outputSizes->size());
    if ((*attrs.outputSizes)[0] == 0 || (*attrs.outputSizes)[1] == 0)
      ctx.Fail("outputSizes must be greater than 0, got ", core::ListToString(*attrs.outputSizes));
  }

  const Dim input_hw[2] = {x.height, x.width};
  const char* const names[2] = {"height", "width"};
  RoundedSizes sizes[2];
  for (size_t i = 0; i < 2; ++i) {
    sizes[i] = {ConvOutputSize(input_hw[i].size, window[i], attrs.padding[2 * i], attrs.padding[2 * i + 1],
                               attrs.strides[i], attrs.dilations[i], false),
                ConvOutputSize(input_hw[i].size, window[i], attrs.padding[2 * i], attrs.padding[2 * i + 1],
                               attrs.strides[i], attrs.dilations[i], true)};
  }

  int64_t out_sizes[2];
  if (attrs.outputSizes) {
    const auto& want = *attrs.outputSizes;
    const bool is_floor = want[0] == sizes[0].floor && want[1] == sizes[1].floor;
    const bool is_ceil = want[0] == sizes[0].ceil && want[1] == sizes[1].ceil;
    // Sizes computed from a dynamic dimension's upper bound say nothing about
    // the dispatched size; dispatch runs this check again with concrete dims.
    const bool dynamic = !x.height.IsStatic() || !x.width.IsStatic();
    if (!is_floor && !is_ceil && !dynamic)
      ctx.Fail("outputSizes must be the floor-rounded sizes [", sizes[0].floor, ", ", sizes[1].floor,
               "] or the ceil-rounded sizes [", sizes[0].ceil, ", ", sizes[1].ceil, "], got ",
               core::ListToString(want));
    out_sizes[0] = want[0];
    out_sizes[1] = want[1];
  } else {
    const bool ceil = attrs.outputShapeRounding == MLRoundingType::kCeil;
    out_sizes[0] = ceil ? sizes[0].ceil : sizes[0].floor;
    out_sizes[1] = ceil ? sizes[1].ceil : sizes[1].floor;
  }

  Dim out_hw[2];
  for (size_t i = 0; i < 2; ++i) {
    if (out_sizes[i] <= 0)
      ctx.Fail("output ", names[i], " would be ",
               out_sizes[i] < -(int64_t{1} << 40) ? std::string("negative") : std::to_string(out_sizes[i]), ": input ",
               names[i], " ", input_hw[i].size, " with padding ", attrs.padding[2 * i], " + ", attrs.padding[2 * i + 1],
               " is smaller than the window ", names[i], " ", window[i], " dilated by ", attrs.dilations[i]);
    // A default window spans the whole input, so the output size does not depend on it.
    std::vector<Dim> from;
    if (attrs.windowDimensions && !attrs.outputSizes) from.push_back(input_hw[i]);
    out_hw[i] = ctx.MakeDim(static_cast<uint64_t>(out_sizes[i]), from, core::StrCat("output ", names[i]));
  }
  const bool nhwc = attrs.layout == MLInputOperandLayout::kNhwc;
  CheckPaddedInputSize(ctx, input, nhwc, attrs.padding);

  Shape out =
      nhwc ? Shape{x.batch, out_hw[0], out_hw[1], x.channels} : Shape{x.batch, x.channels, out_hw[0], out_hw[1]};
  return {OperandDesc{input.type, std::move(out)}};
}

}  // namespace

Pool2dGeometry ComputePool2dGeometry(const Pool2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                                     const std::vector<uint32_t>& output_shape) {
  const bool nhwc = attrs.layout == MLInputOperandLayout::kNhwc;
  Pool2dGeometry g{};
  g.batch = input_shape[0];
  g.channels = input_shape[nhwc ? 3 : 1];
  g.in_h = input_shape[nhwc ? 1 : 2];
  g.in_w = input_shape[nhwc ? 2 : 3];
  g.out_h = output_shape[nhwc ? 1 : 2];
  g.out_w = output_shape[nhwc ? 2 : 3];
  g.window_h = attrs.windowDimensions ? (*attrs.windowDimensions)[0] : g.in_h;
  g.window_w = attrs.windowDimensions ? (*attrs.windowDimensions)[1] : g.in_w;
  g.stride_h = attrs.strides[0];
  g.stride_w = attrs.strides[1];
  g.dilation_h = attrs.dilations[0];
  g.dilation_w = attrs.dilations[1];
  g.pad_top = attrs.padding[0];
  g.pad_bottom = attrs.padding[1];
  g.pad_left = attrs.padding[2];
  g.pad_right = attrs.padding[3];
  return g;
}

const OpSchema& Pool2dSchema(OpKind op) {
  static const OpSchema kSchemas[] = {
      {OpKind::averagePool2d, {{"input", core::kFloatTypes, -1, Rank(4)}}, {{"output", {}, 0, Rank(4)}}, &InferPool2d},
      {OpKind::l2Pool2d, {{"input", core::kFloatTypes, -1, Rank(4)}}, {{"output", {}, 0, Rank(4)}}, &InferPool2d},
      {OpKind::maxPool2d, {{"input", core::kAnySpecType, -1, Rank(4)}}, {{"output", {}, 0, Rank(4)}}, &InferPool2d},
  };
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("Pool2dSchema: not a pooling op");
}

}  // namespace webnn::ops
