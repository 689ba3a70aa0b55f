// Reference kernels of abs, ceil, cos, erf, exp, floor, identity, log, neg,
// reciprocal, roundEven, sin, sign, sqrt, tan.
//
// Floats: the libm function in float64, one rounding at the store. Integers
// (abs, neg, sign on int8/int32/int64): exact 64-bit arithmetic with
// two's-complement wrap at the store, so abs(INT_MIN) and neg(INT_MIN) are
// INT_MIN of the type. identity copies the bytes: it must not change a NaN's
// payload, which a trip through float64 would (float16 0x7C01 -> 0x7E01).
#include <cmath>
#include <cstring>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

// Ties to even without depending on the floating-point environment's rounding
// mode (std::nearbyint would). Every step is exact: x - trunc(x) (Sterbenz for
// |x| >= 1, trivial below), x / 2 for a tie (ties are >= 0.5 in magnitude), and
// std::round. Signs survive: -0.4 and -0.5 give -0.
double RoundHalfToEven(double x) {
  if (std::fabs(x - std::trunc(x)) != 0.5) return std::round(x);
  return 2.0 * std::round(x / 2.0);
}

double ApplyFloat(OpKind op, double x) {
  switch (op) {
    case OpKind::abs: return std::fabs(x);
    case OpKind::ceil: return std::ceil(x);
    case OpKind::cos: return std::cos(x);
    case OpKind::erf: return std::erf(x);
    case OpKind::exp: return std::exp(x);
    case OpKind::floor: return std::floor(x);
    case OpKind::log: return std::log(x);
    case OpKind::neg: return -x;
    case OpKind::reciprocal: return 1.0 / x;
    case OpKind::roundEven: return RoundHalfToEven(x);
    case OpKind::sin: return std::sin(x);
    // The spec: 1 if > 0, -1 if < 0, and 0 otherwise (its emulation with
    // greater/lesser/where gives +0 for -0 and for NaN).
    case OpKind::sign: return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
    case OpKind::sqrt: return std::sqrt(x);
    case OpKind::tan: return std::tan(x);
    default: throw std::logic_error("not a float unary op");
  }
}

int64_t ApplySigned(OpKind op, int64_t x) {
  switch (op) {
    case OpKind::abs: return x < 0 ? WrapNeg(x) : x;
    case OpKind::neg: return WrapNeg(x);
    case OpKind::sign: return x > 0 ? 1 : (x < 0 ? -1 : 0);
    default: throw std::logic_error("not an integer unary op");
  }
}

}  // namespace

void RunElementwiseUnary(const KernelContext& ctx) {
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  if (ctx.op == OpKind::identity) {
    if (in.bytes() > 0) std::memcpy(out.data, in.data, in.bytes());
    return;
  }
  const uint64_t n = out.elements();
  if (IsFloatingPoint(in.type)) {
    for (uint64_t i = 0; i < n; ++i) Store<double>(out, i, ApplyFloat(ctx.op, Load<double>(in, i)));
  } else {
    for (uint64_t i = 0; i < n; ++i) Store<int64_t>(out, i, ApplySigned(ctx.op, Load<int64_t>(in, i)));
  }
}

}  // namespace webnn::ops::ref
