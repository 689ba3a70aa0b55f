// gpu kernel of matmul: shaders/matmul.comp (the tiled product it shares with
// gemm), or shaders/matmul_vec.comp when A has few rows, with alpha 1, A and B
// row-major and the batch dimensions broadcast through per-batch matrix
// strides. Both shaders take the same parameters.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/product.h"
#include "ops/matmul.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint32_t kMaxBatchRank = 6;  // rank <= 8, minus the two matrix dimensions

// Up to this M, matmul_vec.comp. On lavapipe (2 cores; [M, 4096] x [4096,
// 4096] float32, process CPU time) it beats the 64x64 tile by 18x at M = 1
// (~47 ms vs ~850 ms), 2.6x at M = 16 (~370 ms vs ~980 ms) and breaks even at
// M = 32. On a GPU a product with M <= 16 is still bound by reading B
// (float32: 2 * 16 flops per 4 bytes of B, below the ~18 flops per byte of an
// H100's FMA rate over its bandwidth).
constexpr uint32_t kVecMaxRows = 16;

// Matrix strides (in elements) of an operand's batch dimensions, right-aligned
// to the output's batch dimensions; 0 where broadcast.
void PushMatrixStrides(std::vector<uint32_t>& params, const std::vector<uint32_t>& shape, size_t out_batch_rank) {
  const size_t rank = shape.size() - 2;
  std::vector<uint32_t> strides(kMaxBatchRank, 0);
  uint64_t stride = uint64_t{shape[rank]} * shape[rank + 1];
  for (size_t i = rank; i-- > 0;) {
    const size_t o = out_batch_rank - rank + i;
    strides[o] = shape[i] == 1 ? 0 : Count32(stride);
    stride *= shape[i];
  }
  params.insert(params.end(), strides.begin(), strides.end());
}

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& b = s.inputs[1];
  const GpuOperand& out = s.outputs[0];
  const bool has_bias = s.has_input(2);
  const size_t rank = out.shape.size();
  const uint32_t m = out.shape[rank - 2], n = out.shape[rank - 1], k = a.shape[a.shape.size() - 1];
  const size_t batch_rank = rank - 2;
  uint64_t batches = 1;
  for (size_t i = 0; i < batch_rank; ++i) batches *= out.shape[i];

  GpuDispatch d;
  // A fused bias (the fusion pass's third input, [N] or one value) is C with beta 1.
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0),
                GpuBinding::Input(has_bias ? 2 : 0)};
  const uint32_t bias_cs = has_bias && s.inputs[2].elements() == n && n != 1 ? 1u : 0u;
  d.params = {m, n, k, k, 1, n, 1, FloatBits(1.0f), FloatBits(1.0f), has_bias ? 1u : 0u, 0, bias_cs,
              Count32(batches), static_cast<uint32_t>(batch_rank)};
  for (size_t i = 0; i < kMaxBatchRank; ++i) d.params.push_back(i < batch_rank ? out.shape[i] : 1);
  PushMatrixStrides(d.params, a.shape, batch_rank);
  PushMatrixStrides(d.params, b.shape, batch_rank);
  AddEpilogue(d, AttrsAs<MatmulAttrs>(s.attrs).activation, out.type);
  SetProductShader(d, s, m, n, batches, out.type, true);
  return {{d}, {}};
}

}  // namespace

void SetProductShader(GpuDispatch& d, const GpuStepInfo& step, uint32_t m, uint32_t n, uint64_t batches,
                      DataType type, bool rows_contiguous) {
  const uint32_t batch_groups = static_cast<uint32_t>(std::min<uint64_t>(batches, 65535));
  if (m > kVecMaxRows && type == DataType::kFloat16 && rows_contiguous && step.coopmat_f16) {
    d.shader = "matmul_coopmat.f16";
    d.groups = {std::min<uint32_t>((n + 127) / 128, 65535), std::min<uint32_t>((m + 127) / 128, 65535), batch_groups};
    return;
  }
  if (m > kVecMaxRows) {
    // 64x128 tiles (4 x 8 per thread) where there are at least kWideTiles
    // of them, else 64x64 (4 x 4). On an H100 the wide tile ran a 4096^3
    // float32 product at 50 % of the FMA probe against 44 %, but a 128 x
    // 4096 one (64 wide tiles for 132 multiprocessors) 40 % slower.
    constexpr uint64_t kWideTiles = 256;
    const bool wide = uint64_t{(n + 127) / 128} * ((m + 63) / 64) * batches >= kWideTiles;
    const uint32_t tile_n = wide ? 128 : 64;
    d.shader = core::StrCat(wide ? "matmul_wide." : "matmul.", TypeSuffix(type));
    d.groups = {std::min<uint32_t>((n + tile_n - 1) / tile_n, 65535), std::min<uint32_t>((m + 63) / 64, 65535),
                batch_groups};
    return;
  }
  // kRows: all of M in one pass (M rounded up to a power of two: few
  // pipelines). kWords: more words per thread and row of B cost less per
  // element on lavapipe (M = 1: 4, 8, 16 words ~110, ~60, ~47 ms); with
  // more rows, 32 float4 accumulators (kRows * kWords for float32) ran as
  // fast as more. A GPU needs the workgroups instead: on an H100 16 words
  // left [1, 4096] x [4096, 4096] with 8 workgroups for 132 multiprocessors
  // (229 GB/s of ~2.6 TB/s), so there the words shrink (to 1) until there
  // are kGpuGroups strips, and for one row of A the lanes of a slice too (8
  // to 4): 1 word and 8 lanes still left 64 (float16) or 128 (float32)
  // workgroups, 1.63 and 1.96 TB/s; 4 lanes gave 2.15 and 2.14 TB/s, 82 % and
  // 81 % of the copy probe (2026-11-28). With 16 rows of A, 4 lanes were
  // slower in float32 (0.30 against 0.23 ms), and on lavapipe at M = 1 too
  // (30 against 25 ms), so neither changes.
  constexpr uint64_t kGpuGroups = 256;
  uint32_t rows = 1;
  while (rows < m) rows *= 2;
  uint32_t words = std::clamp<uint32_t>(32 / rows, 4, 16);
  uint32_t lanes = 8;
  const uint32_t word_elements = type == DataType::kFloat16 ? 8 : 4;
  auto strips = [&](uint32_t w) { return (n + lanes * w * word_elements - 1) / (lanes * w * word_elements); };
  if (!step.cpu_implementation) {
    while (words > 1 && uint64_t{strips(words)} * batches < kGpuGroups) words /= 2;
    if (rows == 1)
      while (lanes > 4 && uint64_t{strips(words)} * batches < kGpuGroups) lanes /= 2;
  }
  d.shader = core::StrCat("matmul_vec.", TypeSuffix(type));
  d.constants.resize(2);  // 0 and 1: the epilogue's (AddEpilogue)
  d.constants.insert(d.constants.end(), {rows, words, lanes});
  d.groups = {std::min<uint32_t>(strips(words), 65535), (m + rows - 1) / rows, batch_groups};
}

GpuKernelEntry GpuKernel_matmul() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
