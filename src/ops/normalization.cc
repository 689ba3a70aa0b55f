// batchNormalization, instanceNormalization, layerNormalization: validation and
// shape inference. The output always has the input's descriptor.
#include "ops/normalization.h"

#include <cmath>

namespace webnn::ops {
std::vector<uint32_t> LayerNormalizationAxes(const LayerNormalizationAttrs& attrs, uint32_t rank) {
  if (attrs.axes) return *attrs.axes;
  std::vector<uint32_t> axes;
  for (uint32_t i = 1; i < rank; ++i) axes.push_back(i);
  return axes;
}

namespace {

// epsilon is a WebIDL `double`: a binding would reject non-finite values.
void CheckEpsilon(const InferContext& ctx, double epsilon) {
  if (!std::isfinite(epsilon)) ctx.Fail("epsilon must be a finite number, got ", epsilon);
}

// An optional 1-D operand (mean, variance, scale, bias) whose size must be the
// input's size along `axis`.
void CheckPerChannel(const InferContext& ctx, const OperandDesc& input, const OperandDesc* d, uint32_t axis,
                     std::string_view what) {
  if (d == nullptr) return;
  CheckSameType(ctx, input, *d, "input", what);
  CheckRank(ctx, *d, 1, what);
  if (!MaybeEqual(d->shape[0], input.shape[axis]))
    ctx.Fail("argument '", what, "' shape ", ctx.ShapeToString(d->shape), " must be [",
             ctx.DimToString(input.shape[axis]), "] (input dimension ", axis, " of ", ctx.ShapeToString(input.shape),
             ")");
}

std::vector<OperandDesc> InferBatchNormalization(const InferContext& ctx, const OpAttrs& attrs_base,
                                                 std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<BatchNormalizationAttrs>(attrs_base);
  const OperandDesc& input = *in[0];
  CheckRank(ctx, input, RanksFrom(1), "input");
  if (attrs.axis >= input.rank())
    ctx.Fail("axis must be in [0, ", input.rank(), ") for an input of rank ", input.rank(), ", got ", attrs.axis);
  CheckPerChannel(ctx, input, in[1], attrs.axis, "mean");
  CheckPerChannel(ctx, input, in[2], attrs.axis, "variance");
  CheckEpsilon(ctx, attrs.epsilon);
  CheckPerChannel(ctx, input, in[3], attrs.axis, "scale");
  CheckPerChannel(ctx, input, in[4], attrs.axis, "bias");
  return {input};
}

std::vector<OperandDesc> InferInstanceNormalization(const InferContext& ctx, const OpAttrs& attrs_base,
                                                    std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<InstanceNormalizationAttrs>(attrs_base);
  const OperandDesc& input = *in[0];
  CheckRank(ctx, input, 4, "input");
  CheckEpsilon(ctx, attrs.epsilon);
  const uint32_t axis = attrs.layout == MLInputOperandLayout::kNchw ? 1 : 3;
  CheckPerChannel(ctx, input, in[1], axis, "scale");
  CheckPerChannel(ctx, input, in[2], axis, "bias");
  return {input};
}

// scale and bias of layerNormalization: rank = axes.size(), dimension i = input.shape[axes[i]].
void CheckLayerNormParam(const InferContext& ctx, const OperandDesc& input, const OperandDesc* d,
                         const std::vector<uint32_t>& axes, std::string_view what) {
  if (d == nullptr) return;
  CheckSameType(ctx, input, *d, "input", what);
  Shape expected;
  for (uint32_t axis : axes) expected.push_back(input.shape[axis]);
  if (d->rank() != axes.size())
    ctx.Fail("argument '", what, "' must have rank ", axes.size(), " (the number of axes), got shape ",
             ctx.ShapeToString(d->shape));
  CheckShape(ctx, *d, expected, what);
}

std::vector<OperandDesc> InferLayerNormalization(const InferContext& ctx, const OpAttrs& attrs_base,
                                                 std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<LayerNormalizationAttrs>(attrs_base);
  const OperandDesc& input = *in[0];
  if (attrs.axes) CheckAxes(ctx, *attrs.axes, input.rank(), "axes");
  const std::vector<uint32_t> axes = LayerNormalizationAxes(attrs, input.rank());
  CheckEpsilon(ctx, attrs.epsilon);
  CheckLayerNormParam(ctx, input, in[1], axes, "scale");
  CheckLayerNormParam(ctx, input, in[2], axes, "bias");
  return {input};
}

}  // namespace

const OpSchema& NormalizationSchema(OpKind op) {
  static const OpSchema kBatch{OpKind::batchNormalization,
                               {{"input", core::kFloatTypes, -1, RanksFrom(1)},
                                {"mean", {}, 0, Rank(1)},
                                {"variance", {}, 0, Rank(1)},
                                {"scale", {}, 0, Rank(1), true},
                                {"bias", {}, 0, Rank(1), true}},
                               {{"output", {}, 0, RanksFrom(1)}},
                               &InferBatchNormalization};
  static const OpSchema kInstance{OpKind::instanceNormalization,
                                  {{"input", core::kFloatTypes, -1, Rank(4)},
                                   {"scale", {}, 0, Rank(1), true},
                                   {"bias", {}, 0, Rank(1), true}},
                                  {{"output", {}, 0, Rank(4)}},
                                  &InferInstanceNormalization};
  static const OpSchema kLayer{OpKind::layerNormalization,
                               {{"input", core::kFloatTypes},
                                {"scale", {}, 0, kAnyRank, true},
                                {"bias", {}, 0, kAnyRank, true}},
                               {{"output", {}, 0}},
                               &InferLayerNormalization};
  switch (op) {
    case OpKind::batchNormalization: return kBatch;
    case OpKind::instanceNormalization: return kInstance;
    case OpKind::layerNormalization: return kLayer;
    default: throw std::logic_error("NormalizationSchema: not a normalization op");
  }
}

}  // namespace webnn::ops
