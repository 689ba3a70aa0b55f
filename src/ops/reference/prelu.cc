// Reference kernel of prelu: x >= 0 ? x : slope * x, slope broadcast.
//
// Floats: float64, one rounding at the store; a zero slope gives 0 also for
// x = -Infinity (the function is constant there), and slope does not matter
// for x >= 0 (prelu(1) = 1 even for a NaN slope). Integers: exact 64-bit
// product, two's-complement wrap at the store (int8 -128 * -1 = -128).
#include <cmath>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

template <typename T>
T Prelu(T x, T slope) {
  if (x >= T{0}) return x;  // false for NaN, which then propagates below
  if constexpr (std::is_same_v<T, double>) {
    if (slope == 0 && std::isinf(x)) return 0;
  }
  return WrapMul(slope, x);
}

}  // namespace

void RunPrelu(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& slope = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const auto input_strides = BroadcastStrides(input.shape, out.shape);
  const auto slope_strides = BroadcastStrides(slope.shape, out.shape);
  VisitDomain(out.type, [&]<typename T>() {
    uint64_t i = 0;
    ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
      const T x = Load<T>(input, Offset(idx, input_strides));
      const T s = Load<T>(slope, Offset(idx, slope_strides));
      Store<T>(out, i++, Prelu<T>(x, s));
    });
  });
}

}  // namespace webnn::ops::ref
