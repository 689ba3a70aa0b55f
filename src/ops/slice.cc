// slice: validation and shape inference.
#include <stdexcept>

#include "ops/slice.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferSlice(const InferContext& ctx, const OpAttrs& attrs,
                                    std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<SliceAttrs>(attrs);
  const OperandDesc& input = *in[0];
  const uint32_t rank = input.rank();
  for (size_t i = 0; i < a.sizes.size(); ++i)
    if (a.sizes[i] == 0) ctx.Fail("sizes[", i, "] must be greater than 0, got 0");
  if (a.starts.size() != rank)
    ctx.Fail("starts must have ", rank, " entries (the input rank), got ", a.starts.size());
  if (a.sizes.size() != rank) ctx.Fail("sizes must have ", rank, " entries (the input rank), got ", a.sizes.size());
  if (a.strides && a.strides->size() != rank)
    ctx.Fail("strides must have ", rank, " entries (the input rank), got ", a.strides->size());

  OperandDesc out{input.type, Shape(rank)};
  for (uint32_t i = 0; i < rank; ++i) {
    // A dynamic dimension's size is its upper bound here; dispatch checks the bound value.
    const uint64_t dim = input.shape[i].size;
    const uint64_t start = a.starts[i];
    const uint64_t size = a.sizes[i];
    const uint64_t stride = a.strides ? (*a.strides)[i] : 1;
    if (stride < 1) ctx.Fail("strides[", i, "] must be at least 1, got ", stride);
    if (start >= dim)
      ctx.Fail("starts[", i, "] is ", start, ", which is not less than input dimension ", i, " (",
               ctx.DimToString(input.shape[i]), ")");
    if (start + size > dim)
      ctx.Fail("starts[", i, "] + sizes[", i, "] is ", start + size, ", more than input dimension ", i, " (",
               ctx.DimToString(input.shape[i]), ")");
    // WPT's validation suite rejects a stride larger than the slice size (e.g. size 1, stride 2);
    // the spec's steps would give one element.
    if (stride > size) ctx.Fail("strides[", i, "] is ", stride, ", more than sizes[", i, "] (", size, ")");
    out.shape[i] = Dim::Static(static_cast<uint32_t>((size + stride - 1) / stride));
  }
  return {out};
}

}  // namespace

const OpSchema& SliceSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::slice, {{"input", core::kAnySpecType}}, {{"output", {}, 0}}, &InferSlice};
  if (op != OpKind::slice) throw std::logic_error("SliceSchema: not slice");
  return kSchema;
}

}  // namespace webnn::ops
