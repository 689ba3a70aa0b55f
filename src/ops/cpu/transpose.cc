// cpu kernel of transpose, and StridedCopy (copy_util.h): the strided-view copy
// that slice, expand, tile and reverse also reduce to.
//
// After SimplifyView, the innermost output dim decides the loop:
//   input stride  E (contiguous) -> row copies
//   input stride  0 (broadcast)  -> row fills
//   input stride -E (reversed)   -> SIMD lane reversal
//   another dim has stride E     -> 2D transpose of that dim with the innermost
//                                   one, in L2-sized blocks of register tiles
//   otherwise (strided slice)    -> gathers
// and a broadcast dim above a block of at most 64 KiB (tile, expand) produces
// the block once and replicates it with memcpy from the output.
// Work is split into tasks (rows or row pieces; transpose blocks) of at least
// kCopyGrainBytes each, over ctx.parallel.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/transpose.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/copy-inl.h"
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/transpose.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Walks the multi-indices of `dims` outer dims in row-major order, keeping the
// input byte offset.
class Odometer {
 public:
  Odometer(const uint64_t* sizes, const int64_t* strides, size_t dims)
      : sizes_(sizes), strides_(strides), idx_(dims, 0) {}
  void Seek(uint64_t r) {
    offset_ = 0;
    for (size_t d = idx_.size(); d-- > 0;) {
      idx_[d] = r % sizes_[d];
      r /= sizes_[d];
      offset_ += static_cast<int64_t>(idx_[d]) * strides_[d];
    }
  }
  void Next() {
    for (size_t d = idx_.size(); d-- > 0;) {
      if (++idx_[d] < sizes_[d]) {
        offset_ += strides_[d];
        return;
      }
      offset_ -= static_cast<int64_t>(sizes_[d] - 1) * strides_[d];
      idx_[d] = 0;
    }
  }
  int64_t offset() const { return offset_; }

 private:
  const uint64_t* sizes_;
  const int64_t* strides_;
  std::vector<uint64_t> idx_;
  int64_t offset_ = 0;
};

// One row of n elements: input element j at src + j * s.
template <typename T>
HWY_INLINE void CopyRow(const uint8_t* src, int64_t s, uint8_t* dst, uint64_t n) {
  constexpr int64_t E = sizeof(T);
  if (s == E) CopyBytes(dst, src, n * E);
  else if (s == 0) FillLanes<T>(dst, LoadRaw<T>(src), n);
  else if (s == -E) ReverseLanes<T>(dst, src - (n - 1) * E, n);
  else GatherStrided<T>(dst, src, s, n);
}

// Rows of the innermost dim; each row (or piece of a long row) is one task.
template <typename T>
void CopyRows(const StridedView& v, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const size_t last = v.sizes.size() - 1;
  const uint64_t n = v.sizes[last];
  const int64_t s = v.strides[last];
  uint64_t rows = 1;
  for (size_t d = 0; d < last; ++d) rows *= v.sizes[d];
  const uint64_t seg = std::max<uint64_t>(64, kCopyGrainBytes / E);
  const uint64_t segs = (n + seg - 1) / seg;
  const size_t grain = segs > 1 ? 1 : std::max<size_t>(1, kCopyGrainBytes / (n * E));
  parallel.Run(rows * segs, grain, [&](size_t begin, size_t end) {
    Odometer row(v.sizes.data(), v.strides.data(), last);
    uint64_t current = begin / segs;
    row.Seek(current);
    for (size_t t = begin; t < end; ++t) {
      const uint64_t r = t / segs, piece = t % segs;
      for (; current < r; ++current) row.Next();
      const uint64_t j0 = piece * seg, len = std::min(seg, n - j0);
      CopyRow<T>(src + row.offset() + static_cast<int64_t>(j0) * s, s, dst + (r * n + j0) * E, len);
    }
  });
}

// Output dim p walks the input contiguously and the innermost output dim does
// not: a 2D transpose (i = dim p, j = innermost) per index of the other dims.
template <typename T>
void CopyTransposed(const StridedView& v, size_t p, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const size_t k = v.sizes.size(), last = k - 1;
  std::vector<uint64_t> out_strides(k);
  uint64_t acc = E;
  for (size_t d = k; d-- > 0;) {
    out_strides[d] = acc;
    acc *= v.sizes[d];
  }
  const uint64_t ni = v.sizes[p], nj = v.sizes[last];
  const int64_t sj = v.strides[last];
  const int64_t di = static_cast<int64_t>(out_strides[p]);
  std::vector<uint64_t> outer_sizes, outer_out;
  std::vector<int64_t> outer_in;
  for (size_t d = 0; d < last; ++d) {
    if (d == p) continue;
    outer_sizes.push_back(v.sizes[d]);
    outer_in.push_back(v.strides[d]);
    outer_out.push_back(out_strides[d]);
  }
  uint64_t outer = 1;
  for (uint64_t s : outer_sizes) outer *= s;
  // Blocks of up to 256 KiB in and out (L2; 4096x4096 float32 runs at ~14 GB/s
  // with 256x256 blocks against ~9 GB/s with 64x64 ones, whose input runs of
  // 256 bytes are too short for the DRAM prefetchers), but small enough to give
  // every thread 4 of them; 16-element aligned (a multiple of every register
  // tile). Register tiles walk a block row by row, so the input lines a tile
  // row touches (one per column) stay in L1. A short side takes its full
  // length and the other side grows to keep the block size.
  const uint64_t total = outer * ni * nj;
  const uint64_t block_bytes =
      std::clamp<uint64_t>(total * E / (4 * parallel.NumThreads()), 16 * 1024, 256 * 1024);
  const uint64_t block_elems = block_bytes / E;
  const uint64_t side = block_bytes <= 16 * 1024 ? 64 : block_bytes <= 64 * 1024 ? 128 : 256;
  auto round16 = [](uint64_t x, uint64_t full) { return x >= full ? full : std::max<uint64_t>(16, x / 16 * 16); };
  const uint64_t bj = round16(nj <= side ? nj : std::max(side, block_elems / std::min(ni, side)), nj);
  const uint64_t bi = round16(std::max<uint64_t>(16, block_elems / bj), ni);
  const uint64_t nbi = (ni + bi - 1) / bi, nbj = (nj + bj - 1) / bj;
  const size_t grain = std::max<size_t>(1, (kCopyGrainBytes / E) / (bi * bj));
  parallel.Run(outer * nbi * nbj, grain, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const uint64_t jb = t % nbj, ib = (t / nbj) % nbi;
      uint64_t o = t / nbj / nbi;
      int64_t in_off = 0, out_off = 0;
      for (size_t d = outer_sizes.size(); d-- > 0;) {
        const uint64_t idx = o % outer_sizes[d];
        o /= outer_sizes[d];
        in_off += static_cast<int64_t>(idx) * outer_in[d];
        out_off += static_cast<int64_t>(idx * outer_out[d]);
      }
      const uint64_t i0 = ib * bi, j0 = jb * bj;
      TransposeBlock<T>(src + in_off + i0 * E + static_cast<int64_t>(j0) * sj, sj, dst + out_off + i0 * di + j0 * E, di,
                        std::min(bi, ni - i0), std::min(bj, nj - j0));
    }
  });
}

// Output blocks below a broadcast dim up to this size are produced once and
// then replicated from the output itself, in copies of at most kReplicateChunk
// bytes so that the source stays in L1.
constexpr uint64_t kReplicateBytes = 64 * 1024;
constexpr uint64_t kReplicateChunk = 16 * 1024;

// out[0, block) holds one block; fills out[block, reps * block) with copies of it.
HWY_INLINE void Replicate(uint8_t* out, uint64_t block, uint64_t reps) {
  const uint64_t total = reps * block;
  const uint64_t chunk = std::max(block, kReplicateChunk / block * block);
  for (uint64_t filled = block; filled < total;) {
    const uint64_t n = std::min({filled, chunk, total - filled});
    std::memcpy(out + filled, out, n);
    filled += n;
  }
}

template <typename T>
void StridedCopyOfSize(const StridedView& v, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel);

// Dim d (not the innermost) has stride 0 and the output block below it is
// `block` bytes: each output row of dims [0, d) is one block copied from the
// input and replicated sizes[d] - 1 times (tile of a short row, expand of a
// vector over many positions).
template <typename T>
void CopyReplicated(const StridedView& v, size_t d, uint64_t block, const uint8_t* src, uint8_t* dst,
                    core::ParallelFor& parallel) {
  StridedView inner;
  inner.element_bytes = v.element_bytes;
  inner.sizes.assign(v.sizes.begin() + d + 1, v.sizes.end());
  inner.strides.assign(v.strides.begin() + d + 1, v.strides.end());
  const uint64_t reps = v.sizes[d], row_bytes = reps * block;
  uint64_t rows = 1;
  for (size_t e = 0; e < d; ++e) rows *= v.sizes[e];
  core::SerialFor serial;
  auto copy_block = [&](const uint8_t* from, uint8_t* out) {
    if (inner.sizes.size() == 1) CopyRow<T>(from, inner.strides[0], out, inner.sizes[0]);
    else StridedCopyOfSize<T>(inner, from, out, serial);
  };
  if (rows >= 4 * parallel.NumThreads() || rows * row_bytes < 2 * kCopyGrainBytes) {
    parallel.Run(rows, std::max<size_t>(1, kCopyGrainBytes / row_bytes), [&](size_t begin, size_t end) {
      Odometer row(v.sizes.data(), v.strides.data(), d);
      row.Seek(begin);
      for (size_t r = begin; r < end; ++r, row.Next()) {
        uint8_t* out = dst + r * row_bytes;
        copy_block(src + row.offset(), out);
        Replicate(out, block, reps);
      }
    });
    return;
  }
  // Few rows of many repetitions: the first block, then pieces of the
  // repetitions in parallel, each seeded from it.
  Odometer row(v.sizes.data(), v.strides.data(), d);
  row.Seek(0);
  const uint64_t per_piece = std::max<uint64_t>(1, kCopyGrainBytes / block);
  for (uint64_t r = 0; r < rows; ++r, row.Next()) {
    uint8_t* out = dst + r * row_bytes;
    copy_block(src + row.offset(), out);
    const uint64_t pieces = (reps - 1 + per_piece - 1) / per_piece;
    parallel.Run(pieces, 1, [&](size_t begin, size_t end) {
      for (size_t p = begin; p < end; ++p) {
        const uint64_t first = 1 + p * per_piece, count = std::min(per_piece, reps - first);
        std::memcpy(out + first * block, out, block);
        Replicate(out + first * block, block, count);
      }
    });
  }
}

template <typename T>
void StridedCopyOfSize(const StridedView& v, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  const size_t last = v.sizes.size() - 1;
  // The outermost broadcast dim whose block fits: the most output per block.
  uint64_t block = sizeof(T);
  size_t replicate = SIZE_MAX;
  for (size_t d = last; d-- > 0;) {
    block *= v.sizes[d + 1];
    if (block > kReplicateBytes) break;
    if (v.strides[d] == 0) replicate = d;
  }
  if (replicate != SIZE_MAX) {
    block = sizeof(T);
    for (size_t e = replicate + 1; e <= last; ++e) block *= v.sizes[e];
    return CopyReplicated<T>(v, replicate, block, src, dst, parallel);
  }
  const int64_t s = v.strides[last];
  const int64_t E = static_cast<int64_t>(sizeof(T));
  if (s != E && s != 0 && s != -E) {
    for (size_t p = last; p-- > 0;)
      if (v.strides[p] == E) return CopyTransposed<T>(v, p, src, dst, parallel);
  }
  CopyRows<T>(v, src, dst, parallel);
}

// `view` is simplified (SimplifyView) and has at least one dim.
void StridedCopyTarget(const StridedView& view, const std::byte* src, std::byte* dst, core::ParallelFor* parallel) {
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src) + view.offset;
  uint8_t* out = reinterpret_cast<uint8_t*>(dst);
  switch (view.element_bytes) {
    case 1: return StridedCopyOfSize<uint8_t>(view, in, out, *parallel);
    case 2: return StridedCopyOfSize<uint16_t>(view, in, out, *parallel);
    case 4: return StridedCopyOfSize<uint32_t>(view, in, out, *parallel);
    default: return StridedCopyOfSize<uint64_t>(view, in, out, *parallel);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(StridedCopyTarget);

void StridedCopy(const StridedView& view, const std::byte* src, std::byte* dst, core::ParallelFor& parallel) {
  for (uint64_t size : view.sizes)
    if (size == 0) return;
  const StridedView simple = SimplifyView(view);
  if (simple.sizes.empty()) {
    std::memcpy(dst, src + simple.offset, simple.element_bytes);
    return;
  }
  HWY_DYNAMIC_DISPATCH(StridedCopyTarget)(simple, src, dst, &parallel);
}

namespace {

void RunTranspose(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint32_t> perm = ResolvePermutation(AttrsAs<TransposeAttrs>(ctx.attrs), input.rank());
  const size_t element_bytes = ElementBytes(input.type);
  const std::vector<int64_t> in_strides = ByteStrides(input.shape, element_bytes);
  StridedView view;
  view.element_bytes = element_bytes;
  for (uint32_t d = 0; d < out.rank(); ++d) {
    view.sizes.push_back(out.shape[d]);
    view.strides.push_back(in_strides[perm[d]]);
  }
  StridedCopy(view, input.data, out.data, ctx.parallel);
}

}  // namespace

// Every data type the schema allows: the kernel moves 1, 2, 4 or 8-byte elements.
void RegisterTransposeKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunTranspose, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
