// cast: validation and shape inference. Every data type converts to every
// other, including the packed int4/uint4 (used by quantized graphs) in and out;
// the context's limits narrow that set. The output keeps the input's shape.
#include "ops/cast.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferCast(const InferContext& ctx, const OpAttrs& attrs,
                                   std::span<const OperandDesc* const> in) {
  const DataType target = AttrsAs<CastAttrs>(attrs).dataType;
  if (!core::kAnyType.Contains(target))
    ctx.Fail("dataType ", static_cast<int>(target), " is not a data type; allowed: ", core::kAnyType.ToString());
  return {OperandDesc{target, in[0]->shape}};
}

}  // namespace

const OpSchema& CastSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::cast, {{"input", core::kAnyType}}, {{"output", core::kAnyType}}, &InferCast};
  if (op != OpKind::cast) throw std::logic_error("CastSchema: not cast");
  return kSchema;
}

}  // namespace webnn::ops
