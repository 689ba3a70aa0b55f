#include "ops/gpu/elementwise_codes.h"

#include <cmath>

#include "core/strings.h"
#include "ops/number_cast.h"

namespace webnn::ops::gpu {

uint32_t UnaryOpCode(OpKind op) {
  switch (op) {
    case OpKind::abs: return 0;
    case OpKind::ceil: return 1;
    case OpKind::cos: return 2;
    case OpKind::erf: return 3;
    case OpKind::exp: return 4;
    case OpKind::floor: return 5;
    case OpKind::log: return 6;
    case OpKind::neg: return 7;
    case OpKind::reciprocal: return 8;
    case OpKind::roundEven: return 9;
    case OpKind::sin: return 10;
    case OpKind::sign: return 11;
    case OpKind::sqrt: return 12;
    case OpKind::tan: return 13;
    case OpKind::elu: return 20;
    case OpKind::gelu: return 21;
    case OpKind::hardSigmoid: return 22;
    case OpKind::hardSwish: return 23;
    case OpKind::leakyRelu: return 24;
    case OpKind::linear: return 25;
    case OpKind::relu: return 26;
    case OpKind::sigmoid: return 27;
    case OpKind::softplus: return 28;
    case OpKind::softsign: return 29;
    case OpKind::tanh: return 30;
    case OpKind::clamp: return 31;
    default: throw NotSupportedError(core::StrCat("gpu device: ", OpName(op), " is not a unary op of unary_math.glsl"));
  }
}

uint32_t BinaryOpCode(OpKind op) {
  switch (op) {
    case OpKind::add: return 0;
    case OpKind::sub: return 1;
    case OpKind::mul: return 2;
    case OpKind::div: return 3;
    case OpKind::max: return 4;
    case OpKind::min: return 5;
    case OpKind::pow: return 6;
    default: throw NotSupportedError(core::StrCat("gpu device: ", OpName(op), " is not a binary op of binary_math.glsl"));
  }
}

UnaryFloatArgs FloatArgs(OpKind op, const ActivationAttrs& attrs, DataType type) {
  // A scalar attribute cast to the input's float type (alpha = 0.1 on float16
  // input is the float16 nearest 0.1).
  auto cast = [type](double v) { return static_cast<float>(CastMLNumber(MLNumber(v), type).f); };
  UnaryFloatArgs args;
  args.alpha = FloatBits(cast(attrs.alpha));
  args.beta = FloatBits(cast(attrs.beta));
  if (op != OpKind::clamp) return args;
  if (attrs.minValue) {
    const float lo = static_cast<float>(CastMLNumber(*attrs.minValue, type).f);
    args.lo = FloatBits(lo);
    if (!std::isnan(lo)) args.has_bounds |= 1;
  }
  if (attrs.maxValue) {
    const float hi = static_cast<float>(CastMLNumber(*attrs.maxValue, type).f);
    args.hi = FloatBits(hi);
    if (!std::isnan(hi)) args.has_bounds |= 2;
  }
  return args;
}

void AddEpilogue(GpuDispatch& d, const std::optional<FusedActivation>& activation, DataType type) {
  constexpr uint32_t kNoEpilogue = 0xffffffffu;  // epilogue.glsl
  if (!activation) {
    d.constants = {kNoEpilogue, 0};
    d.params.insert(d.params.end(), 7, 0u);
    return;
  }
  const UnaryFloatArgs a = FloatArgs(activation->op, activation->attrs, type);
  // The post affine map is float32 arithmetic on cpu too (ApplyFusedActivation).
  d.constants = {UnaryOpCode(activation->op), activation->HasPostAffine() ? 1u : 0u};
  d.params.insert(d.params.end(), {a.alpha, a.beta, a.has_bounds, a.lo, a.hi,
                                   FloatBits(static_cast<float>(activation->post_scale)),
                                   FloatBits(static_cast<float>(activation->post_shift))});
}

}  // namespace webnn::ops::gpu
