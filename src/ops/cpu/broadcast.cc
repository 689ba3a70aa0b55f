#include "ops/cpu/broadcast.h"

namespace webnn::ops::cpu {

BroadcastPlan::BroadcastPlan(const std::vector<uint32_t>& out, const std::vector<std::vector<uint32_t>>& inputs) {
  const size_t rank = out.size();
  const size_t n = inputs.size();
  // Per input, per output dim: element stride (0 where broadcast).
  std::vector<std::vector<uint64_t>> strides(n, std::vector<uint64_t>(rank, 0));
  for (size_t i = 0; i < n; ++i) {
    const auto& in = inputs[i];
    uint64_t s = 1;
    for (size_t d = rank; d-- > 0;) {
      const size_t k = d + in.size() - rank;  // dim of `in` aligned with out[d]
      if (d + in.size() < rank) break;
      if (in[k] != 1) strides[i][d] = s;
      s *= in[k];
    }
  }
  // Collapse: drop size-1 dims, merge a dim into the next when every input is
  // contiguous across the boundary (stride[d] == stride[d+1] * size[d+1]).
  std::vector<uint64_t> sizes;
  std::vector<std::vector<uint64_t>> cs(n);
  for (size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    if (!sizes.empty()) {
      bool merge = true;
      for (size_t i = 0; i < n && merge; ++i) merge = cs[i].back() == strides[i][d] * out[d];
      if (merge) {
        sizes.back() *= out[d];
        for (size_t i = 0; i < n; ++i) cs[i].back() = strides[i][d];
        continue;
      }
    }
    sizes.push_back(out[d]);
    for (size_t i = 0; i < n; ++i) cs[i].push_back(strides[i][d]);
  }
  inner_stride_.assign(n, 1);
  outer_strides_.assign(n, {});
  if (sizes.empty()) return;  // a single element
  inner_ = sizes.back();
  for (size_t i = 0; i < n; ++i) inner_stride_[i] = cs[i].back() == 0 ? 0 : 1;
  // A trailing dim that some input broadcasts with a stride other than 0/1
  // cannot be a row: then rows are single elements.
  bool inner_ok = true;
  for (size_t i = 0; i < n; ++i) inner_ok = inner_ok && (cs[i].back() == 0 || cs[i].back() == 1);
  if (!inner_ok) {
    inner_ = 1;
    for (size_t i = 0; i < n; ++i) inner_stride_[i] = 0;
  } else {
    sizes.pop_back();
    for (size_t i = 0; i < n; ++i) cs[i].pop_back();
  }
  outer_sizes_ = sizes;
  outer_strides_ = cs;
  for (uint64_t s : sizes) rows_ *= s;
}

uint64_t BroadcastPlan::RowOffset(size_t i, uint64_t r) const {
  uint64_t off = 0;
  const auto& st = outer_strides_[i];
  for (size_t d = outer_sizes_.size(); d-- > 0;) {
    const uint64_t idx = r % outer_sizes_[d];
    r /= outer_sizes_[d];
    off += idx * st[d];
  }
  return off;
}

}  // namespace webnn::ops::cpu
