// gpu kernel of triangular: shaders/triangular.comp.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/strided_copy.h"
#include "ops/triangular.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& a = AttrsAs<TriangularAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  const size_t rank = in.shape.size();
  const uint64_t total = in.elements();
  // Tensors larger than one binding may span (128 MiB on lavapipe) run in
  // pieces; 4 KiB of slack covers the binding's alignment.
  const uint32_t bits = ElementBits(in.type);
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / (bits / 8), 1);
  GpuPlan plan;
  for (uint64_t first = 0; first < total; first += chunk) {
    const uint32_t n = Count32(std::min(chunk, total - first));
    GpuDispatch d;
    d.shader = core::StrCat("triangular.b", bits);
    d.bindings = {GpuBinding::Input(0).Range(first, n), GpuBinding::Output(0).Range(first, n)};
    d.params = {n, in.shape[rank - 2], in.shape[rank - 1], a.upper ? 1u : 0u, static_cast<uint32_t>(a.diagonal),
                static_cast<uint32_t>(first)};
    d.groups = GridFor(n);
    plan.dispatches.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_triangular() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
