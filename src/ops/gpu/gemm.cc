// gpu kernel of gemm: alpha * A' x B' + beta * C on the matrix product of the
// matmul family (product.h: matmul.comp, or matmul_vec.comp for few rows). Transposes become element
// strides; C broadcasts to [M, N] through strides of 0. alpha and beta are
// first cast to the operand type, as the reference does.

#include "ops/gemm.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/product.h"
#include "ops/number_cast.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<GemmAttrs>(s.attrs);
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const bool has_c = s.has_input(2);
  const uint32_t m = out.shape[0], n = out.shape[1];
  const uint32_t k = attrs.aTranspose ? a.shape[0] : a.shape[1];
  const float alpha = static_cast<float>(CastMLNumber(MLNumber(attrs.alpha), out.type).f);
  const float beta = static_cast<float>(CastMLNumber(MLNumber(attrs.beta), out.type).f);
  // A is [M, K] (or [K, M] transposed), B is [K, N] (or [N, K]).
  const uint32_t a_rs = attrs.aTranspose ? 1 : k, a_cs = attrs.aTranspose ? m : 1;
  const uint32_t b_rs = attrs.bTranspose ? 1 : n, b_cs = attrs.bTranspose ? k : 1;
  // C right-aligned to [M, N]; stride 0 along a dimension of extent 1 or absent.
  uint32_t c_rs = 0, c_cs = 0;
  if (has_c) {
    const std::vector<uint32_t>& cs = s.inputs[2].shape;
    const uint32_t cm = cs.size() >= 2 ? cs[cs.size() - 2] : 1;
    const uint32_t cn = cs.size() >= 1 ? cs[cs.size() - 1] : 1;
    c_cs = cn == 1 ? 0 : 1;
    c_rs = cm == 1 ? 0 : cn;
  }

  GpuDispatch d;
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0), GpuBinding::Input(has_c ? 2 : 0)};
  d.params = {m, n, k, a_rs, a_cs, b_rs, b_cs, FloatBits(alpha), FloatBits(beta), has_c ? 1u : 0u, c_rs, c_cs, 1, 0};
  for (int i = 0; i < 6; ++i) d.params.push_back(1);
  for (int i = 0; i < 12; ++i) d.params.push_back(0);
  AddEpilogue(d, attrs.activation, out.type);
  SetProductShader(d, s, m, n, 1, out.type, a_cs == 1 && b_cs == 1);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_gemm() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
