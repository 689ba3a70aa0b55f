// cpu kernels of equal, notEqual, greater, greaterOrEqual, lesser,
// lesserOrEqual for every input type; uint8 0/1 outputs.
//
// Comparisons run in the input's own lanes (float16 widened to float32,
// exactly), with IEEE semantics: every comparison with NaN is false except
// notEqual, which is therefore Not(Eq) (Highway's float != is the ordered
// _CMP_NEQ_OQ, false for NaN). Masks become bytes by truncating 0/1 lanes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/comparison.cc"
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

struct EqualPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D, V a, V b) const { return hn::Eq(a, b); }
};
struct NotEqualPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D, V a, V b) const { return hn::Not(hn::Eq(a, b)); }
};
struct GreaterPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D, V a, V b) const { return hn::Gt(a, b); }
};
struct GreaterOrEqualPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D, V a, V b) const { return GeAny(a, b); }
};
struct LesserPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D, V a, V b) const { return hn::Lt(a, b); }
};
struct LesserOrEqualPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D, V a, V b) const { return GeAny(b, a); }
};

template <class Mem>
HWY_INLINE void CompareRowAs(OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n) {
  switch (op) {
    case OpKind::equal: return PredicateLoop<Mem>(EqualPred(), a, av, b, bv, o, n);
    case OpKind::notEqual: return PredicateLoop<Mem>(NotEqualPred(), a, av, b, bv, o, n);
    case OpKind::greater: return PredicateLoop<Mem>(GreaterPred(), a, av, b, bv, o, n);
    case OpKind::greaterOrEqual: return PredicateLoop<Mem>(GreaterOrEqualPred(), a, av, b, bv, o, n);
    case OpKind::lesser: return PredicateLoop<Mem>(LesserPred(), a, av, b, bv, o, n);
    case OpKind::lesserOrEqual: return PredicateLoop<Mem>(LesserOrEqualPred(), a, av, b, bv, o, n);
    default: break;
  }
}

void CompareRow(DataType type, OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n) {
  VisitType<SpecElementTypes<hwy::float16_t>>(
      type, [&]<typename T>(TypeTag<T>) { CompareRowAs<LayoutOf<T>>(op, a, av, b, bv, o, n); });
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(CompareRow);

namespace {

void RunComparison(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const BroadcastPlan plan(out.shape, {a.shape, b.shape});
  const size_t size = ByteLengthFor(a.type, 1);
  const bool a_vec = plan.InnerContiguous(0);
  const bool b_vec = plan.InnerContiguous(1);
  ForEachBroadcastRun(ctx.parallel, plan, 2, kElementwiseGrain, [&](const uint64_t* off, uint64_t o, size_t n) {
    HWY_DYNAMIC_DISPATCH(CompareRow)(a.type, ctx.op, a.data + off[0] * size, a_vec, b.data + off[1] * size, b_vec, out.data + o, n);
  });
}

}  // namespace

void RegisterComparisonKernels(OpKind op, KernelRegistry& registry) {
  // Every input type the schema allows; the output is uint8.
  registry.Add(CpuKernel{op, &RunComparison, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
