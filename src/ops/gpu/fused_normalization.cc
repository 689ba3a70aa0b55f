// gpu kernel of fusedNormalization (src/ops/fused_normalization.h):
// shaders/fused_normalization.comp, the node's form (residual, sum output,
// scale, bias, RMSNorm, as_written) as a specialization constant. Each row
// (the trailing window) is normalized by a workgroup when it is long enough
// to keep 256 invocations busy, as the builtin normalizations do, else by one
// invocation. Rows are split over dispatches where the input exceeds what one
// binding may span; scale and bias (one row) stay whole.
#include <algorithm>

#include "core/strings.h"
#include "ops/fused_normalization.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<FusedNormalizationAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  uint64_t n = 1;
  for (size_t a = in.shape.size() - attrs.axes; a < in.shape.size(); ++a) n *= in.shape[a];
  const uint64_t rows = n == 0 ? 0 : Count32(in.elements()) / n;
  if (rows == 0) return {};
  const bool residual = s.has_input(1), workgroup_per_row = n >= 64;
  // The moments' float pairs carry epsilon (a double) to ~2^-44 as well.
  const float eps_hi = static_cast<float>(attrs.epsilon);
  const float eps_lo = static_cast<float>(attrs.epsilon - static_cast<double>(eps_hi));

  GpuDispatch base;
  base.shader = core::StrCat("fused_normalization.", TypeSuffix(in.type));
  base.params = {0, static_cast<uint32_t>(n), workgroup_per_row ? 1u : 0u, FloatBits(eps_hi), FloatBits(eps_lo)};
  base.constants = {(residual ? 1u : 0u) | (attrs.sum_output ? 2u : 0u) | (s.has_input(2) ? 4u : 0u) |
                    (s.has_input(3) ? 8u : 0u) | (attrs.rms ? 16u : 0u) | (attrs.as_written ? 32u : 0u)};
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / (n * ByteLengthFor(in.type, 1)), 1);
  GpuPlan plan;
  for (uint64_t first = 0; first < rows; first += chunk) {
    const uint64_t count = std::min(chunk, rows - first);
    auto rows_of = [&](GpuBinding b) { return b.Range(first * n, count * n); };
    // Absent operands bind the input's rows (the shader ignores them).
    const GpuBinding x = rows_of(GpuBinding::Input(0));
    auto window = [&](size_t i) { return s.has_input(i) ? GpuBinding::Input(static_cast<uint32_t>(i)) : x; };
    GpuDispatch part = base;
    part.bindings = {x,
                     residual ? rows_of(GpuBinding::Input(1)) : x,
                     window(2),
                     window(3),
                     rows_of(GpuBinding::Output(0)),
                     rows_of(GpuBinding::Output(attrs.sum_output ? 1 : 0))};
    part.params[0] = static_cast<uint32_t>(count);
    part.groups = GridFor(count, workgroup_per_row ? 1 : 256);  // a workgroup or an invocation per row
    plan.dispatches.push_back(std::move(part));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_fused_normalization() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
