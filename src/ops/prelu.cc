// prelu: validation and shape inference. The output has the input's data type
// and the bidirectional broadcast of the input and slope shapes.
#include <stdexcept>

#include "ops/schema.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferPrelu(const InferContext& ctx, const OpAttrs&, std::span<const OperandDesc* const> in) {
  const OperandDesc& input = *in[0];
  const OperandDesc& slope = *in[1];
  return {OperandDesc{input.type, BroadcastShapes(ctx, input.shape, slope.shape, "input", "slope")}};
}

}  // namespace

const OpSchema& PreluSchema(OpKind op) {
  static const OpSchema kPrelu{
      OpKind::prelu,
      {{"input", DataTypeSet{DataType::kFloat32, DataType::kFloat16, DataType::kInt64, DataType::kInt32,
                             DataType::kInt8}},
       {"slope", {}, 0}},
      {{"output", {}, 0}},
      &InferPrelu};
  if (op != OpKind::prelu) throw std::logic_error("PreluSchema: not prelu");
  return kPrelu;
}

}  // namespace webnn::ops
