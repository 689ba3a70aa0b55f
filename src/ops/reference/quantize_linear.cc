// Reference kernels of quantizeLinear and dequantizeLinear.
//
// scale and zeroPoint are blockwise broadcast: input element `idx` uses the
// scale element idx[d] / (inputDim[d] / scaleDim[d]) along every dimension d.
// quantizeLinear:   saturate(roundEven(x / scale) + zeroPoint), computed from
//                   the exact quotient (see RoundEvenQuotient); NaN -> 0 and
//                   +-Infinity saturate, as the cast operator does.
// dequantizeLinear: (x - zeroPoint) * scale; the difference is exact in 64-bit,
//                   the product rounds once at the store.
#include <cmath>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

// roundEven(x / s). The float64 quotient of two float32/float16 values can
// round onto a tie k + 0.5 that the exact quotient misses by less than half a
// float64 ulp (large quotients only); the sign of the exact residual
// x - (k + 0.5) * s, which fma computes with one rounding and so keeps,
// decides such a tie.
double RoundEvenQuotient(double x, double s) {
  const double q = x / s;
  const double floor_q = std::floor(q);
  if (!std::isfinite(q) || q - floor_q != 0.5) return std::nearbyint(q);
  const double tie = floor_q + 0.5;
  const double residual = std::fma(-tie, s, x);  // x - tie * s, one rounding
  if (residual == 0) return std::nearbyint(q);   // a true tie: to even
  const bool above = (residual > 0) == (s > 0);   // x / s > tie
  return above ? floor_q + 1 : floor_q;
}

// Row-major offset into the (smaller) scale/zeroPoint tensor of input index `idx`.
uint64_t BlockOffset(const std::vector<uint32_t>& idx, const std::vector<uint32_t>& input_shape,
                     const std::vector<uint32_t>& param_shape) {
  uint64_t offset = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    const uint32_t block = input_shape[d] / param_shape[d];
    offset = offset * param_shape[d] + idx[d] / block;
  }
  return offset;
}

// Integer types hold their values exactly in int64: uint32 at most 2^32 - 1.
int64_t LoadInteger(const TensorView& t, uint64_t i) {
  if (IsSignedInteger(t.type)) return Load<int64_t>(t, i);
  return static_cast<int64_t>(Load<uint64_t>(t, i));
}

}  // namespace

void RunQuantizeLinear(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& scale = ctx.inputs[1];
  const TensorView& zero_point = ctx.inputs[2];
  const TensorView& out = ctx.outputs[0];
  uint64_t i = 0;
  ForEachIndex(input.shape, [&](const std::vector<uint32_t>& idx) {
    const uint64_t p = BlockOffset(idx, input.shape, scale.shape);
    if (ctx.op == OpKind::quantizeLinear) {
      const double x = Load<double>(input, i);
      const double q = RoundEvenQuotient(x, Load<double>(scale, p)) + static_cast<double>(LoadInteger(zero_point, p));
      // Store<double> saturates to the integer type (q is already integral) and maps NaN to 0.
      Store<double>(out, i, q);
    } else {
      const int64_t centered = LoadInteger(input, i) - LoadInteger(zero_point, p);
      Store<double>(out, i, static_cast<double>(centered) * Load<double>(scale, p));
    }
    ++i;
  });
}

}  // namespace webnn::ops::ref
