// cpu kernels of elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, relu,
// sigmoid, softplus, softsign, tanh, clamp; and ApplyActivationF32 for fused
// epilogues (activation.h).
//
// float16 is computed in float32 lanes with the options cast to float16 first,
// as the reference does. The transcendental functions are in vector_math-inl.h
// (measured worst case over every float32: gelu 5 ULP, WPT allows 18;
// sigmoid, softplus, elu, tanh a few ULP against 10-34). Each function takes
// its limit at +-Infinity and passes NaN through, like the reference; a zero
// coefficient times Infinity is 0 (leakyRelu/linear/hardSigmoid with
// alpha = 0). relu and clamp on integers are exact min/max.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/activation.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <limits>

#include "ops/cpu/activation.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"
#include "ops/number_cast.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

struct EluOp {
  float alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    return hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, hn::Mul(hn::Set(d, alpha), Expm1Ieee(d, x)));
  }
};
struct GeluOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return GeluF32(d, x); }
};
// alpha * x + beta, where alpha = 0 gives beta also for x = +-Inf.
HWY_INLINE hn::Vec<hn::ScalableTag<float>> LinearPart(hn::ScalableTag<float> d, hn::Vec<hn::ScalableTag<float>> x,
                                                      float alpha, float beta) {
  if (alpha == 0) return hn::IfThenElse(hn::IsNaN(x), x, hn::Set(d, beta));
  return MulAddAccurate(d, hn::Set(d, alpha), x, hn::Set(d, beta));
}
struct HardSigmoidOp {
  float alpha, beta;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    V y = LinearPart(d, x, alpha, beta);
    y = hn::IfThenZeroElse(hn::Lt(y, hn::Zero(d)), y);  // NaN stays
    return hn::IfThenElse(hn::Gt(y, hn::Set(d, 1.0f)), hn::Set(d, 1.0f), y);
  }
};
struct HardSwishOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V y = hn::Mul(hn::Mul(x, hn::Add(x, hn::Set(d, 3.0f))), hn::Set(d, 1.0f / 6.0f));
    const V low = hn::IfThenElse(hn::Le(x, hn::Set(d, -3.0f)), hn::Set(d, -0.0f), y);
    return hn::IfThenElse(hn::Ge(x, hn::Set(d, 3.0f)), x, low);
  }
};
struct ReluOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x); }  // NaN, -0 stay
};
struct LeakyReluOp {
  float alpha;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    if (alpha == 0) return ReluOp()(d, x);
    return hn::IfThenElse(hn::Ge(x, hn::Zero(d)), x, hn::Mul(hn::Set(d, alpha), x));
  }
};
struct LinearOp {
  float alpha, beta;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return LinearPart(d, x, alpha, beta); }
};
struct SigmoidOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return SigmoidF32(d, x); }
};
struct SoftplusOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return SoftplusF32(d, x); }
};
struct SoftsignOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V one = hn::Set(d, 1.0f);
    return hn::IfThenElse(hn::IsInf(x), hn::CopySignToAbs(one, x), hn::Div(x, hn::Add(one, hn::Abs(x))));
  }
};
struct TanhOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return TanhF32(d, x); }
};
struct ClampFloatOp {
  float lo, hi;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const V vlo = hn::Set(d, lo);
    const V vhi = hn::Set(d, hi);
    const V y = hn::IfThenElse(hn::Lt(x, vlo), vlo, x);  // NaN compares false: stays
    return hn::IfThenElse(hn::Gt(y, vhi), vhi, y);
  }
};

template <class Mem>
HWY_INLINE void ActivationFloat(const ActivationF32& a, const typename Mem::M* in, typename Mem::M* out, size_t n,
                                bool st) {
  switch (a.op) {
    case OpKind::elu: return UnaryLoop<Mem>(EluOp{a.alpha}, in, out, n, st);
    case OpKind::gelu: return UnaryLoop<Mem>(GeluOp(), in, out, n, st);
    case OpKind::hardSigmoid: return UnaryLoop<Mem>(HardSigmoidOp{a.alpha, a.beta}, in, out, n, st);
    case OpKind::hardSwish: return UnaryLoop<Mem>(HardSwishOp(), in, out, n, st);
    case OpKind::leakyRelu: return UnaryLoop<Mem>(LeakyReluOp{a.alpha}, in, out, n, st);
    case OpKind::linear: return UnaryLoop<Mem>(LinearOp{a.alpha, a.beta}, in, out, n, st);
    case OpKind::relu: return UnaryLoop<Mem>(ReluOp(), in, out, n, st);
    case OpKind::sigmoid: return UnaryLoop<Mem>(SigmoidOp(), in, out, n, st);
    case OpKind::softplus: return UnaryLoop<Mem>(SoftplusOp(), in, out, n, st);
    case OpKind::softsign: return UnaryLoop<Mem>(SoftsignOp(), in, out, n, st);
    case OpKind::tanh: return UnaryLoop<Mem>(TanhOp(), in, out, n, st);
    case OpKind::clamp: return UnaryLoop<Mem>(ClampFloatOp{a.min_value, a.max_value}, in, out, n, st);
    default: break;
  }
}

void ActivationRowF32(const ActivationF32& a, const void* in, void* out, size_t n, bool st) {
  ActivationFloat<NativeLanes<float>>(a, static_cast<const float*>(in), static_cast<float*>(out), n, st);
}
void ActivationRowF16(const ActivationF32& a, const void* in, void* out, size_t n, bool st) {
  ActivationFloat<HalfLanes>(a, static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), n, st);
}

// Integer relu and clamp: min(max(x, lo), hi) with the bounds' bit patterns.
template <typename T>
struct ClampIntOp {
  T lo, hi;
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return hn::Min(hn::Max(x, hn::Set(d, lo)), hn::Set(d, hi)); }
};
template <typename T>
HWY_INLINE void ClampInt(uint64_t lo, uint64_t hi, const void* in, void* out, size_t n) {
  UnaryLoop<NativeLanes<T>>(ClampIntOp<T>{static_cast<T>(lo), static_cast<T>(hi)}, static_cast<const T*>(in),
                            static_cast<T*>(out), n);
}
void ClampRow(DataType type, uint64_t lo, uint64_t hi, const void* in, void* out, size_t n) {
  VisitType<TypeList<int8_t, uint8_t, int32_t, uint32_t, int64_t, uint64_t>>(
      type, [&]<typename T>(TypeTag<T>) { ClampInt<T>(lo, hi, in, out, n); });
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(ActivationRowF32);
HWY_EXPORT(ActivationRowF16);
HWY_EXPORT(ClampRow);

namespace {

// Options cast to `type` (float32 or float16) as the spec's method steps do.
ActivationF32 MakeActivation(OpKind op, const ActivationAttrs& attrs, DataType type) {
  ActivationF32 a;
  a.op = op;
  a.alpha = static_cast<float>(CastMLNumber(MLNumber(attrs.alpha), type).f);
  a.beta = static_cast<float>(CastMLNumber(MLNumber(attrs.beta), type).f);
  // Absent and NaN bounds do not clamp.
  auto bound = [&](const std::optional<MLNumber>& b, float none) {
    if (!b) return none;
    const float v = static_cast<float>(CastMLNumber(*b, type).f);
    return std::isnan(v) ? none : v;
  };
  a.min_value = bound(attrs.minValue, -std::numeric_limits<float>::infinity());
  a.max_value = bound(attrs.maxValue, std::numeric_limits<float>::infinity());
  return a;
}

bool IsTranscendental(OpKind op) {
  return op == OpKind::elu || op == OpKind::gelu || op == OpKind::sigmoid || op == OpKind::softplus ||
         op == OpKind::tanh;
}

// Integer bounds (bit patterns) of relu/clamp for `type`.
std::pair<uint64_t, uint64_t> IntegerBounds(OpKind op, const ActivationAttrs& attrs, DataType type) {
  const int bits = BitsPerElement(type);
  const bool is_signed = IsSignedInteger(type);
  const uint64_t type_min = is_signed ? 0 - (uint64_t{1} << (bits - 1)) : 0;
  const uint64_t type_max =
      is_signed ? (uint64_t{1} << (bits - 1)) - 1 : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  if (op == OpKind::relu) return {0, type_max};
  auto bound = [&](const std::optional<MLNumber>& b, uint64_t none) {
    if (!b) return none;
    const CastValue v = CastMLNumber(*b, type);
    return is_signed ? static_cast<uint64_t>(v.i) : v.u;
  };
  return {bound(attrs.minValue, type_min), bound(attrs.maxValue, type_max)};
}

void RunActivation(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ActivationAttrs>(ctx.attrs);
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t n = static_cast<size_t>(out.elements());
  const size_t size = ByteLengthFor(out.type, 1);
  if (IsFloatingPoint(out.type)) {
    const ActivationF32 a = MakeActivation(ctx.op, attrs, out.type);
    const bool half = out.type == DataType::kFloat16;
    const bool stream = out.bytes() >= kStreamingBytes;
    ctx.parallel.Run(n, IsTranscendental(ctx.op) ? kTranscendentalGrain : kElementwiseGrain,
                     [&](size_t begin, size_t end) {
                       const std::byte* src = in.data + begin * size;
                       std::byte* dst = out.data + begin * size;
                       if (half) HWY_DYNAMIC_DISPATCH(ActivationRowF16)(a, src, dst, end - begin, stream);
                       else HWY_DYNAMIC_DISPATCH(ActivationRowF32)(a, src, dst, end - begin, stream);
                     });
    return;
  }
  // (Not a structured binding: clang 14 cannot capture those in the lambda.)
  const std::pair<uint64_t, uint64_t> bounds = IntegerBounds(ctx.op, attrs, out.type);
  const uint64_t lo = bounds.first, hi = bounds.second;
  ctx.parallel.Run(n, kElementwiseGrain, [&](size_t begin, size_t end) {
    HWY_DYNAMIC_DISPATCH(ClampRow)(out.type, lo, hi, in.data + begin * size, out.data + begin * size, end - begin);
  });
}

}  // namespace

ActivationF32 MakeActivationF32(OpKind op, const ActivationAttrs& attrs) {
  return MakeActivation(op, attrs, DataType::kFloat32);
}

void ApplyActivationF32(const ActivationF32& activation, float* data, size_t n) {
  HWY_DYNAMIC_DISPATCH(ActivationRowF32)(activation, data, data, n, false);
}

void ApplyActivationF32(OpKind op, const ActivationAttrs& attrs, float* data, size_t n) {
  ApplyActivationF32(MakeActivationF32(op, attrs), data, n);
}

void ApplyFusedActivation(const std::optional<FusedActivation>& activation, float* data, size_t n,
                          core::ParallelFor& parallel, bool skip_clamps) {
  if (!activation || n == 0) return;
  const bool clamped = skip_clamps && (activation->op == OpKind::relu || activation->op == OpKind::clamp);
  if (clamped && !activation->HasPostAffine()) return;
  const ActivationF32 act = MakeActivationF32(activation->op, activation->attrs);
  ActivationF32 affine;  // linear: alpha * x + beta
  affine.op = OpKind::linear;
  affine.alpha = static_cast<float>(activation->post_scale);
  affine.beta = static_cast<float>(activation->post_shift);
  constexpr size_t kBlock = 16384;  // 64 KiB: stays in L2 while both steps run
  const size_t blocks = (n + kBlock - 1) / kBlock;
  parallel.Run(blocks, 4, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      float* block = data + i * kBlock;
      const size_t count = std::min(kBlock, n - i * kBlock);
      if (!clamped) ApplyActivationF32(act, block, count);
      if (activation->HasPostAffine()) ApplyActivationF32(affine, block, count);
    }
  });
}

void RegisterActivationKernels(OpKind op, KernelRegistry& registry) {
  // Every type the schema allows: float32/float16; relu also int8/int32/int64;
  // clamp every whole-byte type.
  registry.Add(CpuKernel{op, &RunActivation, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
