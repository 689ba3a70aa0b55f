// cpu kernel of triangular: in each matrix of the last two axes, row r keeps
// columns c with c - r >= diagonal (upper) or c - r <= diagonal (lower) and
// zeroes the rest, so every row is one contiguous copy plus one zero fill
// (zero is all-zero bytes in every data type). Rows are split over threads;
// running in place (output == input) only writes the zeros.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/triangular.h"

namespace webnn::ops::cpu {
namespace {

void RunTriangular(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<TriangularAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t element_bytes = ElementBytes(input.type);
  const uint32_t rows = input.shape[input.rank() - 2];
  const int64_t columns = input.shape[input.rank() - 1];
  const uint64_t row_bytes = columns * element_bytes;
  const uint64_t total_rows = input.elements() / columns;
  const bool in_place = out.data == input.data;
  ctx.parallel.Run(total_rows, std::max<size_t>(1, kCopyGrainBytes / row_bytes), [&](size_t begin, size_t end) {
    for (size_t g = begin; g < end; ++g) {
      const int64_t r = static_cast<int64_t>(g % rows);
      // Columns [keep_begin, keep_end) are kept.
      const int64_t edge = r + attrs.diagonal;
      const int64_t keep_begin = attrs.upper ? std::clamp<int64_t>(edge, 0, columns) : 0;
      const int64_t keep_end = attrs.upper ? columns : std::clamp<int64_t>(edge + 1, 0, columns);
      std::byte* dst = out.data + g * row_bytes;
      const std::byte* src = input.data + g * row_bytes;
      if (keep_begin > 0) std::memset(dst, 0, keep_begin * element_bytes);
      if (keep_end > keep_begin && !in_place)
        CopyRun(dst + keep_begin * element_bytes, src + keep_begin * element_bytes, (keep_end - keep_begin) * element_bytes);
      if (keep_end < columns) std::memset(dst + keep_end * element_bytes, 0, (columns - keep_end) * element_bytes);
    }
  });
}

}  // namespace

// Every data type the schema allows: the kernel moves bytes.
void RegisterTriangularKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunTriangular, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
