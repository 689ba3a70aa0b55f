// gpu kernel of elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, relu,
// sigmoid, softplus, softsign, tanh, clamp: the variants of
// shaders/elementwise_unary.comp (listed in elementwise_unary.variants), which
// share the math of shaders/unary_math.glsl.
#include <optional>

#include "core/strings.h"
#include "ops/activation.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/number_cast.h"

namespace webnn::ops::gpu {
namespace {

// An integer clamp bound cast to the input type as two words; false when absent.
bool PushIntegerBound(std::vector<uint32_t>& params, const std::optional<MLNumber>& bound, DataType type) {
  if (!bound) {
    params.insert(params.end(), {0, 0});
    return false;
  }
  const CastValue v = CastMLNumber(*bound, type);
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
  const uint32_t code = UnaryOpCode(s.op);
  d.constants = {code};
  if (IsFloatingPoint(type)) {
    const UnaryFloatArgs a = FloatArgs(s.op, attrs, type);
    d.params = {n, code, a.alpha, a.beta, a.lo, 0, a.hi, 0, a.has_bounds};
  } else {
    d.params = {n, code, 0, 0};
    uint32_t has = 0;
    if (s.op == OpKind::clamp) {
      if (PushIntegerBound(d.params, attrs.minValue, type)) has |= 1;
      if (PushIntegerBound(d.params, attrs.maxValue, type)) has |= 2;
    } else {
      d.params.insert(d.params.end(), {0, 0, 0, 0});
    }
    d.params.push_back(has);
  }
  d.groups = GridFor(n);
  return SplitElementwise(d, n, ByteLengthFor(type, 1), s.max_binding_bytes);
}

}  // namespace

GpuKernelEntry GpuKernel_activation() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
