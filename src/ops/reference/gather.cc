// Reference kernels of gather, gatherElements and gatherND. Values are byte
// copies (no conversion). An index i into a dimension of size n reads
// i + n when negative, then clamps to [0, n - 1]: the spec leaves out-of-range
// indices to the implementation and WPT expects clamping (gather of 10 in a
// dimension of 2 reads element 1; -10 reads element 0). It never reads out of bounds.
#include <cstring>

#include "ops/gather.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

uint64_t ClampedIndex(const TensorView& indices, uint64_t i, uint32_t dim) {
  int64_t index = Load<int64_t>(indices, i);  // int32, uint32 and int64 all fit
  if (index < 0) index += dim;
  if (index < 0) return 0;
  if (index >= int64_t{dim}) return dim - 1;
  return static_cast<uint64_t>(index);
}

uint64_t Product(const std::vector<uint32_t>& shape, size_t begin, size_t end) {
  uint64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

void RunGatherAxis(const TensorView& input, const TensorView& indices, const TensorView& out, uint32_t axis) {
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  const uint64_t outer = Product(input.shape, 0, axis);
  const uint32_t axis_size = input.shape[axis];
  const uint64_t inner_bytes = Product(input.shape, axis + 1, input.rank()) * element_size;
  const uint64_t count = indices.elements();
  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t row = o * axis_size + ClampedIndex(indices, k, axis_size);
      std::memcpy(out.data + (o * count + k) * inner_bytes, input.data + row * inner_bytes, inner_bytes);
    }
  }
}

void RunGatherElements(const TensorView& input, const TensorView& indices, const TensorView& out, uint32_t axis) {
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  const std::vector<uint64_t> strides = Strides(input.shape);
  std::vector<uint32_t> source(input.rank());
  uint64_t i = 0;
  ForEachIndex(indices.shape, [&](const std::vector<uint32_t>& idx) {
    source = idx;
    source[axis] = static_cast<uint32_t>(ClampedIndex(indices, i, input.shape[axis]));
    std::memcpy(out.data + i * element_size, input.data + Offset(source, strides) * element_size, element_size);
    ++i;
  });
}

void RunGatherNd(const TensorView& input, const TensorView& indices, const TensorView& out) {
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  const uint32_t coordinate_size = indices.shape.back();
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint64_t slice_bytes = Product(input.shape, coordinate_size, input.rank()) * element_size;
  const uint64_t tuples = indices.elements() / coordinate_size;
  for (uint64_t t = 0; t < tuples; ++t) {
    uint64_t offset = 0;
    for (uint32_t j = 0; j < coordinate_size; ++j)
      offset += ClampedIndex(indices, t * coordinate_size + j, input.shape[j]) * strides[j];
    std::memcpy(out.data + t * slice_bytes, input.data + offset * element_size, slice_bytes);
  }
}

}  // namespace

void RunGather(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& indices = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const uint32_t axis = AttrsAs<GatherAttrs>(ctx.attrs).axis;
  switch (ctx.op) {
    case OpKind::gather: RunGatherAxis(input, indices, out, axis); return;
    case OpKind::gatherElements: RunGatherElements(input, indices, out, axis); return;
    case OpKind::gatherND: RunGatherNd(input, indices, out); return;
    default: throw std::logic_error("RunGather: not a gather op");
  }
}

}  // namespace webnn::ops::ref
