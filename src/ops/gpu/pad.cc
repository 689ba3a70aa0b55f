// gpu kernel of pad (constant, edge, reflection): shaders/pad.comp.
#include <algorithm>
#include <cstring>

#include "core/strings.h"
#include "ops/gpu/strided_copy.h"
#include "ops/number_cast.h"
#include "ops/pad.h"

namespace webnn::ops::gpu {


namespace {

uint32_t ModeCode(MLPaddingMode mode) {
  switch (mode) {
    case MLPaddingMode::kConstant: return 0;
    case MLPaddingMode::kEdge: return 1;
    case MLPaddingMode::kReflection: return 2;
  }
  return 0;
}

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& a = AttrsAs<PadAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  // The constant as the reference writes it: the spec's MLNumber cast to the input type.
  std::byte constant[8] = {};
  WriteCastValue(CastMLNumber(a.value, in.type), in.type, constant);
  uint32_t words[2];
  std::memcpy(words, constant, sizeof words);

  const std::vector<int64_t> strides = ContiguousStrides(in.shape);
  std::vector<uint32_t> params(38, 0);
  params[1] = static_cast<uint32_t>(out.shape.size());
  params[2] = ModeCode(a.mode);
  params[3] = words[0];
  params[4] = words[1];
  for (size_t i = 0; i < out.shape.size(); ++i) {
    params[5 + i] = out.shape[i];
    params[13 + i] = in.shape[i];
    params[21 + i] = static_cast<uint32_t>(strides[i]);
    params[29 + i] = a.beginningPadding[i];
  }
  // Outputs larger than one binding may span (128 MiB on lavapipe) are
  // written in pieces; 4 KiB of slack covers the binding's alignment. The
  // input is bound whole.
  const uint32_t bits = ElementBits(in.type);
  const uint64_t total = out.elements();
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / (bits / 8), 1);
  GpuPlan plan;
  for (uint64_t first = 0; first < total; first += chunk) {
    const uint32_t n = Count32(std::min(chunk, total - first));
    GpuDispatch d;
    d.shader = core::StrCat("pad.b", bits);
    d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0).Range(first, n)};
    d.params = params;
    d.params[0] = n;
    d.params[37] = static_cast<uint32_t>(first);
    d.groups = GridFor(n);
    plan.dispatches.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_pad() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
