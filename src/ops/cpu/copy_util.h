// Planning helpers shared by the cpu data-movement kernels (concat, split,
// slice, pad, tile, expand, transpose, reverse, reshape, gather, scatter,
// triangular, cumulativeSum). These ops move bytes, so kernels are written per
// element size (1, 2, 4, 8 bytes), never per data type.
//
// Most of them are one "strided view" copy: the output is written contiguously
// in row-major order and each output dimension advances the input by a fixed
// (possibly 0 or negative) number of bytes:
//   transpose: permuted strides       slice:   strides * step, offset at start
//   expand:    stride 0 on broadcast  tile:    each dim split into (reps, dim)
//   reverse:   negative strides       reshape: one contiguous run
// StridedCopy (implemented in transpose.cc, the general case) simplifies the
// view and picks row copies, fills, reversals or cache-tiled 2D transposes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/parallel.h"
#include "ops/kernel.h"

namespace webnn::ops::cpu {

// Copies smaller than two grains stay on the calling thread: below ~64 KiB per
// thread the futex wake-up of a sleeping worker (5-20 us) costs more than the
// copy (~3 us at 20 GB/s). The same figure sizes the chunks of larger copies.
inline constexpr size_t kCopyGrainBytes = 64 * 1024;

inline size_t ElementBytes(DataType type) { return BitsPerElement(type) / 8; }

inline uint64_t DimProduct(const std::vector<uint32_t>& shape, size_t begin, size_t end) {
  uint64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

// memcpy with the common short sizes inlined (concat/split blocks of a few
// elements, gathered rows).
inline void CopyRun(std::byte* dst, const std::byte* src, size_t n) {
  switch (n) {
    case 1: std::memcpy(dst, src, 1); return;
    case 2: std::memcpy(dst, src, 2); return;
    case 4: std::memcpy(dst, src, 4); return;
    case 8: std::memcpy(dst, src, 8); return;
    case 12: std::memcpy(dst, src, 12); return;
    case 16: std::memcpy(dst, src, 16); return;
    case 32: std::memcpy(dst, src, 32); return;
    default: std::memcpy(dst, src, n);
  }
}

// rows x row_bytes from src (rows src_stride bytes apart) to dst (dst_stride
// apart), split over threads by rows, or by byte ranges when rows are few.
inline void ParallelCopy2D(core::ParallelFor& parallel, std::byte* dst, size_t dst_stride, const std::byte* src,
                           size_t src_stride, size_t rows, size_t row_bytes) {
  if (rows == 0 || row_bytes == 0) return;
  const size_t total = rows * row_bytes;
  if (total < 2 * kCopyGrainBytes || parallel.NumThreads() == 1) {
    for (size_t r = 0; r < rows; ++r) CopyRun(dst + r * dst_stride, src + r * src_stride, row_bytes);
    return;
  }
  if (rows >= 4 * parallel.NumThreads()) {
    parallel.Run(rows, std::max<size_t>(1, kCopyGrainBytes / row_bytes), [&](size_t begin, size_t end) {
      for (size_t r = begin; r < end; ++r) CopyRun(dst + r * dst_stride, src + r * src_stride, row_bytes);
    });
    return;
  }
  // Few long rows: pieces of kCopyGrainBytes (cache-line multiples).
  const size_t pieces = (row_bytes + kCopyGrainBytes - 1) / kCopyGrainBytes;
  parallel.Run(rows * pieces, 1, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t r = t / pieces, p = t % pieces;
      const size_t from = p * kCopyGrainBytes, n = std::min(kCopyGrainBytes, row_bytes - from);
      std::memcpy(dst + r * dst_stride + from, src + r * src_stride + from, n);
    }
  });
}

inline void ParallelCopy(core::ParallelFor& parallel, std::byte* dst, const std::byte* src, size_t bytes) {
  if (dst == src) return;
  ParallelCopy2D(parallel, dst, bytes, src, bytes, 1, bytes);
}

// Index `i` of a gather/scatter indices tensor (int32, uint32 or int64).
inline int64_t LoadIndex(const TensorView& indices, uint64_t i) {
  return VisitType<TypeList<int32_t, uint32_t, int64_t>>(
      indices.type,
      [&]<typename T>(TypeTag<T>) {
        T v;
        std::memcpy(&v, indices.data + i * sizeof(T), sizeof(T));
        return static_cast<int64_t>(v);
      },
      [] { return int64_t{0}; });
}

// The reference's index rule (src/ops/reference/gather.cc): a negative index
// counts from the end once, then the result is clamped to [0, dim - 1].
inline uint32_t ClampIndex(int64_t index, uint32_t dim) {
  if (index < 0) index += dim;
  if (index < 0) return 0;
  if (index >= int64_t{dim}) return dim - 1;
  return static_cast<uint32_t>(index);
}

// The output of a strided copy: dims in row-major order, contiguous; `strides`
// are input bytes per step of each output dim; `offset` locates output element
// 0 in the input.
struct StridedView {
  size_t element_bytes = 1;
  std::vector<uint64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
};

// Drops size-1 dims, merges dims the input walks contiguously, and folds short
// contiguous innermost runs (2, 4 or 8 bytes) into one wider element, so that
// e.g. NCHW -> NHWC of float16 pairs becomes a 4-byte transpose.
inline StridedView SimplifyView(const StridedView& view) {
  StridedView out;
  out.element_bytes = view.element_bytes;
  out.offset = view.offset;
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] == 1) continue;
    if (!out.sizes.empty() && out.strides.back() == view.strides[d] * static_cast<int64_t>(view.sizes[d])) {
      out.sizes.back() *= view.sizes[d];
      out.strides.back() = view.strides[d];
      continue;
    }
    out.sizes.push_back(view.sizes[d]);
    out.strides.push_back(view.strides[d]);
  }
  while (!out.sizes.empty() && out.strides.back() == static_cast<int64_t>(out.element_bytes) &&
         out.element_bytes * out.sizes.back() <= 8) {
    const uint64_t bytes = out.element_bytes * out.sizes.back();
    if (bytes != 2 && bytes != 4 && bytes != 8) break;
    out.element_bytes = bytes;
    out.sizes.pop_back();
    out.strides.pop_back();
  }
  return out;
}

// Copies `view` of the input at `src` to the contiguous output `dst`.
// Implemented in transpose.cc.
void StridedCopy(const StridedView& view, const std::byte* src, std::byte* dst, core::ParallelFor& parallel);

// The view of a plain row-major input of `shape` (strides in bytes).
inline std::vector<int64_t> ByteStrides(const std::vector<uint32_t>& shape, size_t element_bytes) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = static_cast<int64_t>(element_bytes);
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

}  // namespace webnn::ops::cpu
