// Loop planning shared by the cpu reductions, argMin/argMax, softmax and the
// normalizations: which elements of a tensor form one reduction window.
//
// Dimensions of size 1 are dropped and adjacent dimensions that are both
// reduced (or both kept) are merged, so every layout becomes
//   outer dims (each kept or reduced, any order) x one innermost dim.
// If the innermost dim is reduced, a window is `runs` contiguous runs of
// `inner` elements (horizontal reduction: vector accumulators along a run). If
// it is kept, `inner` adjacent outputs share their window structure and a
// window is `runs` rows of `inner` contiguous elements, one element per output
// (vertical reduction: one accumulator lane per output). Either way the
// outputs, in row-major order of the kept dims, are
//   groups x (inner_reduced ? 1 : inner).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace webnn::ops::cpu {

// Walks the element offsets of a linear index range over `sizes` (row-major)
// with `strides`, one Next() per index: an odometer, no divisions per step.
class OffsetWalker {
 public:
  OffsetWalker(const std::vector<uint64_t>& sizes, const std::vector<uint64_t>& strides, uint64_t start)
      : sizes_(sizes), strides_(strides) {
    // Collapsed layouts have at most one dim per tensor axis (rank <= 8).
    for (size_t d = sizes.size(); d-- > 0;) {
      index_[d] = start % sizes[d];
      start /= sizes[d];
      offset_ += index_[d] * strides[d];
    }
  }
  uint64_t offset() const { return offset_; }
  void Next() {
    for (size_t d = sizes_.size(); d-- > 0;) {
      offset_ += strides_[d];
      if (++index_[d] < sizes_[d]) return;
      offset_ -= index_[d] * strides_[d];
      index_[d] = 0;
    }
  }

 private:
  const std::vector<uint64_t>& sizes_;
  const std::vector<uint64_t>& strides_;
  std::array<uint64_t, 8> index_{};  // no allocation: walkers are made per window
  uint64_t offset_ = 0;
};

struct ReductionLayout {
  bool inner_reduced = true;
  uint64_t inner = 1;
  // Outer dims, outermost first; strides in elements.
  std::vector<uint64_t> kept_sizes, kept_strides;
  std::vector<uint64_t> red_sizes, red_strides;
  uint64_t groups = 1;  // product of kept_sizes
  uint64_t runs = 1;    // product of red_sizes

  uint64_t outputs() const { return inner_reduced ? groups : groups * inner; }
  uint64_t window() const { return inner_reduced ? runs * inner : runs; }
};

// `reduced[i]` says whether dimension i of `shape` is reduced.
inline ReductionLayout PlanReduction(const std::vector<uint32_t>& shape, const std::vector<bool>& reduced) {
  struct Dim {
    uint64_t size, stride;
    bool reduced;
  };
  std::vector<Dim> dims;  // innermost first while building
  uint64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    const uint64_t size = shape[i];
    if (size != 1) {
      if (!dims.empty() && dims.back().reduced == reduced[i] && dims.back().stride * dims.back().size == stride)
        dims.back().size *= size;
      else
        dims.push_back({size, stride, reduced[i]});
    }
    stride *= size;
  }
  ReductionLayout l;
  if (dims.empty()) return l;  // one element: a window of one
  l.inner_reduced = dims[0].reduced;
  l.inner = dims[0].size;
  for (size_t i = dims.size(); i-- > 1;) {
    if (dims[i].reduced) {
      l.red_sizes.push_back(dims[i].size);
      l.red_strides.push_back(dims[i].stride);
      l.runs *= dims[i].size;
    } else {
      l.kept_sizes.push_back(dims[i].size);
      l.kept_strides.push_back(dims[i].stride);
      l.groups *= dims[i].size;
    }
  }
  return l;
}

}  // namespace webnn::ops::cpu
