// cpu kernels of matmul: a stack of [M, K] x [K, N] products whose batch
// dimensions broadcast, on the GEMM core (gemm.h).
//
// float32: B constant -> its matrices are packed once at compile time
// (prepare); otherwise packed per dispatch (M = 1: a GEMV straight from B).
// When B is one matrix shared by every batch and A's batches are contiguous,
// the batches fold into M: one [batch * M, K] x [K, N] product keeps every
// thread busy and B packed once. Batches of small products run one per
// thread instead of splitting each product.
// float16: operands widened to float32 (exact), the float32 path, one
// rounding to float16 at the end (WPT tolerance is K * 2 ULP).
#include <algorithm>
#include <memory>
#include <vector>

#include "ops/cpu/float16.h"
#include "ops/cpu/fused_epilogue.h"
#include "ops/cpu/gemm.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/matmul.h"

namespace webnn::ops::cpu {
namespace {

// Packed B matrices, one per batch matrix of B.
struct MatmulPrepared {
  std::vector<PackedB> b;
};

// Matrix index into an operand for each output batch (numpy broadcasting of
// the batch dimensions, right-aligned).
std::vector<size_t> BatchIndices(const std::vector<uint32_t>& out_batch, const std::vector<uint32_t>& shape) {
  const size_t rank = shape.size() - 2;
  std::vector<size_t> strides(out_batch.size(), 0);
  size_t stride = 1;
  for (size_t i = 0; i < rank; ++i) {
    const size_t d = rank - 1 - i;                   // operand dim
    const size_t o = out_batch.size() - 1 - i;       // output dim
    strides[o] = shape[d] == 1 ? 0 : stride;
    stride *= shape[d];
  }
  size_t count = 1;
  for (uint32_t d : out_batch) count *= d;
  std::vector<size_t> index(count);
  std::vector<uint32_t> idx(out_batch.size(), 0);
  for (size_t i = 0; i < count; ++i) {
    size_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides[d];
    index[i] = off;
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < out_batch[d]) break;
      idx[d] = 0;
    }
  }
  return index;
}

size_t MatrixCount(const std::vector<uint32_t>& shape) {
  size_t count = 1;
  for (size_t i = 0; i + 2 < shape.size(); ++i) count *= shape[i];
  return count;
}

struct MatmulPlan {
  size_t m, n, k;
  std::vector<size_t> a_index, b_index;  // per output matrix
  MatmulPlan(const TensorView& a, const TensorView& b, const TensorView& out) {
    const uint32_t rank = out.rank();
    m = out.shape[rank - 2];
    n = out.shape[rank - 1];
    k = a.shape[a.rank() - 1];
    const std::vector<uint32_t> out_batch(out.shape.begin(), out.shape.end() - 2);
    a_index = BatchIndices(out_batch, a.shape);
    b_index = BatchIndices(out_batch, b.shape);
  }
};

// How MatmulF32 runs the products: when B is one matrix shared by every
// batch and A's batches are contiguous, folded into one [batch * M, K] x
// [K, N] product; below ~4 MFLOP per product, one product per thread; else
// one after another, each split over the threads.
enum class MatmulRun { kFolded, kOnePerThread, kOneAfterAnother };
MatmulRun HowToRun(const MatmulPlan& plan) {
  const size_t batches = plan.a_index.size();
  bool shared_b = true, contiguous_a = true;
  for (size_t i = 0; i < batches; ++i) {
    shared_b &= plan.b_index[i] == plan.b_index[0];
    contiguous_a &= plan.a_index[i] == i;
  }
  if (shared_b && contiguous_a) return MatmulRun::kFolded;
  return batches > 1 && 2.0 * plan.m * plan.n * plan.k < 4e6 ? MatmulRun::kOnePerThread : MatmulRun::kOneAfterAnother;
}

// The float32 product for every output matrix. `b` is the unpacked B, used
// when `prepared` is null.
void MatmulF32(const MatmulPlan& plan, const float* a, const float* b, const MatmulPrepared* prepared,
               const GemmEpilogue& epilogue, float* out, core::ParallelFor& parallel) {
  const size_t m = plan.m, n = plan.n, k = plan.k;
  const size_t batches = plan.a_index.size();
  const MatmulRun how = HowToRun(plan);
  const GemmOptions plain;
  auto product = [&](size_t rows, const float* pa, size_t bi, float* pc, core::ParallelFor& par) {
    if (prepared) GemmF32(rows, n, k, pa, k, prepared->b[bi], pc, n, epilogue, plain, par);
    else GemmF32(rows, n, k, pa, k, b + bi * k * n, n, false, pc, n, epilogue, plain, par);
  };
  if (how == MatmulRun::kFolded) return product(batches * m, a, plan.b_index[0], out, parallel);
  if (how == MatmulRun::kOnePerThread) {
    const size_t grain = std::max<size_t>(1, static_cast<size_t>(1e6 / (2.0 * m * n * k + 1)));
    parallel.Run(batches, grain, [&](size_t i0, size_t i1) {
      core::SerialFor serial;
      for (size_t i = i0; i < i1; ++i)
        product(m, a + plan.a_index[i] * m * k, plan.b_index[i], out + i * m * n, serial);
    });
    return;
  }
  for (size_t i = 0; i < batches; ++i)
    product(m, a + plan.a_index[i] * m * k, plan.b_index[i], out + i * m * n, parallel);
}

void RunMatmul(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const MatmulPlan plan(a, b, out);
  const FusedEpilogue fusion(OptionalInput(ctx.inputs, 2), AttrsAs<MatmulAttrs>(ctx.attrs).activation, plan.n,
                            ctx.parallel);
  const auto* prepared = static_cast<const MatmulPrepared*>(ctx.prepared);
  if (out.type == DataType::kFloat32) {
    MatmulF32(plan, a.as<float>(), b.as<float>(), prepared, fusion.epilogue(), out.as<float>(), ctx.parallel);
    fusion.ApplyRest(out.as<float>(), out.elements(), ctx.parallel);
    return;
  }
  const F32Input a32(&a, ctx.parallel), b32(prepared ? nullptr : &b, ctx.parallel);
  const memory::Scratch<float> out32(out.elements(), "matmul: float32 output");
  MatmulF32(plan, a32.get(), b32.get(), prepared, fusion.epilogue(), out32.data(), ctx.parallel);
  fusion.ApplyRest(out32.data(), out32.size(), ctx.parallel);
  ConvertF32ToF16(out32.data(), out.as<uint16_t>(), out32.size(), ctx.parallel);
}

// What RunMatmul takes from the workspace, at the maximum shapes.
memory::WorkspaceSize MatmulWorkspace(const PrepareContext& ctx, bool b_packed) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const MatmulPlan plan(a, b, out);
  memory::WorkspaceSize ws;
  AddFusedEpilogueWorkspace(ws, ctx.inputs.size() > 2 ? &ctx.inputs[2] : nullptr, plan.n);
  if (out.type == DataType::kFloat16) {
    AddF32InputWorkspace(ws, &a);
    if (!b_packed) AddF32InputWorkspace(ws, &b);
    ws.AddShared<float>(out.elements());
  }
  // MatmulF32 runs one folded product, or products one per thread, or one
  // after another: the one these shapes take (static shapes), else room for
  // the largest.
  const size_t batches = plan.a_index.size();
  const MatmulRun how = HowToRun(plan);
  memory::WorkspaceSize folded, per_thread, each;
  if (!ctx.static_shapes || how == MatmulRun::kFolded)
    AddGemmWorkspace(folded, batches * plan.m, plan.n, plan.k, b_packed, false, /*in_body=*/false);
  if (!ctx.static_shapes || how == MatmulRun::kOnePerThread)
    AddGemmWorkspace(per_thread, plan.m, plan.n, plan.k, b_packed, false, /*in_body=*/true);
  if (!ctx.static_shapes || how == MatmulRun::kOneAfterAnother)
    AddGemmWorkspace(each, plan.m, plan.n, plan.k, b_packed, false, /*in_body=*/false);
  folded.Max(per_thread);
  folded.Max(each);
  ws.shared += folded.shared;
  ws.per_worker += folded.per_worker;
  return ws;
}

// Packs a constant B (every batch matrix) when the graph is compiled.
std::shared_ptr<const void> PrepareMatmul(const PrepareContext& ctx) {
  const TensorView& b = ctx.inputs[1];
  ctx.workspace = MatmulWorkspace(ctx, b.present());
  if (!b.present()) return nullptr;
  const size_t k = b.shape[b.rank() - 2], n = b.shape[b.rank() - 1];
  const size_t count = MatrixCount(b.shape);
  auto prepared = std::make_shared<MatmulPrepared>();
  prepared->b.reserve(count);
  core::SerialFor serial;
  for (size_t i = 0; i < count; ++i) {
    if (b.type == DataType::kFloat32) prepared->b.push_back(PackB(b.as<float>() + i * k * n, k, n, n, false));
    else prepared->b.push_back(PackBF16(b.as<uint16_t>() + i * k * n, k, n, n, false, serial));
  }
  for (const PackedB& p : prepared->b) ctx.prepared_bytes += p.bytes();
  ctx.packed_inputs |= 1u << 1;  // RunMatmul reads B's shape only
  return prepared;
}

}  // namespace

void RegisterMatmulKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    registry.Add(CpuKernel{op, &RunMatmul, &PrepareMatmul, {s, s}, {s}});
  }
}

}  // namespace webnn::ops::cpu
