// quantizeLinear, dequantizeLinear: validation and shape inference. scale and
// zeroPoint share one shape, of the input's rank, that is blockwise broadcast
// to the input (each of its dimensions divides the input's). The output has
// the input's shape, and the zeroPoint's (quantize) or scale's (dequantize)
// data type. int4/uint4 are accepted beyond the spec's types where the
// integer side is: quantized output/zeroPoint, dequantized input/zeroPoint.
#include <stdexcept>

#include "ops/schema.h"

namespace webnn::ops {
namespace {

constexpr DataTypeSet kQuantizedTypes{DataType::kUint8, DataType::kInt8, DataType::kUint32, DataType::kInt32,
                                      DataType::kInt4,  DataType::kUint4};

std::vector<OperandDesc> InferQuantizeLinear(const InferContext& ctx, const OpAttrs&,
                                             std::span<const OperandDesc* const> in) {
  const OperandDesc& input = *in[0];
  const OperandDesc& scale = *in[1];
  const OperandDesc& zero_point = *in[2];
  if (scale.rank() != input.rank())
    ctx.Fail("argument 'scale' rank must equal the input rank ", input.rank(), ", got ", scale.rank());
  if (zero_point.rank() != input.rank())
    ctx.Fail("argument 'zeroPoint' rank must equal the input rank ", input.rank(), ", got ", zero_point.rank());
  for (uint32_t i = 0; i < scale.rank(); ++i) {
    if (!MaybeEqual(scale.shape[i], zero_point.shape[i]))
      ctx.Fail("argument 'zeroPoint' shape ", ctx.ShapeToString(zero_point.shape), " must equal the 'scale' shape ",
               ctx.ShapeToString(scale.shape));
  }
  // zeroPoint has the scale's shape, so checking scale covers both.
  for (uint32_t i = 0; i < scale.rank(); ++i) {
    if (!IsBlockwiseBroadcastable(Shape{scale.shape[i]}, Shape{input.shape[i]}))
      ctx.Fail("argument 'scale' shape ", ctx.ShapeToString(scale.shape),
               " is not blockwise broadcastable to the input shape ", ctx.ShapeToString(input.shape), " (dimension ",
               i, ": ", ctx.DimToString(scale.shape[i]), " does not divide ", ctx.DimToString(input.shape[i]), ")");
  }
  const DataType out_type = ctx.op() == OpKind::quantizeLinear ? zero_point.type : scale.type;
  return {OperandDesc{out_type, input.shape}};
}

}  // namespace

const OpSchema& QuantizeLinearSchema(OpKind op) {
  // Slots in builder order: input, scale, zeroPoint.
  static const OpSchema kQuantize{OpKind::quantizeLinear,
                                  {{"input", core::kFloatTypes}, {"scale", {}, 0}, {"zeroPoint", kQuantizedTypes}},
                                  {{"output", {}, 2}},
                                  &InferQuantizeLinear};
  static const OpSchema kDequantize{OpKind::dequantizeLinear,
                                    {{"input", kQuantizedTypes}, {"scale", core::kFloatTypes}, {"zeroPoint", {}, 0}},
                                    {{"output", {}, 1}},
                                    &InferQuantizeLinear};
  switch (op) {
    case OpKind::quantizeLinear: return kQuantize;
    case OpKind::dequantizeLinear: return kDequantize;
    default: throw std::logic_error("QuantizeLinearSchema: not a quantization op");
  }
}

}  // namespace webnn::ops
