// Reference kernel of triangular.
//
// In each matrix of the last two axes, element (row, column) is kept when
// column - row >= diagonal (upper) or column - row <= diagonal (lower), else it
// is zero: numpy's triu/tril with k = diagonal. Kept elements are copied
// bit for bit; zero is all-zero bytes in every data type.
#include <cstring>
#include <stdexcept>

#include "ops/reference/ref_util.h"
#include "ops/triangular.h"

namespace webnn::ops::ref {

void RunTriangular(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<TriangularAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  if (BitsPerElement(input.type) % 8 != 0) throw std::logic_error("triangular: sub-byte data type");
  const size_t element_bytes = BitsPerElement(input.type) / 8;
  const uint32_t rows = input.shape[input.rank() - 2];
  const uint32_t columns = input.shape[input.rank() - 1];
  const uint64_t matrices = input.elements() / (uint64_t{rows} * columns);

  uint64_t i = 0;
  for (uint64_t m = 0; m < matrices; ++m) {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < columns; ++c, ++i) {
        const int64_t offset_from_diagonal = int64_t{c} - int64_t{r};
        const bool keep = attrs.upper ? offset_from_diagonal >= attrs.diagonal
                                      : offset_from_diagonal <= attrs.diagonal;
        std::byte* dst = out.data + i * element_bytes;
        if (keep) std::memmove(dst, input.data + i * element_bytes, element_bytes);  // in place is fine
        else std::memset(dst, 0, element_bytes);
      }
    }
  }
}

}  // namespace webnn::ops::ref
