// cpu kernels of argMin and argMax: every input type, int32 or int64 indices.
//
// The input is [outer, L, inner] around the axis. inner == 1 (contiguous
// rows): the extreme value with vector max/min, then the first index holding
// it with vector compares and FindFirstTrue (the second sweep reads the row
// from cache and stops at the hit). inner > 1: one lane per column, the best
// value and its index updated with a strict compare row by row, so ties keep
// the first index. 8-bit and float16 columns widen to 32-bit lanes to carry
// 32-bit indices. Semantics as the reference: ties give the lowest index, the
// first NaN wins (and a NaN best is never replaced).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/arg_min_max.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/aligned_allocator.h>
#include <hwy/highway.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_OPS_CPU_ARG_MIN_MAX_CC_ONCE_
#define WEBNN_OPS_CPU_ARG_MIN_MAX_CC_ONCE_
#include <algorithm>
#include <limits>
#include <vector>

#include "ops/arg_min_max.h"
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
struct ArgJob {
  DataType type;
  bool is_max;
  bool index64;
  const std::byte* in;
  std::byte* out;
  size_t L, inner;
  // Rows: outputs [o0, o1) of the [outer, L] layout (inner == 1).
  // Columns: outer slice `outer`, columns [c0, c1).
  size_t o0, o1, outer, c0, c1;
};
}  // namespace webnn::ops::cpu
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class E>
uint64_t RowArg(const E* HWY_RESTRICT x, size_t n, bool is_max) {
  using T = LaneOf<E>;
  constexpr bool kFloat = std::is_floating_point_v<T>;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  T init;
  if constexpr (kFloat) init = is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  else init = is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  const auto id = hn::Set(d, init);
  auto m0 = id, m1 = id;
  auto nan = hn::FirstN(d, 0);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto x0 = LoadLanes(d, x + i), x1 = LoadLanes(d, x + i + N);
    if constexpr (kFloat) nan = hn::Or(nan, hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)));
    m0 = is_max ? hn::Max(m0, x0) : hn::Min(m0, x0);
    m1 = is_max ? hn::Max(m1, x1) : hn::Min(m1, x1);
  }
  for (; i < n; i += N) {
    const auto v = i + N <= n ? LoadLanes(d, x + i) : hn::IfThenElse(hn::FirstN(d, n - i), LoadLanesTail(d, x + i, n - i), id);
    if constexpr (kFloat) nan = hn::Or(nan, hn::IsNaN(v));
    m0 = is_max ? hn::Max(m0, v) : hn::Min(m0, v);
  }
  bool find_nan = false;
  if constexpr (kFloat) find_nan = !hn::AllFalse(d, nan);
  alignas(64) T lanes[kMaxVectorBytes / sizeof(T)];
  hn::StoreU(is_max ? hn::Max(m0, m1) : hn::Min(m0, m1), d, lanes);
  T best = lanes[0];
  for (size_t k = 1; k < N; ++k) best = is_max ? std::max(best, lanes[k]) : std::min(best, lanes[k]);
  // Second sweep: the first lane equal to the extreme (or the first NaN).
  const auto target = hn::Set(d, best);
  for (i = 0; i < n; i += N) {
    const size_t k = std::min(N, n - i);
    const auto v = k == N ? LoadLanes(d, x + i) : LoadLanesTail(d, x + i, k);
    auto hit = hn::Eq(v, target);
    if constexpr (kFloat) {
      if (find_nan) hit = hn::IsNaN(v);
    }
    hit = hn::And(hit, hn::FirstN(d, k));
    const intptr_t pos = hn::FindFirstTrue(d, hit);
    if (pos >= 0) return i + static_cast<size_t>(pos);
  }
  return 0;  // unreachable: the extreme is in the row
}

// Columns [0, W) of an [L, stride] slice, row by row (contiguous runs; the
// best values and indices of the W columns live in L1 between rows).
template <class E, class I>
void ColumnsArg(const E* HWY_RESTRICT x, size_t L, size_t stride, size_t W, bool is_max, I* HWY_RESTRICT out) {
  using T = WideLaneOf<E>;
  constexpr bool kFloat = std::is_floating_point_v<T>;
  using TI = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  // Both rounded up to whole vectors (the loops below load and store whole
  // vectors) and 64-byte aligned (no vector straddles two cache lines).
  const size_t padded = (W + N - 1) / N * N;
  auto best = hwy::AllocateAligned<T>(padded);
  auto index = hwy::AllocateAligned<TI>(padded);
  std::fill(index.get(), index.get() + padded, TI{0});
  T* HWY_RESTRICT pb = best.get();
  for (size_t c = 0; c < padded; c += N) {
    const size_t k = std::min(N, W - c);
    hn::StoreU(k == N ? LoadWide(d, x + c) : LoadWideTail(d, x + c, k), d, pb + c);
  }
  for (size_t r = 1; r < L; ++r) {
    const E* p = x + r * stride;
    const auto rv = hn::Set(di, static_cast<TI>(r));
    for (size_t c = 0; c < W; c += N) {
      const size_t k = std::min(N, W - c);
      const auto v = k == N ? LoadWide(d, p + c) : LoadWideTail(d, p + c, k);
      const auto b = hn::LoadU(d, best.get() + c);
      auto better = is_max ? hn::Gt(v, b) : hn::Lt(v, b);
      if constexpr (kFloat) better = hn::AndNot(hn::IsNaN(b), hn::Or(better, hn::IsNaN(v)));
      hn::StoreU(hn::IfThenElse(better, v, b), d, best.get() + c);
      const auto idx = hn::LoadU(di, index.get() + c);
      hn::StoreU(hn::IfThenElse(hn::RebindMask(di, better), rv, idx), di, index.get() + c);
    }
  }
  for (size_t c = 0; c < W; ++c) out[c] = static_cast<I>(index[c]);
}

template <class E>
void RunArgTyped(const ArgJob& j) {
  const E* in = reinterpret_cast<const E*>(j.in);
  if (j.inner == 1) {
    for (size_t o = j.o0; o < j.o1; ++o) {
      const uint64_t r = RowArg(in + o * j.L, j.L, j.is_max);
      if (j.index64) reinterpret_cast<int64_t*>(j.out)[o] = static_cast<int64_t>(r);
      else reinterpret_cast<int32_t*>(j.out)[o] = static_cast<int32_t>(r);
    }
    return;
  }
  const E* base = in + j.outer * j.L * j.inner + j.c0;
  const size_t o = j.outer * j.inner + j.c0;
  if (j.index64) ColumnsArg(base, j.L, j.inner, j.c1 - j.c0, j.is_max, reinterpret_cast<int64_t*>(j.out) + o);
  else ColumnsArg(base, j.L, j.inner, j.c1 - j.c0, j.is_max, reinterpret_cast<int32_t*>(j.out) + o);
}

void RunArg(const ArgJob& j) {
  VisitType<SpecElementTypes<F16>>(j.type, [&]<class E>(TypeTag<E>) { RunArgTyped<E>(j); });
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(RunArg);

namespace {

constexpr size_t kGrain = 32768;
constexpr size_t kColumnBlock = 4096;

void RunArgMinMax(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ArgMinMaxAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < attrs.axis; ++d) outer *= input.shape[d];
  for (size_t d = attrs.axis + 1; d < input.shape.size(); ++d) inner *= input.shape[d];
  const size_t L = input.shape[attrs.axis];
  ArgJob base{input.type, ctx.op == OpKind::argMax, ctx.outputs[0].type == DataType::kInt64, input.data,
              ctx.outputs[0].data, L, inner, 0, 0, 0, 0, 0};
  if (inner == 1) {
    ctx.parallel.Run(outer, std::max<size_t>(1, kGrain / L), [&](size_t b, size_t e) {
      ArgJob j = base;
      j.o0 = b;
      j.o1 = e;
      HWY_DYNAMIC_DISPATCH(RunArg)(j);
    });
    return;
  }
  // Column blocks as wide as kColumnBlock: narrower blocks would read each row
  // in pieces, which the prefetchers follow poorly (splitting [4096, 1000]
  // into two blocks of 500 columns for two threads ran 2.4x slower). With few
  // blocks the work stays on fewer threads.
  const size_t blocks = (inner + kColumnBlock - 1) / kColumnBlock;
  ctx.parallel.Run(outer * blocks, std::max<size_t>(1, kGrain / (L * std::min(inner, kColumnBlock))),
                   [&](size_t b, size_t e) {
                     for (size_t t = b; t < e; ++t) {
                       ArgJob j = base;
                       j.outer = t / blocks;
                       j.c0 = (t % blocks) * kColumnBlock;
                       j.c1 = std::min(inner, j.c0 + kColumnBlock);
                       HWY_DYNAMIC_DISPATCH(RunArg)(j);
                     }
                   });
}

}  // namespace

void RegisterArgMinMaxKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet in{DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kUint32,
                       DataType::kInt64,   DataType::kUint64,  DataType::kInt8,  DataType::kUint8};
  const DataTypeSet out{DataType::kInt32, DataType::kInt64};
  registry.Add(CpuKernel{op, &RunArgMinMax, nullptr, {in}, {out}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
