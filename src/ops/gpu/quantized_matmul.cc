// gpu kernel of quantizedMatmul (src/ops/quantized_matmul.h):
// shaders/quantized_matmul.comp, which reads the quantized weight, scale and
// zero point as they are and dequantizes each weight in registers. The gated
// form (SwiGLU) binds the up projection's three operands where the plain one
// binds its bias: a, W, scale, zero point, output and the up weight, scale
// and zero point are exactly the 8 bindings there are, so it is one dispatch
// too. Where A or the output exceeds what one binding may span, the rows of
// A are split over several dispatches; the weight and its parameters stay
// whole.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/quantized_matmul.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint32_t kRows = 4;  // rows of A per invocation (quantized_matmul.comp)

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<QuantizedMatmulAttrs>(s.attrs);
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& weight = s.inputs[1];
  const GpuOperand& scale = s.inputs[2];
  const GpuOperand& out = s.outputs[0];
  if (out.elements() == 0) return {};
  const bool t = attrs.weight_transposed;
  // The weight is [K, N], or [N, K] transposed; its scale blockwise likewise.
  const uint32_t k = weight.shape[t ? 1 : 0], n = weight.shape[t ? 0 : 1];
  const uint32_t scale_k = scale.shape[t ? 1 : 0], scale_n = scale.shape[t ? 0 : 1];
  const uint64_t rows = out.elements() / n;
  const uint32_t w_ks = t ? 1 : n, w_ns = t ? k : 1;
  const uint32_t s_ks = t ? 1 : scale_n, s_ns = t ? scale_k : 1;
  const bool has_bias = !attrs.gated && s.has_input(4);
  const uint32_t bias_mode = !has_bias ? 0 : s.inputs[4].elements() == n && n != 1 ? 2 : 1;

  GpuDispatch base;
  base.shader = core::StrCat(attrs.gated ? "quantized_matmul_gated." : "quantized_matmul.", TypeSuffix(a.type), ".",
                             TypeSuffix(weight.type));
  base.params = {0, n, k, w_ks, w_ns, scale_k, scale_k ? k / scale_k : 0, n / scale_n, s_ks, s_ns, bias_mode};
  AddEpilogue(base, attrs.activation, out.type);
  // Rows per dispatch: A's and the output's rows within one binding (4 KiB of
  // slack for its alignment).
  const uint64_t row_bytes = uint64_t{std::max(k, n)} * ByteLengthFor(a.type, 1);
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / std::max<uint64_t>(row_bytes, 1), 1);
  GpuPlan plan;
  for (uint64_t first = 0; first < rows; first += chunk) {
    const uint64_t count = std::min(chunk, rows - first);
    GpuDispatch d = base;
    d.bindings = {GpuBinding::Input(0).Range(first * k, count * k), GpuBinding::Input(1), GpuBinding::Input(2),
                  GpuBinding::Input(3), GpuBinding::Output(0).Range(first * n, count * n)};
    if (attrs.gated) {
      d.bindings.insert(d.bindings.end(), {GpuBinding::Input(5), GpuBinding::Input(6), GpuBinding::Input(7)});
    } else {
      d.bindings.push_back(s.InputOrFirst(4));
    }
    d.params[0] = Count32(count);
    d.groups = GridFor(Count32((count + kRows - 1) / kRows * n));
    plan.dispatches.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_quantized_matmul() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
