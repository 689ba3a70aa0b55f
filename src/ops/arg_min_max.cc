// argMin, argMax: validation and shape inference.
#include <limits>
#include <stdexcept>

#include "ops/arg_min_max.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferArgMinMax(const InferContext& ctx, const OpAttrs& attrs,
                                        std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ArgMinMaxAttrs>(attrs);
  const OperandDesc& input = *in[0];
  const uint32_t rank = input.rank();
  if (a.axis >= rank) ctx.Fail("axis ", a.axis, " must be less than the input rank ", rank);
  const uint64_t max_index_value = VisitType<TypeList<int32_t, int64_t>>(
      a.outputDataType, []<typename T>(TypeTag<T>) -> uint64_t { return std::numeric_limits<T>::max(); },
      [&]() -> uint64_t {
        ctx.Fail("outputDataType ", ToString(a.outputDataType), " is not supported; allowed: int32, int64");
      });
  // The spec's check; with dimensions limited to 2^31 - 1 it cannot fail today.
  if (input.shape[a.axis].size > max_index_value)
    ctx.Fail("input dimension ", a.axis, " (", ctx.DimToString(input.shape[a.axis]), ") exceeds the maximum of ",
             "outputDataType ", ToString(a.outputDataType));
  Shape out;
  for (uint32_t i = 0; i < rank; ++i) {
    if (i != a.axis) out.push_back(input.shape[i]);
    else if (a.keepDimensions) out.push_back(Dim::Static(1));
  }
  return {OperandDesc{a.outputDataType, std::move(out)}};
}

OpSchema MakeSchema(OpKind op) {
  return OpSchema{op,
                  {{"input", core::kAnySpecType, -1, RanksFrom(1)}},
                  {{"output", DataTypeSet{DataType::kInt32, DataType::kInt64}}},
                  &InferArgMinMax};
}

}  // namespace

const OpSchema& ArgMinMaxSchema(OpKind op) {
  static const OpSchema kSchemas[] = {MakeSchema(OpKind::argMin), MakeSchema(OpKind::argMax)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ArgMinMaxSchema: not argMin/argMax");
}

}  // namespace webnn::ops
