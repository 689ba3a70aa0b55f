// Reference kernels of add, sub, mul, div, max, min, pow.
//
// Floats: float64 arithmetic, one rounding at the store. Integers: exact 64-bit
// arithmetic with two's-complement wrap at the store; division truncates toward
// zero; x / 0 is 0 and INT_MIN / -1 wraps (the spec leaves both undefined; this
// never traps). Integer pow is repeated multiplication with wrap; a negative
// exponent gives 1/x^n truncated toward zero.
#include <cmath>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

template <typename T>
T IntPow(T base, T exponent) {
  if constexpr (std::is_signed_v<T>) {
    if (exponent < 0) {
      // 1 / base^|e|: nonzero only for base 1 or -1.
      if (base == 1) return 1;
      if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  T result = 1;
  uint64_t e = static_cast<uint64_t>(exponent);
  T b = base;
  while (e) {
    if (e & 1) result = WrapMul(result, b);
    b = WrapMul(b, b);
    e >>= 1;
  }
  return result;
}

template <typename T>
T Apply(OpKind op, T a, T b) {
  switch (op) {
    case OpKind::add: return WrapAdd(a, b);
    case OpKind::sub: return WrapSub(a, b);
    case OpKind::mul: return WrapMul(a, b);
    case OpKind::div:
      if constexpr (std::is_same_v<T, double>) {
        return a / b;
      } else {
        if (b == 0) return 0;
        if constexpr (std::is_signed_v<T>) {
          if (b == -1) return WrapNeg(a);  // INT64_MIN / -1 would trap
        }
        return a / b;
      }
    case OpKind::max:
      if constexpr (std::is_same_v<T, double>) {
        if (std::isnan(a) || std::isnan(b)) return std::nan("");
      }
      return a > b ? a : b;
    case OpKind::min:
      if constexpr (std::is_same_v<T, double>) {
        if (std::isnan(a) || std::isnan(b)) return std::nan("");
      }
      return a < b ? a : b;
    case OpKind::pow:
      if constexpr (std::is_same_v<T, double>) return std::pow(a, b);
      else return IntPow(a, b);
    default: throw std::logic_error("not a binary op");
  }
}

}  // namespace

void RunElementwiseBinary(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const auto a_strides = BroadcastStrides(a.shape, out.shape);
  const auto b_strides = BroadcastStrides(b.shape, out.shape);
  VisitDomain(out.type, [&]<typename T>() {
    uint64_t i = 0;
    ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
      const T x = Load<T>(a, Offset(idx, a_strides));
      const T y = Load<T>(b, Offset(idx, b_strides));
      Store<T>(out, i++, Apply<T>(ctx.op, x, y));
    });
  });
}

}  // namespace webnn::ops::ref
