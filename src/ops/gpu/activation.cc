// gpu kernel of elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, relu,
// sigmoid, softplus, softsign, tanh, clamp: the variants of
// shaders/elementwise_unary.comp (listed in elementwise_unary.variants), which
// hold the unary ops' exp/erf routines these share.
#include <cmath>
#include <optional>

#include "core/strings.h"
#include "ops/activation.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/number_cast.h"

namespace webnn::ops::gpu {
namespace {

// The shader's op codes.
uint32_t OpCode(OpKind op) {
  switch (op) {
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
    default: throw NotSupportedError(core::StrCat("gpu activation: no op code for ", OpName(op)));
  }
}

// A scalar attribute cast to the input's float type (the spec's method steps;
// alpha = 0.1 on float16 input is the float16 nearest 0.1), as float bits.
uint32_t FloatAttr(double v, DataType type) { return FloatBits(static_cast<float>(CastMLNumber(MLNumber(v), type).f)); }

// A clamp bound cast to the input type as two words; false when it does not
// clamp (absent, or NaN after the cast).
bool PushBound(std::vector<uint32_t>& params, const std::optional<MLNumber>& bound, DataType type) {
  if (!bound) {
    params.insert(params.end(), {0, 0});
    return false;
  }
  const CastValue v = CastMLNumber(*bound, type);
  if (IsFloatingPoint(type)) {
    params.insert(params.end(), {FloatBits(static_cast<float>(v.f)), 0});
    return !std::isnan(v.f);
  }
  PushU64(params, IsSignedInteger(type) ? static_cast<uint64_t>(v.i) : v.u);
  return true;
}

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<ActivationAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const DataType type = in.type;
  if (!IsFloatingPoint(type) && s.op != OpKind::relu && s.op != OpKind::clamp)
    throw NotSupportedError(core::StrCat("gpu device: ", OpName(s.op), " has no ", ToString(type), " kernel"));
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.shader = core::StrCat("elementwise_unary.", TypeSuffix(type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {n, OpCode(s.op), 0, 0};
  d.constants = {OpCode(s.op)};
  if (IsFloatingPoint(type)) {
    d.params[2] = FloatAttr(attrs.alpha, type);
    d.params[3] = FloatAttr(attrs.beta, type);
  }
  uint32_t has = 0;
  if (s.op == OpKind::clamp) {
    if (PushBound(d.params, attrs.minValue, type)) has |= 1;
    if (PushBound(d.params, attrs.maxValue, type)) has |= 2;
  } else {
    d.params.insert(d.params.end(), {0, 0, 0, 0});
  }
  d.params.push_back(has);
  d.groups = GridFor(n);
  return SplitElementwise(d, n, ByteLengthFor(type, 1), s.max_binding_bytes);
}

}  // namespace

GpuKernelEntry GpuKernel_activation() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
