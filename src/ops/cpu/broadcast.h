// Loop planning for element-wise ops with numpy broadcasting: the output is
// walked as rows of `inner` contiguous elements; each input either advances
// with the row (stride 1) or repeats one element across it (stride 0). Dims
// are collapsed first, so same-shape operands become one long row and a
// per-channel bias over NCHW becomes rows of H*W with a scalar per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace webnn::ops::cpu {

class BroadcastPlan {
 public:
  // `inputs` are right-aligned to `out` (numpy rules; every dim 1 or equal).
  BroadcastPlan(const std::vector<uint32_t>& out, const std::vector<std::vector<uint32_t>>& inputs);

  uint64_t rows() const { return rows_; }
  uint64_t inner() const { return inner_; }
  uint64_t elements() const { return rows_ * inner_; }
  // Whether input i advances along a row (else it repeats one element).
  bool InnerContiguous(size_t i) const { return inner_stride_[i] != 0; }
  // Element offset of input i at the start of row r.
  uint64_t RowOffset(size_t i, uint64_t r) const;

 private:
  uint64_t rows_ = 1;
  uint64_t inner_ = 1;
  std::vector<uint64_t> outer_sizes_;                // collapsed outer dims (row-major)
  std::vector<std::vector<uint64_t>> outer_strides_;  // per input, per outer dim
  std::vector<uint64_t> inner_stride_;               // per input: 0 or 1
};

}  // namespace webnn::ops::cpu
