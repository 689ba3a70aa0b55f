// reshape: validation and shape inference.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "ops/reshape.h"

namespace webnn::ops {
namespace {

uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
  return a * b;
}

// An element count as a static factor times a product of dynamic dimensions.
struct SymbolicCount {
  uint64_t static_factor = 1;
  std::vector<Dim> dynamic;  // sorted by symbol

  explicit SymbolicCount(const Shape& shape) {
    for (const Dim& d : shape) {
      if (d.IsStatic()) static_factor = SaturatingMul(static_factor, d.size);
      else dynamic.push_back(d);
    }
    std::sort(dynamic.begin(), dynamic.end(), [](const Dim& x, const Dim& y) { return x.symbol < y.symbol; });
  }
  uint64_t UpperBound() const {
    uint64_t n = static_factor;
    for (const Dim& d : dynamic) n = SaturatingMul(n, d.size);
    return n;
  }
};

// Drops the dynamic dimensions both counts share: a symbol stands for one value.
void CancelCommonSymbols(SymbolicCount& a, SymbolicCount& b) {
  std::vector<Dim> only_a, only_b;
  size_t i = 0, j = 0;
  while (i < a.dynamic.size() || j < b.dynamic.size()) {
    if (j == b.dynamic.size() || (i < a.dynamic.size() && a.dynamic[i].symbol < b.dynamic[j].symbol)) {
      only_a.push_back(a.dynamic[i++]);
    } else if (i == a.dynamic.size() || b.dynamic[j].symbol < a.dynamic[i].symbol) {
      only_b.push_back(b.dynamic[j++]);
    } else {
      ++i;
      ++j;
    }
  }
  a.dynamic = std::move(only_a);
  b.dynamic = std::move(only_b);
}

// True when `fixed` (no dynamic dims) can equal `open` for some values of its dims in [1, bound].
bool CanEqual(const SymbolicCount& fixed, const SymbolicCount& open) {
  return fixed.static_factor % open.static_factor == 0 && fixed.static_factor <= open.UpperBound();
}

std::vector<OperandDesc> InferReshape(const InferContext& ctx, const OpAttrs& attrs,
                                      std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ReshapeAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.newShape.size() > core::kMaxRank)
    ctx.Fail("newShape has ", a.newShape.size(), " entries, more than the maximum rank ", core::kMaxRank);
  OperandDesc out{input.type, Shape(a.newShape.size())};
  for (size_t i = 0; i < a.newShape.size(); ++i)
    out.shape[i] = ctx.ResolveDimension(a.newShape[i], core::StrCat("newShape[", i, "]"));

  SymbolicCount from(input.shape), to(out.shape);
  CancelCommonSymbols(from, to);
  bool possible = true;
  if (from.dynamic.empty() && to.dynamic.empty()) possible = from.static_factor == to.static_factor;
  else if (from.dynamic.empty()) possible = CanEqual(from, to);
  else if (to.dynamic.empty()) possible = CanEqual(to, from);
  // Both sides still dynamic: only dispatch, with every dim bound, can tell.
  if (!possible)
    ctx.Fail("newShape ", ctx.ShapeToString(out.shape), " has ", core::ElementCount(out.shape),
             " elements but the input ", ctx.ShapeToString(input.shape), " has ", core::ElementCount(input.shape));
  return {out};
}

}  // namespace

const OpSchema& ReshapeSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::reshape, {{"input", core::kAnySpecType}}, {{"output", {}, 0}},
                                &InferReshape};
  if (op != OpKind::reshape) throw std::logic_error("ReshapeSchema: not reshape");
  return kSchema;
}

}  // namespace webnn::ops
