// PLACEHOLDER: Pad schema (pad) not implemented yet.
#include "ops/schema.h"
namespace webnn::ops {
namespace {
std::vector<OperandDesc> InferPlaceholder(const InferContext& ctx, const OpAttrs&, std::span<const OperandDesc* const>) {
  throw webnn::NotSupportedError(ctx.Prefix() + "not implemented yet");
}
}  // namespace
const OpSchema& PadSchema(OpKind op) {
  static std::vector<OpSchema> schemas;
  for (const auto& s : schemas) if (s.kind == op) return s;
  schemas.push_back(OpSchema{op, {{"input", core::kAnyType}}, {{"output", core::kAnyType}}, &InferPlaceholder});
  return schemas.back();
}
}  // namespace webnn::ops
