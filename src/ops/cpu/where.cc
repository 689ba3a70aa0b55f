// cpu kernel of where for every value type: a per-element selection between
// two bit patterns (exact, NaN payloads included), in unsigned lanes of the
// element's size. Conditions (uint8, non-zero = true) are widened to masks of
// that lane size. A row whose condition is one scalar is a plain copy (or fill).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/where.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>

#include "ops/cpu/broadcast.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

template <typename T>
HWY_INLINE void WhereRowT(const uint8_t* c, bool cv, const void* t_raw, bool tv, const void* f_raw, bool fv,
                          void* out_raw, size_t n) {
  const T* t = static_cast<const T*>(t_raw);
  const T* f = static_cast<const T*>(f_raw);
  T* out = static_cast<T*>(out_raw);
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  if (!cv) {
    // One condition for the whole row: copy or fill from the chosen input.
    const T* src = c[0] ? t : f;
    const bool src_vec = c[0] ? tv : fv;
    if (src_vec) {
      std::memcpy(out, src, n * sizeof(T));
    } else {
      const auto v = hn::Set(d, src[0]);
      for (size_t k = 0; k < n; k += N) StorePart(v, d, out + k, std::min(N, n - k));
    }
    return;
  }
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const auto ts = hn::Set(d, t[0]);
  const auto fs = hn::Set(d, f[0]);
  auto step = [&](size_t k, size_t count) {
    const auto m = U8ToMask(d, LoadPart(d8, c + k, count));
    const auto vt = tv ? LoadPart(d, t + k, count) : ts;
    const auto vf = fv ? LoadPart(d, f + k, count) : fs;
    StorePart(hn::IfThenElse(m, vt, vf), d, out + k, count);
  };
  size_t k = 0;
  for (; k + N <= n; k += N) step(k, N);
  if (k < n) step(k, n - k);
}

void WhereRow(size_t size, const uint8_t* c, bool cv, const void* t, bool tv, const void* f, bool fv, void* out,
              size_t n) {
  switch (size) {
    case 1: return WhereRowT<uint8_t>(c, cv, t, tv, f, fv, out, n);
    case 2: return WhereRowT<uint16_t>(c, cv, t, tv, f, fv, out, n);
    case 4: return WhereRowT<uint32_t>(c, cv, t, tv, f, fv, out, n);
    default: return WhereRowT<uint64_t>(c, cv, t, tv, f, fv, out, n);
  }
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(WhereRow);

namespace {

void RunWhere(const KernelContext& ctx) {
  const TensorView& c = ctx.inputs[0];
  const TensorView& t = ctx.inputs[1];
  const TensorView& f = ctx.inputs[2];
  const TensorView& out = ctx.outputs[0];
  const BroadcastPlan plan(out.shape, {c.shape, t.shape, f.shape});
  const size_t size = ByteLengthFor(out.type, 1);
  const bool cv = plan.InnerContiguous(0), tv = plan.InnerContiguous(1), fv = plan.InnerContiguous(2);
  ForEachBroadcastRun(ctx.parallel, plan, 3, kElementwiseGrain, [&](const uint64_t* off, uint64_t o, size_t n) {
    HWY_DYNAMIC_DISPATCH(WhereRow)(size, c.as<uint8_t>() + off[0], cv, t.data + off[1] * size, tv,
                                   f.data + off[2] * size, fv, out.data + o * size, n);
  });
}

}  // namespace

void RegisterWhereKernels(OpKind op, KernelRegistry& registry) {
  // Every value type the schema allows (the eight whole-byte types).
  registry.Add(CpuKernel{op, &RunWhere, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
