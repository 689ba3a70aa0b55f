// tile: validation and shape inference.
#include <stdexcept>

#include "ops/tile.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferTile(const InferContext& ctx, const OpAttrs& attrs,
                                   std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<TileAttrs>(attrs);
  const OperandDesc& input = *in[0];
  const uint32_t rank = input.rank();
  if (a.repetitions.size() != rank)
    ctx.Fail("repetitions must have ", rank, " entries (the input rank), got ", a.repetitions.size());
  OperandDesc out{input.type, Shape(rank)};
  for (uint32_t i = 0; i < rank; ++i) {
    if (a.repetitions[i] == 0) ctx.Fail("repetitions[", i, "] must be greater than 0, got 0");
    const uint64_t size = uint64_t{input.shape[i].size} * a.repetitions[i];
    out.shape[i] = ctx.MakeDim(size, {input.shape[i]}, core::StrCat("output dimension ", i));
  }
  return {out};
}

}  // namespace

const OpSchema& TileSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::tile, {{"input", core::kAnySpecType}}, {{"output", {}, 0}}, &InferTile};
  if (op != OpKind::tile) throw std::logic_error("TileSchema: not tile");
  return kSchema;
}

}  // namespace webnn::ops
