// gpu kernel of quantizedMatmul (src/ops/quantized_matmul.h). The constant
// weight, scale and zero point are read as they are and each weight is
// dequantized in registers (shaders/quantized.glsl). Two shaders:
// - quantized_matvec.comp for few rows of A (decode) and a [K, N] weight:
//   32-bit words of codes, K split over the threads of a workgroup, and over
//   workgroups too where N is narrow (then a combine dispatch adds the
//   partial sums);
// - quantized_matmul.comp for everything else.
// The gated form (SwiGLU) binds the up projection's three operands where the
// plain one binds its bias: a, W, scale, zero point, output and the up weight,
// scale and zero point are exactly the 8 bindings there are, so it is one
// dispatch too (plus the combine). Where A or the output exceeds what one
// binding may span, quantized_matmul.comp splits the rows of A over several
// dispatches; the weight and its parameters stay whole.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/strings.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/quantized_matmul.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint64_t kTile = 64;  // output tile of a workgroup (quantized_matmul.comp)
// quantized_matvec.comp: the rows of A it takes (kRows at a time, each pass
// reading the weight again, from cache) and its columns per workgroup (8
// words of codes).
constexpr uint64_t kMatvecMaxRows = 16;
constexpr uint32_t kMatvecWords = 8;
// Both shaders split K over workgroups where they would otherwise have fewer
// than a target: about two per multiprocessor of a large GPU, with at least
// kMinSplitK rows of K each. Lavapipe runs a workgroup per CPU thread, so a
// few suffice for the tiled GEMM; it still splits small products there, so
// that CI takes the path (the matvec splits as on a GPU).
constexpr uint32_t kGpuTargetGroups = 256, kMinSplitK = 64;
constexpr uint64_t kCpuTargetGroups = 8, kCpuMinSplitK = 16;

// K splits of `tiles` workgroups over K rows (1: no split).
uint32_t SplitsOfK(uint64_t tiles, uint32_t k, uint64_t target, uint64_t min_rows) {
  return static_cast<uint32_t>(
      std::clamp<uint64_t>((target + tiles - 1) / tiles, 1, std::max<uint64_t>(k / min_rows, 1)));
}

// The combine of K-split partial sums (quantized_matvec.comp -DCOMBINE):
// sums them in split order, then the bias and epilogue, or the SwiGLU.
GpuDispatch CombineSplits(const GpuStepInfo& s, uint64_t rows, uint32_t n, uint32_t splits, uint32_t bias_mode) {
  const auto& attrs = AttrsAs<QuantizedMatmulAttrs>(s.attrs);
  GpuDispatch c;
  c.shader = core::StrCat(attrs.gated ? "quantized_matvec_combine_gated." : "quantized_matvec_combine.",
                          TypeSuffix(s.inputs[0].type));
  c.params = {Count32(rows), n, splits, bias_mode};
  AddEpilogue(c, attrs.activation, s.inputs[0].type);
  const bool has_bias = !attrs.gated && s.has_input(4);
  c.bindings = {GpuBinding::Scratch(0), has_bias ? GpuBinding::Input(4) : GpuBinding::Scratch(0),
                GpuBinding::Output(0)};
  c.groups = GridFor(rows * n);
  return c;
}

bool Packed(DataType t) { return t == DataType::kInt4 || t == DataType::kUint4; }

// Both shaders' bindings: A, the weight, scale and zero point, the destination
// (output or partial sums), then the up projection's three (gated) or the
// bias (bound to A when absent).
std::vector<GpuBinding> ProductBindings(const GpuStepInfo& s, GpuBinding a, GpuBinding destination) {
  std::vector<GpuBinding> b{a, GpuBinding::Input(1), GpuBinding::Input(2), GpuBinding::Input(3), destination};
  if (AttrsAs<QuantizedMatmulAttrs>(s.attrs).gated) {
    b.insert(b.end(), {GpuBinding::Input(5), GpuBinding::Input(6), GpuBinding::Input(7)});
  } else {
    b.push_back(s.InputOrFirst(4));
  }
  return b;
}

// Bytes of the float32 partial sums of `splits` splits of K (gated: the
// gate's and the up projection's).
uint64_t PartialBytes(const GpuStepInfo& s, uint32_t splits, uint64_t rows, uint32_t n) {
  return uint64_t{splits} * rows * n * 4 * (AttrsAs<QuantizedMatmulAttrs>(s.attrs).gated ? 2 : 1);
}

// quantized_matmul.comp's grid: 64 x 64 output tiles (the shader loops over
// what exceeds the grid's limits), z the splits of K.
std::array<uint32_t, 3> TileGrid(uint32_t n, uint64_t rows, uint32_t splits) {
  return {static_cast<uint32_t>(std::min<uint64_t>((n + kTile - 1) / kTile, 65535)),
          static_cast<uint32_t>(std::min<uint64_t>((rows + kTile - 1) / kTile, 65535)), splits};
}

// quantized_matvec.comp's plan, or an empty one where it does not apply.
GpuPlan PlanMatvec(const GpuStepInfo& s, uint32_t k, uint32_t n, uint64_t rows, const std::vector<uint32_t>& params) {
  const auto& attrs = AttrsAs<QuantizedMatmulAttrs>(s.attrs);
  const GpuOperand& a = s.inputs[0];
  const uint32_t codes = Packed(s.inputs[1].type) ? 8 : 4;  // per 32-bit word
  if (attrs.weight_transposed || rows > kMatvecMaxRows || n % codes != 0) return {};
  const uint32_t cols = kMatvecWords * codes;
  const uint32_t tiles = (n + cols - 1) / cols;
  const uint32_t splits = SplitsOfK(tiles, k, kGpuTargetGroups, kMinSplitK);
  const uint32_t k_per_split = (k + splits - 1) / splits;
  const std::string types = core::StrCat(TypeSuffix(a.type), ".", TypeSuffix(s.inputs[1].type));
  GpuPlan plan;
  GpuDispatch d;
  d.shader = core::StrCat(attrs.gated ? "quantized_matvec_gated." : "quantized_matvec.", types);
  // quantized_matmul.comp's words without the weight's stride along N (1).
  d.params = {Count32(rows), n, k, params[3], params[5], params[6], params[7], params[8], params[9], params[10],
              splits, k_per_split};
  d.bindings = ProductBindings(s, GpuBinding::Input(0), splits > 1 ? GpuBinding::Scratch(0) : GpuBinding::Output(0));
  d.groups = {tiles, splits, 1};
  if (splits == 1) {
    AddEpilogue(d, attrs.activation, a.type);
    plan.dispatches.push_back(std::move(d));
    return plan;
  }
  AddEpilogue(d, std::nullopt, a.type);  // applied by the combine
  plan.dispatches.push_back(std::move(d));
  plan.scratch_bytes = {PartialBytes(s, splits, rows, n)};
  plan.dispatches.push_back(CombineSplits(s, rows, n, splits, params[10]));
  return plan;
}

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

  const std::vector<uint32_t> params = {0, n, k, w_ks, w_ns, scale_k, scale_k ? k / scale_k : 0, n / scale_n,
                                       s_ks, s_ns, bias_mode};
  if (GpuPlan plan = PlanMatvec(s, k, n, rows, params); !plan.dispatches.empty()) return plan;

  GpuDispatch base;
  base.shader = core::StrCat(attrs.gated ? "quantized_matmul_gated." : "quantized_matmul.", TypeSuffix(a.type), ".",
                             TypeSuffix(weight.type));
  base.params = params;
  AddEpilogue(base, attrs.activation, out.type);
  // Rows per dispatch: A's and the output's rows within one binding (4 KiB of
  // slack for its alignment).
  const uint64_t row_bytes = uint64_t{std::max(k, n)} * ByteLengthFor(a.type, 1);
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / std::max<uint64_t>(row_bytes, 1), 1);
  GpuPlan plan;
  // Few tiles: K split over workgroups (grid z), where one dispatch takes
  // every row (then one combine covers them) and the partials fit a binding.
  const uint64_t tiles = (uint64_t{n} + kTile - 1) / kTile * ((rows + kTile - 1) / kTile);
  uint32_t splits = s.cpu_implementation ? SplitsOfK(tiles, k, kCpuTargetGroups, kCpuMinSplitK)
                                         : SplitsOfK(tiles, k, kGpuTargetGroups, kMinSplitK);
  if (rows > chunk || PartialBytes(s, splits, rows, n) > s.max_binding_bytes) splits = 1;
  // Whole steps of 16 rows of K (quantized_matmul.comp's kStepK) per split.
  const uint32_t k_per_split = splits > 1 ? ((k + splits - 1) / splits + 15) / 16 * 16 : k;
  if (splits > 1) splits = (k + k_per_split - 1) / k_per_split;
  base.params.push_back(splits);
  base.params.push_back(k_per_split);
  if (splits > 1) {
    GpuDispatch d;
    d.shader = base.shader;
    d.params = params;
    AddEpilogue(d, std::nullopt, out.type);  // the combine applies it
    d.params.insert(d.params.end(), {splits, k_per_split});
    d.params[0] = Count32(rows);
    d.bindings = ProductBindings(s, GpuBinding::Input(0), GpuBinding::Scratch(0));
    d.groups = TileGrid(n, rows, splits);
    plan.scratch_bytes = {PartialBytes(s, splits, rows, n)};
    plan.dispatches.push_back(std::move(d));
    plan.dispatches.push_back(CombineSplits(s, rows, n, splits, bias_mode));
    return plan;
  }
  for (uint64_t first = 0; first < rows; first += chunk) {
    const uint64_t count = std::min(chunk, rows - first);
    GpuDispatch d = base;
    d.bindings = ProductBindings(s, GpuBinding::Input(0).Range(first * k, count * k),
                                 GpuBinding::Output(0).Range(first * n, count * n));
    d.params[0] = Count32(count);
    d.groups = TileGrid(n, count, 1);
    plan.dispatches.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_quantized_matmul() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
