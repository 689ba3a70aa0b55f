// cumulativeSum: validation and shape inference.
#include <stdexcept>

#include "ops/cumulative_sum.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferCumulativeSum(const InferContext& ctx, const OpAttrs& attrs,
                                            std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<CumulativeSumAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.axis >= input.rank()) ctx.Fail("axis ", a.axis, " must be less than the input rank ", input.rank());
  return {input};
}

}  // namespace

const OpSchema& CumulativeSumSchema(OpKind op) {
  static const OpSchema kSchema{
      OpKind::cumulativeSum,
      {{"input",
        DataTypeSet{DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kUint32, DataType::kInt64,
                    DataType::kUint64},
        -1, RanksFrom(1)}},
      {{"output", {}, 0, RanksFrom(1)}},
      &InferCumulativeSum};
  if (op != OpKind::cumulativeSum) throw std::logic_error("CumulativeSumSchema: not cumulativeSum");
  return kSchema;
}

}  // namespace webnn::ops
