// cpu kernels of logicalNot, logicalAnd, logicalOr, logicalXor (uint8, any
// non-zero byte is true), isNaN and isInfinite (float32, float16); uint8 0/1
// outputs. Bytes are tested in 8-bit lanes (64 per AVX-512 vector); float16
// classification works on the bits (exponent all ones), with no conversion.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/logical.cc"
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

struct AndPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D d, V a, V b) const {
    return hn::And(hn::Ne(a, hn::Zero(d)), hn::Ne(b, hn::Zero(d)));
  }
};
struct OrPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D d, V a, V b) const { return hn::Ne(hn::Or(a, b), hn::Zero(d)); }
};
struct XorPred {
  template <class D, class V>
  HWY_INLINE auto operator()(D d, V a, V b) const {
    // (a != 0) != (b != 0), as 0/1 bytes.
    const V one = hn::Set(d, uint8_t{1});
    return hn::Ne(hn::Min(a, one), hn::Min(b, one));
  }
};

void LogicalBinaryRow(OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n) {
  using Mem = NativeLanes<uint8_t>;
  switch (op) {
    case OpKind::logicalAnd: return PredicateLoop<Mem>(AndPred(), a, av, b, bv, o, n);
    case OpKind::logicalOr: return PredicateLoop<Mem>(OrPred(), a, av, b, bv, o, n);
    case OpKind::logicalXor: return PredicateLoop<Mem>(XorPred(), a, av, b, bv, o, n);
    default: break;
  }
}

// out[k] = pred(in[k]) as 0/1 bytes.
template <class D, class Pred>
HWY_INLINE void ClassifyLoop(D d, const Pred& pred, const hn::TFromD<D>* in, uint8_t* out, size_t n) {
  const hn::Rebind<uint8_t, D> d8;
  const size_t N = hn::Lanes(d);
  size_t k = 0;
  for (; k + N <= n; k += N) StorePart(MaskToU8(d, pred(d, LoadPart(d, in + k, N))), d8, out + k, N);
  if (k < n) StorePart(MaskToU8(d, pred(d, LoadPart(d, in + k, n - k))), d8, out + k, n - k);
}

void LogicalUnaryRow(OpKind op, DataType type, const void* in, void* out_raw, size_t n) {
  uint8_t* out = static_cast<uint8_t*>(out_raw);
  if (op == OpKind::logicalNot) {
    const hn::ScalableTag<uint8_t> d;
    return ClassifyLoop(d, [](auto dd, auto v) { return hn::Eq(v, hn::Zero(dd)); }, static_cast<const uint8_t*>(in),
                        out, n);
  }
  const bool nan = op == OpKind::isNaN;
  if (type == DataType::kFloat32) {
    const hn::ScalableTag<float> d;
    const float* p = static_cast<const float*>(in);
    if (nan) return ClassifyLoop(d, [](auto, auto v) { return hn::IsNaN(v); }, p, out, n);
    return ClassifyLoop(d, [](auto, auto v) { return hn::IsInf(v); }, p, out, n);
  }
  // float16 bits: |h| > 0x7c00 is NaN, == 0x7c00 is Inf.
  const hn::ScalableTag<uint16_t> d;
  const uint16_t* p = static_cast<const uint16_t*>(in);
  if (nan)
    return ClassifyLoop(
        d, [](auto dd, auto v) { return hn::Gt(hn::And(v, hn::Set(dd, uint16_t{0x7fff})), hn::Set(dd, uint16_t{0x7c00})); },
        p, out, n);
  return ClassifyLoop(
      d, [](auto dd, auto v) { return hn::Eq(hn::And(v, hn::Set(dd, uint16_t{0x7fff})), hn::Set(dd, uint16_t{0x7c00})); },
      p, out, n);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(LogicalBinaryRow);
HWY_EXPORT(LogicalUnaryRow);

namespace {

void RunLogical(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  if (ctx.op == OpKind::logicalNot || ctx.op == OpKind::isNaN || ctx.op == OpKind::isInfinite) {
    const size_t size = ByteLengthFor(a.type, 1);
    ctx.parallel.Run(static_cast<size_t>(out.elements()), kElementwiseGrain, [&](size_t begin, size_t end) {
      HWY_DYNAMIC_DISPATCH(LogicalUnaryRow)(ctx.op, a.type, a.data + begin * size, out.data + begin, end - begin);
    });
    return;
  }
  const TensorView& b = ctx.inputs[1];
  const BroadcastPlan plan(out.shape, {a.shape, b.shape});
  const bool a_vec = plan.InnerContiguous(0);
  const bool b_vec = plan.InnerContiguous(1);
  ForEachBroadcastRun(ctx.parallel, plan, 2, kElementwiseGrain, [&](const uint64_t* off, uint64_t o, size_t n) {
    HWY_DYNAMIC_DISPATCH(LogicalBinaryRow)(ctx.op, a.data + off[0], a_vec, b.data + off[1], b_vec, out.data + o, n);
  });
}

}  // namespace

void RegisterLogicalKernels(OpKind op, KernelRegistry& registry) {
  // Every type the schema allows (uint8; float32/float16 for isNaN/isInfinite).
  registry.Add(CpuKernel{op, &RunLogical, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
