// cpu kernels of gemm: alpha * A' x B' + beta * C on the GEMM core (gemm.h).
//
// A' = A or A^T is read in place (the core packs A panels from either layout);
// B' = B or B^T is packed once at compile time when B is a constant, per
// dispatch otherwise. alpha scales the product in registers. C that varies
// only along N (shapes [N], [1, N], [1], [], ...) becomes the epilogue's bias
// vector beta * c; any other C is first written to the output as beta * C and
// the product accumulated onto it. alpha and beta are cast to the operand type
// first, as the spec (and the reference) do.
// float16: operands widened to float32, one rounding at the end.
#include <algorithm>
#include <memory>
#include <vector>

#include "ops/cpu/activation.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/gemm.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/gemm.h"
#include "ops/number_cast.h"

namespace webnn::ops::cpu {
namespace {

struct GemmPrepared {
  PackedB b;
};

// out = alpha * A' x B' + beta * C, all float32. `c` is null when absent.
void GemmOpF32(const GemmAttrs& attrs, size_t m, size_t n, size_t k, const float* a, const float* b,
               const PackedB* packed, const float* c, const std::vector<uint32_t>& c_shape, float alpha, float beta,
               float* out, core::ParallelFor& parallel) {
  GemmOptions options;
  options.a_transposed = attrs.aTranspose;
  options.alpha = alpha;
  GemmEpilogue epilogue;
  // Right-aligned to [M, N]: C's extent along M and N (1 when broadcast).
  const size_t rank = c_shape.size();
  const size_t cm = rank >= 2 ? c_shape[rank - 2] : 1;
  const size_t cn = rank >= 1 ? c_shape[rank - 1] : 1;
  const memory::Scratch<float> bias(c != nullptr && cm == 1 ? n : 0, "gemm: beta * C as a bias");
  if (c != nullptr) {
    if (cm == 1) {
      for (size_t j = 0; j < n; ++j) bias[j] = beta * c[cn == 1 ? 0 : j];
      epilogue.bias = bias.data();
    } else {
      parallel.Run(m, std::max<size_t>(1, 32768 / n), [&](size_t i0, size_t i1) {
        for (size_t i = i0; i < i1; ++i)
          for (size_t j = 0; j < n; ++j) out[i * n + j] = beta * c[i * cn + (cn == 1 ? 0 : j)];
      });
      options.accumulate = true;
    }
  }
  const size_t lda = attrs.aTranspose ? m : k;
  if (packed) {
    GemmF32(m, n, k, a, lda, *packed, out, n, epilogue, options, parallel);
  } else {
    const size_t ldb = attrs.bTranspose ? k : n;
    GemmF32(m, n, k, a, lda, b, ldb, attrs.bTranspose, out, n, epilogue, options, parallel);
  }
  // A fused activation runs over the finished [M, N] block: one extra pass
  // over the output against K passes of compute.
  ApplyFusedActivation(attrs.activation, out, m * n, parallel);
}

void RunGemm(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<GemmAttrs>(ctx.attrs);
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView* c = OptionalInput(ctx.inputs, 2);
  const TensorView& out = ctx.outputs[0];
  const size_t m = out.shape[0], n = out.shape[1];
  const size_t k = attrs.aTranspose ? a.shape[0] : a.shape[1];
  const float alpha = static_cast<float>(CastMLNumber(MLNumber(attrs.alpha), out.type).f);
  const float beta = static_cast<float>(CastMLNumber(MLNumber(attrs.beta), out.type).f);
  const auto* prepared = static_cast<const GemmPrepared*>(ctx.prepared);
  const PackedB* packed = prepared ? &prepared->b : nullptr;
  const std::vector<uint32_t> no_shape;
  if (out.type == DataType::kFloat32) {
    GemmOpF32(attrs, m, n, k, a.as<float>(), b.as<float>(), packed, c ? c->as<float>() : nullptr,
              c ? c->shape : no_shape, alpha, beta, out.as<float>(), ctx.parallel);
    return;
  }
  const F32Input a32(&a, ctx.parallel), b32(packed ? nullptr : &b, ctx.parallel), c32(c, ctx.parallel);
  const memory::Scratch<float> out32(m * n, "gemm: float32 output");
  GemmOpF32(attrs, m, n, k, a32.get(), b32.get(), packed, c32.get(), c ? c->shape : no_shape, alpha, beta,
            out32.data(), ctx.parallel);
  ConvertF32ToF16(out32.data(), out.as<uint16_t>(), out32.size(), ctx.parallel);
}

std::shared_ptr<const void> PrepareGemm(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<GemmAttrs>(ctx.attrs);
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const size_t m = out.shape[0];
  const size_t k = attrs.bTranspose ? b.shape[1] : b.shape[0];
  const size_t n = attrs.bTranspose ? b.shape[0] : b.shape[1];
  // RunGemm's workspace: beta * C as a bias (a C not constant has no data
  // here: counted if there is a third input at all), float16 as float32.
  memory::WorkspaceSize& ws = ctx.workspace;
  if (ctx.inputs.size() > 2) ws.AddShared<float>(n);
  if (out.type == DataType::kFloat16) {
    AddF32InputWorkspace(ws, &a);
    if (!b.present()) AddF32InputWorkspace(ws, &b);
    if (ctx.inputs.size() > 2) AddF32InputWorkspace(ws, &ctx.inputs[2]);
    ws.AddShared<float>(m * n);
  }
  AddGemmWorkspace(ws, m, n, k, b.present(), attrs.bTranspose, /*in_body=*/false);
  if (!b.present()) return nullptr;
  auto prepared = std::make_shared<GemmPrepared>();
  core::SerialFor serial;
  if (b.type == DataType::kFloat32) prepared->b = PackB(b.as<float>(), k, n, b.shape[1], attrs.bTranspose);
  else prepared->b = PackBF16(b.as<uint16_t>(), k, n, b.shape[1], attrs.bTranspose, serial);
  ctx.prepared_bytes += prepared->b.bytes();
  ctx.packed_inputs |= 1u << 1;  // RunGemm reads B's shape only
  return prepared;
}

}  // namespace

void RegisterGemmKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    registry.Add(CpuKernel{op, &RunGemm, &PrepareGemm, {s, s, s}, {s}});
  }
}

}  // namespace webnn::ops::cpu
