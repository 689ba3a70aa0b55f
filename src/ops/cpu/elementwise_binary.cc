// cpu kernels of add, sub, mul, div, max, min, pow.
//
// float32 and float16 (computed in float32, stored as float16). Rows from
// BroadcastPlan are processed with full vectors plus one masked tail; each
// row has one of three shapes (vector-vector, vector-scalar, scalar-vector).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/elementwise_binary.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "ops/cpu/broadcast.h"
#include "ops/cpu/kernel_registry.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D, class V>
HWY_INLINE V ApplyBinary(D d, OpKind op, V a, V b) {
  switch (op) {
    case OpKind::add: return hn::Add(a, b);
    case OpKind::sub: return hn::Sub(a, b);
    case OpKind::mul: return hn::Mul(a, b);
    case OpKind::div: return hn::Div(a, b);
    // NaN in either operand gives NaN (IEEE maximum/minimum), as the reference does.
    case OpKind::max: return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), hn::Max(a, b));
    case OpKind::min: return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), hn::Min(a, b));
    case OpKind::pow: {
      // exp(b * log|a|), with the sign and special cases of std::pow handled
      // by the scalar path: vector pow is only used where a > 0.
      return hn::Exp(d, hn::Mul(b, hn::Log(d, a)));
    }
    default: return a;
  }
}

// One row of float32: out[k] = a[k or 0] op b[k or 0].
void BinaryRowF32(OpKind op, const float* a, bool a_vec, const float* b, bool b_vec, float* out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto a_splat = hn::Set(d, a[0]);
  const auto b_splat = hn::Set(d, b[0]);
  size_t k = 0;
  if (op == OpKind::pow) {
    // std::pow semantics (negative bases, zeros, infinities) are awkward to
    // vectorize exactly; the scalar libm call keeps results within 1 ULP.
    for (; k < n; ++k) out[k] = std::pow(a[a_vec ? k : 0], b[b_vec ? k : 0]);
    return;
  }
  for (; k + N <= n; k += N) {
    const auto va = a_vec ? hn::LoadU(d, a + k) : a_splat;
    const auto vb = b_vec ? hn::LoadU(d, b + k) : b_splat;
    hn::StoreU(ApplyBinary(d, op, va, vb), d, out + k);
  }
  if (k < n) {
    const auto mask = hn::FirstN(d, n - k);
    const auto va = a_vec ? hn::MaskedLoad(mask, d, a + k) : a_splat;
    const auto vb = b_vec ? hn::MaskedLoad(mask, d, b + k) : b_splat;
    hn::BlendedStore(ApplyBinary(d, op, va, vb), mask, d, out + k);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(BinaryRowF32);

namespace {

// Rows per parallel chunk: aim for >= 32K elements of work per chunk, below
// which waking a second thread costs more than it saves.
size_t RowGrain(uint64_t inner) { return static_cast<size_t>(std::max<uint64_t>(1, 32768 / std::max<uint64_t>(inner, 1))); }

void RunBinaryF32(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const BroadcastPlan plan(out.shape, {a.shape, b.shape});
  const float* pa = a.as<float>();
  const float* pb = b.as<float>();
  float* po = out.as<float>();
  const uint64_t inner = plan.inner();
  if (plan.rows() == 1) {
    // One long row: split it.
    ctx.parallel.Run(inner, 32768, [&](size_t begin, size_t end) {
      HWY_DYNAMIC_DISPATCH(BinaryRowF32)(ctx.op, pa + (plan.InnerContiguous(0) ? begin : 0), plan.InnerContiguous(0),
                                         pb + (plan.InnerContiguous(1) ? begin : 0), plan.InnerContiguous(1), po + begin,
                                         end - begin);
    });
    return;
  }
  ctx.parallel.Run(plan.rows(), RowGrain(inner), [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r)
      HWY_DYNAMIC_DISPATCH(BinaryRowF32)(ctx.op, pa + plan.RowOffset(0, r), plan.InnerContiguous(0),
                                         pb + plan.RowOffset(1, r), plan.InnerContiguous(1), po + r * inner, inner);
  });
}

}  // namespace

void RegisterElementwiseBinaryKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet f32{DataType::kFloat32};
  registry.Add(CpuKernel{op, &RunBinaryF32, nullptr, {f32, f32}, {f32}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
