// Reference kernels of scatterElements and scatterND: the output starts as a
// byte copy of the input, then the updates are written in row-major order of
// the indices, so where indices repeat the last update wins. Indices wrap once
// when negative and clamp to the dimension, as gather's do (WPT: index
// 2147483647 into a dimension of 2 writes element 1); nothing is written out of bounds.
#include <cstring>

#include "ops/reference/ref_util.h"
#include "ops/scatter.h"

namespace webnn::ops::ref {
namespace {

uint64_t ClampedIndex(const TensorView& indices, uint64_t i, uint32_t dim) {
  int64_t index = Load<int64_t>(indices, i);  // int32, uint32 and int64 all fit
  if (index < 0) index += dim;
  if (index < 0) return 0;
  if (index >= int64_t{dim}) return dim - 1;
  return static_cast<uint64_t>(index);
}

void RunScatterElements(const TensorView& indices, const TensorView& updates, const TensorView& out, uint32_t axis) {
  const uint64_t element_size = ByteLengthFor(out.type, 1);
  const std::vector<uint64_t> strides = Strides(out.shape);
  std::vector<uint32_t> target(out.rank());
  uint64_t i = 0;
  ForEachIndex(indices.shape, [&](const std::vector<uint32_t>& idx) {
    target = idx;
    target[axis] = static_cast<uint32_t>(ClampedIndex(indices, i, out.shape[axis]));
    std::memcpy(out.data + Offset(target, strides) * element_size, updates.data + i * element_size, element_size);
    ++i;
  });
}

void RunScatterNd(const TensorView& indices, const TensorView& updates, const TensorView& out) {
  const uint64_t element_size = ByteLengthFor(out.type, 1);
  const uint32_t coordinate_size = indices.shape.back();
  const std::vector<uint64_t> strides = Strides(out.shape);
  uint64_t slice_elements = 1;
  for (uint32_t d = coordinate_size; d < out.rank(); ++d) slice_elements *= out.shape[d];
  const uint64_t slice_bytes = slice_elements * element_size;
  const uint64_t tuples = indices.elements() / coordinate_size;
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t offset = 0;
    for (uint32_t j = 0; j < coordinate_size; ++j)
      offset += ClampedIndex(indices, t * coordinate_size + j, out.shape[j]) * strides[j];
    std::memcpy(out.data + offset * element_size, updates.data + t * slice_bytes, slice_bytes);
  }
}

}  // namespace

void RunScatter(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& indices = ctx.inputs[1];
  const TensorView& updates = ctx.inputs[2];
  const TensorView& out = ctx.outputs[0];
  if (out.data != input.data) std::memmove(out.data, input.data, input.bytes());
  switch (ctx.op) {
    case OpKind::scatterElements:
      RunScatterElements(indices, updates, out, AttrsAs<ScatterAttrs>(ctx.attrs).axis);
      return;
    case OpKind::scatterND: RunScatterNd(indices, updates, out); return;
    default: throw std::logic_error("RunScatter: not a scatter op");
  }
}

}  // namespace webnn::ops::ref
