// Reference kernels of the reductions.
//
// Each output element reduces the input values of one window: the reduced axes
// vary, the kept axes are fixed. Floats: the window is reduced in float64 and
// rounded once at the store; NaN propagates through max/min; reduceLogSumExp
// subtracts the window maximum before exponentiating so it neither overflows nor
// underflows. Integers: exact 64-bit arithmetic with two's-complement wrap at the
// store (reduceSum of int32 wraps modulo 2^32). An empty axes list makes every
// window a single element, so the reduction is applied element-wise.
#include <cmath>
#include <stdexcept>

#include "ops/reduce.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

template <typename T>
T Abs(T x) {
  if constexpr (std::is_same_v<T, double>) return std::fabs(x);
  else if constexpr (std::is_signed_v<T>) return x < 0 ? WrapNeg(x) : x;
  else return x;
}

template <typename T>
T Sum(const std::vector<T>& values) {
  T sum = 0;
  for (T x : values) sum = WrapAdd(sum, x);
  return sum;
}

template <typename T>
T SumSquare(const std::vector<T>& values) {
  T sum = 0;
  for (T x : values) sum = WrapAdd(sum, WrapMul(x, x));
  return sum;
}

// Max (is_max) or min; NaN wins for floats, as in the max/min operators.
template <typename T>
T Extreme(const std::vector<T>& values, bool is_max) {
  T best = values[0];
  for (T x : values) {
    if constexpr (std::is_same_v<T, double>) {
      if (std::isnan(x)) return x;
    }
    if (is_max ? x > best : x < best) best = x;
  }
  return best;
}

double LogSumExp(const std::vector<double>& values) {
  const double max = Extreme(values, /*is_max=*/true);
  // NaN propagates; a +Inf makes the result +Inf; a window of only -Inf gives
  // log(0) = -Inf. Shifting by an infinite max would turn these into NaN.
  if (std::isnan(max) || std::isinf(max)) return max;
  double sum = 0;
  for (double x : values) sum += std::exp(x - max);
  return max + std::log(sum);
}

template <typename T>
T ReduceWindow(OpKind op, const std::vector<T>& values) {
  switch (op) {
    case OpKind::reduceL1: {
      T sum = 0;
      for (T x : values) sum = WrapAdd(sum, Abs(x));
      return sum;
    }
    case OpKind::reduceMax: return Extreme(values, /*is_max=*/true);
    case OpKind::reduceMin: return Extreme(values, /*is_max=*/false);
    case OpKind::reduceProduct: {
      T product = 1;
      for (T x : values) product = WrapMul(product, x);
      return product;
    }
    case OpKind::reduceSum: return Sum(values);
    case OpKind::reduceSumSquare: return SumSquare(values);
    default: break;
  }
  if constexpr (std::is_same_v<T, double>) {
    switch (op) {
      case OpKind::reduceL2: return std::sqrt(SumSquare(values));
      case OpKind::reduceLogSum: return std::log(Sum(values));
      case OpKind::reduceLogSumExp: return LogSumExp(values);
      case OpKind::reduceMean: return Sum(values) / static_cast<double>(values.size());
      default: break;
    }
  }
  // The schemas allow only float types for the float-only reductions.
  throw std::logic_error("reduce: operation not defined for this data type");
}

}  // namespace

void RunReduce(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ReduceAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint64_t> strides = Strides(input.shape);

  // Kept axes index the output (in order, so the output's row-major order is
  // the order of the windows whether or not keepDimensions keeps 1s); reduced
  // axes index the values within a window.
  std::vector<bool> reduced(input.rank(), false);
  for (uint32_t axis : ResolveReduceAxes(attrs, input.rank())) reduced[axis] = true;
  std::vector<uint32_t> kept_shape, window_shape;
  std::vector<uint64_t> kept_strides, window_strides;
  for (uint32_t i = 0; i < input.rank(); ++i) {
    (reduced[i] ? window_shape : kept_shape).push_back(input.shape[i]);
    (reduced[i] ? window_strides : kept_strides).push_back(strides[i]);
  }

  // The offsets of a window's values relative to its first one: the same for every window.
  std::vector<uint64_t> window_offsets;
  ForEachIndex(window_shape,
               [&](const std::vector<uint32_t>& w) { window_offsets.push_back(Offset(w, window_strides)); });

  VisitDomain(input.type, [&]<typename T>() {
    std::vector<T> window(window_offsets.size());
    uint64_t o = 0;
    ForEachIndex(kept_shape, [&](const std::vector<uint32_t>& kept) {
      const uint64_t base = Offset(kept, kept_strides);
      for (size_t k = 0; k < window_offsets.size(); ++k) window[k] = Load<T>(input, base + window_offsets[k]);
      Store<T>(out, o++, ReduceWindow<T>(ctx.op, window));
    });
  });
}

}  // namespace webnn::ops::ref
