// split: validation and shape inference.
#include <stdexcept>

#include "ops/split.h"

namespace webnn::ops {
namespace {

// The spec's "valid tensor count": 1 to 8192 operands.
constexpr uint64_t kMaxTensorCount = 8192;

std::vector<OperandDesc> InferSplit(const InferContext& ctx, const OpAttrs& attrs,
                                    std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<SplitAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.axis >= input.rank()) ctx.Fail("axis ", a.axis, " must be less than the input rank ", input.rank());
  const Dim& dim = input.shape[a.axis];

  std::vector<Dim> sizes;
  if (const uint32_t* count = std::get_if<uint32_t>(&a.splits)) {
    if (*count == 0 || *count > kMaxTensorCount)
      ctx.Fail("splits must be in [1, ", kMaxTensorCount, "], got ", *count);
    // A dynamic dimension is checked when its size is known, at dispatch.
    if (dim.IsStatic() && dim.size % *count != 0)
      ctx.Fail("splits ", *count, " does not evenly divide input dimension ", a.axis, " (", dim.size, ")");
    sizes.assign(*count, ctx.MakeDim(dim.size / *count, {dim}, "split size"));
  } else {
    const auto& list = std::get<std::vector<uint32_t>>(a.splits);
    if (list.empty() || list.size() > kMaxTensorCount)
      ctx.Fail("splits must have 1 to ", kMaxTensorCount, " entries, got ", list.size());
    uint64_t sum = 0;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i] == 0) ctx.Fail("splits[", i, "] must be greater than 0");
      sum += list[i];
      sizes.push_back(Dim::Static(list[i]));
    }
    // A dynamic dimension's size is only bounded here; dispatch checks equality.
    if (dim.IsStatic() ? sum != dim.size : sum > dim.size)
      ctx.Fail("splits sum to ", sum, " but input dimension ", a.axis, " is ", ctx.DimToString(dim));
  }

  std::vector<OperandDesc> outputs(sizes.size(), input);
  for (size_t i = 0; i < sizes.size(); ++i) outputs[i].shape[a.axis] = sizes[i];
  return outputs;
}

}  // namespace

const OpSchema& SplitSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::split,
                                {{"input", core::kAnySpecType, -1, RanksFrom(1)}},
                                {{"outputs", {}, 0, RanksFrom(1), false, true}},
                                &InferSplit};
  if (op != OpKind::split) throw std::logic_error("SplitSchema: not split");
  return kSchema;
}

}  // namespace webnn::ops
