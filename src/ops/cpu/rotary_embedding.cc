// cpu kernel of rotaryEmbedding (src/ops/rotary_embedding.h): RoPE of the
// last axis in one pass, float32 and float16.
//
// x is a list of rows of D elements (its leading dimensions flattened); each
// row reads its table row, found by a RowWalker over the tables' shape (0
// strides where a table dimension is 1: [1, 1, S, h] tables serve every
// batch and head of [B, H, S, D]). Per row, a vector of each half of x and
// of the tables gives a vector of each half of the output; the last vector
// of a half whose size is not a multiple of the vector width is a partial
// load / store (D = 2, 6, 70). float16 is widened into float32 lanes and
// narrowed once when stored. Rows are split over threads in chunks of about
// kElementwiseGrain elements, so a decode step (14 rows of 64) is one chunk
// on the calling thread.
// GCC contracts a product and the sum it feeds into one FMA by default
// (-ffp-contract=fast), even across Highway's Mul and Sub: one rounding
// instead of the graph's two (and Inf where the graph's Inf - Inf gives NaN).
// Off for this file, whose results are the written-out ops' to the bit.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/rotary_embedding.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"
#include "ops/rotary_embedding.h"

#ifndef WEBNN_ROTARY_EMBEDDING_ONCE
#define WEBNN_ROTARY_EMBEDDING_ONCE
namespace webnn::ops::cpu::rotary_embedding_detail {

// One dispatch's operands (float32 or float16 elements).
struct Problem {
  const void* x;    // [rows, d]
  const void* cos;  // table rows of `width`, found by the RowWalker
  const void* sin;
  void* out;        // [rows, d]
  size_t d;
  size_t width;  // d / 2 (half tables) or d (full tables)
};

}  // namespace webnn::ops::cpu::rotary_embedding_detail
#endif  // WEBNN_ROTARY_EMBEDDING_ONCE

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

using rotary_embedding_detail::Problem;

// Rows [r0, r1) of x; `tables` walks the tables' rows (positioned here).
template <class L>
void RotateRows(const Problem& p, RowWalker& tables, size_t r0, size_t r1) {
  using M = typename L::M;
  const typename L::D df;
  const size_t lanes = hn::Lanes(df), h = p.d / 2;
  // The tables' column of y[i + h]'s factors: i again for half tables.
  const size_t second = p.width == p.d ? h : 0;
  const M* x = static_cast<const M*>(p.x) + r0 * p.d;
  M* y = static_cast<M*>(p.out) + r0 * p.d;
  uint64_t t = tables.Seek(r0);
  for (size_t r = r0; r < r1; ++r, x += p.d, y += p.d, t = tables.Next()) {
    const M* c = static_cast<const M*>(p.cos) + t;
    const M* s = static_cast<const M*>(p.sin) + t;
    for (size_t i = 0; i < h; i += lanes) {
      const size_t n = std::min(lanes, h - i);
      const auto x1 = L::Load(df, x + i, n);
      const auto x2 = L::Load(df, x + h + i, n);
      // Each product rounded, then the difference / sum, as the written-out
      // graph computes them: an FMA's single rounding would turn some of its
      // Inf - Inf (NaN) into an infinity and the reverse.
      L::Store(hn::Sub(hn::Mul(x1, L::Load(df, c + i, n)), hn::Mul(x2, L::Load(df, s + i, n))), df, y + i, n);
      L::Store(hn::Add(hn::Mul(x2, L::Load(df, c + second + i, n)), hn::Mul(x1, L::Load(df, s + second + i, n))), df,
               y + h + i, n);
    }
  }
}

}  // namespace

void RotaryRowsF32(const Problem* p, RowWalker* tables, size_t r0, size_t r1) {
  RotateRows<NativeLanes<float>>(*p, *tables, r0, r1);
}
void RotaryRowsF16(const Problem* p, RowWalker* tables, size_t r0, size_t r1) {
  RotateRows<HalfLanes>(*p, *tables, r0, r1);
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(RotaryRowsF32);
HWY_EXPORT(RotaryRowsF16);

namespace {

using rotary_embedding_detail::Problem;

void RunRotaryEmbedding(const KernelContext& ctx) {
  const TensorView& x = ctx.inputs[0];
  const TensorView& cos = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  Problem p{x.data, cos.data, ctx.inputs[2].data, out.data, x.shape.back(), cos.shape.back()};
  const size_t rows = static_cast<size_t>(x.elements() / p.d);
  // The shape the tables broadcast to: x's, with their width.
  std::vector<uint32_t> table_shape = x.shape;
  table_shape.back() = static_cast<uint32_t>(p.width);
  const bool f16 = x.type == DataType::kFloat16;
  ctx.parallel.Run(rows, std::max<size_t>(1, kElementwiseGrain / p.d), [&](size_t r0, size_t r1) {
    RowWalker tables(table_shape, cos.shape, p.width);
    if (f16) HWY_DYNAMIC_DISPATCH(RotaryRowsF16)(&p, &tables, r0, r1);
    else HWY_DYNAMIC_DISPATCH(RotaryRowsF32)(&p, &tables, r0, r1);
  });
}

}  // namespace

void RegisterRotaryEmbeddingKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    registry.Add(CpuKernel{op, &RunRotaryEmbedding, nullptr, {s, s, s}, {s}});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
