// cpu kernel of prelu (x >= 0 ? x : slope * x, slope broadcast) for float32,
// float16 (float32 lanes, one rounding), int8, int32 and int64 (wrapping
// product: int8 -128 * -1 = -128; 8-bit lanes multiply through 16-bit
// products). As in the reference, a zero slope gives 0 also for x = -Inf, and
// the slope is not looked at for x >= 0 (prelu(1, NaN) = 1).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/prelu.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/broadcast.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

struct PreluOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x, V slope) const {
    const V zero = hn::Zero(d);
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      const V product = hn::IfThenZeroElse(hn::And(hn::Eq(slope, zero), hn::IsInf(x)), hn::Mul(slope, x));
      return hn::IfThenElse(hn::Ge(x, zero), x, product);
    } else {
      return hn::IfThenElse(hn::Lt(x, zero), MulWrap(d, slope, x), x);
    }
  }
};

void PreluRow(DataType type, const void* x, bool xv, const void* s, bool sv, void* o, size_t n, bool st) {
  VisitType<TypeList<float, hwy::float16_t, int8_t, int32_t, int64_t>>(
      type, [&]<typename T>(TypeTag<T>) { BinaryLoop<LayoutOf<T>>(PreluOp(), x, xv, s, sv, o, n, st); });
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(PreluRow);

namespace {

void RunPrelu(const KernelContext& ctx) {
  const TensorView& x = ctx.inputs[0];
  const TensorView& slope = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const BroadcastPlan plan(out.shape, {x.shape, slope.shape});
  const bool stream = out.bytes() >= kStreamingBytes;
  ForEachBinaryRun(ctx.parallel, plan, x, slope, out, kElementwiseGrain,
                   [&](const std::byte* px, bool xv, const std::byte* ps, bool sv, std::byte* po, size_t n) {
                     HWY_DYNAMIC_DISPATCH(PreluRow)(out.type, px, xv, ps, sv, po, n, stream);
                   });
}

}  // namespace

void RegisterPreluKernels(OpKind op, KernelRegistry& registry) {
  // Every type the schema allows: float32, float16, int8, int32, int64.
  registry.Add(CpuKernel{op, &RunPrelu, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
