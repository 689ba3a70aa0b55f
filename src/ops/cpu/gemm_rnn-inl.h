// SIMD helpers of the recurrent kernels (gru.cc, lstm.cc): the gate
// activations and masked row access. The matrix products go through the GEMM
// core (gemm.h); what is left per step is element-wise over [batch, hidden].
//
// Include from a foreach_target translation unit after hwy/highway.h; the
// toggle guard compiles it once per target.
#if defined(WEBNN_OPS_CPU_GEMM_RNN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WEBNN_OPS_CPU_GEMM_RNN_INL_H_
#undef WEBNN_OPS_CPU_GEMM_RNN_INL_H_
#else
#define WEBNN_OPS_CPU_GEMM_RNN_INL_H_
#endif

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <cstring>

#include "webnn/types.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// sigmoid(x) = 1 / (1 + e^-x), computed from e = e^-|x| in (0, 1] so nothing
// overflows: r = 1 / (1 + e) for x >= 0 and e * r for x < 0 (the far negative
// side underflows gradually, as the float64 reference does). NaN stays NaN
// (Highway's Exp maps NaN to 0).
template <class D, class V>
HWY_INLINE V RnnSigmoid(D d, V x) {
  const V e = hn::Exp(d, hn::Neg(hn::Abs(x)));
  const V r = hn::Div(hn::Set(d, 1.0f), hn::Add(hn::Set(d, 1.0f), e));
  const V y = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Mul(e, r), r);
  return hn::IfThenElse(hn::IsNaN(x), x, y);
}

template <class D, class V>
HWY_INLINE V RnnTanh(D d, V x) {
  return hn::IfThenElse(hn::IsNaN(x), x, hn::Tanh(d, x));
}

// relu keeps NaN (the reference: isnan(x) ? x : max(x, 0)).
template <class D, class V>
HWY_INLINE V RnnRelu(D d, V x) {
  return hn::IfThenElse(hn::IsNaN(x), x, hn::Max(x, hn::Zero(d)));
}

template <class D, class V>
HWY_INLINE V RnnActivate(D d, MLRecurrentNetworkActivation activation, V x) {
  switch (activation) {
    case MLRecurrentNetworkActivation::kRelu: return RnnRelu(d, x);
    case MLRecurrentNetworkActivation::kSigmoid: return RnnSigmoid(d, x);
    case MLRecurrentNetworkActivation::kTanh: return RnnTanh(d, x);
  }
  return x;
}

// Loads/stores of `count` (>= 1) floats: full vectors in the body of a row,
// partial at its end, where lanes past `count` load as 0 and are never stored.
// No memory past `count` is touched: Highway 1.0.3's MaskedLoad reads a whole
// aligned vector where HWY_MEM_OPS_MIGHT_FAULT (SSE4, NEON, emulation) and
// BlendedStore may write the other lanes back, so those go through a buffer.
template <class D>
HWY_INLINE hn::Vec<D> RnnLoad(D d, const float* p, size_t count) {
  if (HWY_LIKELY(count >= hn::Lanes(d))) return hn::LoadU(d, p);
#if HWY_MEM_OPS_MIGHT_FAULT
  HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)] = {};
  std::memcpy(buf, p, count * sizeof(float));
  return hn::Load(d, buf);
#else
  return hn::MaskedLoad(hn::FirstN(d, count), d, p);
#endif
}

template <class D>
HWY_INLINE void RnnStore(D d, hn::Vec<D> v, float* p, size_t count) {
  if (HWY_LIKELY(count >= hn::Lanes(d))) return hn::StoreU(v, d, p);
#if HWY_MEM_OPS_MIGHT_FAULT
  HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, d, buf);
  std::memcpy(p, buf, count * sizeof(float));
#else
  hn::BlendedStore(v, hn::FirstN(d, count), d, p);
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#endif  // WEBNN_OPS_CPU_GEMM_RNN_INL_H_
