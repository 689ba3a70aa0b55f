// Reference kernels of elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear,
// relu, sigmoid, softplus, softsign, tanh and clamp.
//
// Floats: the exact function evaluated in float64, rounded once at the store.
// The scalar options are first cast to the input's data type, as the spec's
// method steps do (alpha = 0.1 on float16 input is the float16 nearest 0.1).
// At +-Infinity each function takes its limit, not whatever its emulation
// formula gives (softsign(Inf) = 1, gelu(-Inf) = -0, hardSwish(-Inf) = -0, and
// a zero coefficient times Inf is 0), so the oracle is the function itself.
// NaN inputs give NaN everywhere.
// Integers (relu, clamp): exact comparisons in 64-bit; nothing can overflow.
#include <cmath>
#include <optional>

#include "ops/activation.h"
#include "ops/number_cast.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

// coefficient * x where a zero coefficient makes the term vanish for every
// non-NaN x: a function like linear(alpha = 0) is constant, also at Inf.
double Scale(double coefficient, double x) {
  if (coefficient == 0 && std::isinf(x)) return 0;
  return coefficient * x;
}

double Gelu(double x) {
  // x * Phi(x) with Phi(x) = erfc(-x / sqrt(2)) / 2: erfc keeps full relative
  // precision for negative x, where 1 + erf(x / sqrt(2)) cancels to 0 in double.
  if (x == -INFINITY) return -0.0;
  return x * 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double HardSwish(double x) {
  if (x <= -3) return -0.0;  // x * 0 with x negative
  if (x >= 3) return x;
  return x * (x + 3) / 6;
}

double Softplus(double x) {
  // log(1 + e^x) without overflow: for x > 0 it is x + log(1 + e^-x).
  if (x > 0) return x + std::log1p(std::exp(-x));
  return std::log1p(std::exp(x));
}

double Softsign(double x) {
  if (std::isinf(x)) return std::copysign(1.0, x);
  return x / (1 + std::fabs(x));
}

// The float activations, with alpha/beta already cast to the input data type.
struct FloatActivation {
  OpKind op;
  double alpha;
  double beta;

  double operator()(double x) const {
    switch (op) {
      case OpKind::elu: return x > 0 ? x : alpha * std::expm1(x);
      case OpKind::gelu: return Gelu(x);
      case OpKind::hardSigmoid: {
        const double y = Scale(alpha, x) + beta;
        if (std::isnan(y)) return y;
        return std::fmin(std::fmax(y, 0.0), 1.0);
      }
      case OpKind::hardSwish: return HardSwish(x);
      case OpKind::leakyRelu: return x >= 0 ? x : Scale(alpha, x);
      case OpKind::linear: return Scale(alpha, x) + beta;
      case OpKind::relu: return x < 0 ? 0.0 : x;
      case OpKind::sigmoid: return 1 / (1 + std::exp(-x));
      case OpKind::softplus: return Softplus(x);
      case OpKind::softsign: return Softsign(x);
      case OpKind::tanh: return std::tanh(x);
      default: throw std::logic_error("not a float activation");
    }
  }
};

template <typename T>
bool IsNaN(T v) {
  if constexpr (std::is_same_v<T, double>) return std::isnan(v);
  else return false;
}

// A clamp bound cast to the input type; absent (and, for floats, NaN) bounds
// do not clamp (WPT: "minValue as NaN" leaves the input unchanged).
template <typename T>
std::optional<T> ClampBound(const std::optional<MLNumber>& bound, DataType type) {
  if (!bound) return std::nullopt;
  const T v = CastMLNumber(*bound, type).As<T>();
  if (IsNaN(v)) return std::nullopt;
  return v;
}

void RunClamp(const ActivationAttrs& attrs, const TensorView& in, const TensorView& out) {
  VisitDomain(in.type, [&]<typename T>() {
    const std::optional<T> lo = ClampBound<T>(attrs.minValue, in.type);
    const std::optional<T> hi = ClampBound<T>(attrs.maxValue, in.type);
    const uint64_t n = out.elements();
    for (uint64_t i = 0; i < n; ++i) {
      T x = Load<T>(in, i);
      if (!IsNaN(x)) {
        if (lo && x < *lo) x = *lo;
        if (hi && x > *hi) x = *hi;
      }
      Store<T>(out, i, x);
    }
  });
}

void RunIntegerRelu(const TensorView& in, const TensorView& out) {
  VisitDomain(in.type, [&]<typename T>() {
    const uint64_t n = out.elements();
    for (uint64_t i = 0; i < n; ++i) {
      const T x = Load<T>(in, i);
      Store<T>(out, i, x < T{0} ? T{0} : x);
    }
  });
}

}  // namespace

void RunActivation(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ActivationAttrs>(ctx.attrs);
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  if (ctx.op == OpKind::clamp) return RunClamp(attrs, in, out);
  if (!IsFloatingPoint(in.type)) return RunIntegerRelu(in, out);  // only relu accepts integers

  const FloatActivation f{ctx.op, CastMLNumber(MLNumber(attrs.alpha), in.type).f,
                          CastMLNumber(MLNumber(attrs.beta), in.type).f};
  const uint64_t n = out.elements();
  for (uint64_t i = 0; i < n; ++i) Store<double>(out, i, f(Load<double>(in, i)));
}

}  // namespace webnn::ops::ref
