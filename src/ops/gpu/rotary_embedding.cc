// gpu kernel of rotaryEmbedding (src/ops/rotary_embedding.h):
// shaders/rotary_embedding.comp. x is a list of rows of D elements; a row's
// tables are found by walking x's leading dimensions as loops with the
// tables' strides (0 where they broadcast), size-1 dimensions dropped and
// neighbours merged where the strides chain: the [B, H, S] rows of [1, 1, S,
// h] tables are two loops, B * H of stride 0 and S of stride h. Rows are
// split over dispatches where x exceeds what one binding may span.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/rotary_embedding.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& x = s.inputs[0];
  const std::vector<uint32_t>& table = s.inputs[1].shape;
  if (x.elements() == 0) return {};
  const uint32_t d = x.shape.back(), h = d / 2;
  const uint64_t rows = Count32(x.elements()) / d;
  // The tables' element stride per dimension of x's (right-aligned; 0 where
  // a table dimension is 1 or missing).
  const size_t rank = x.shape.size(), lead = rank - table.size();
  std::vector<uint64_t> stride(rank, 0);
  for (size_t i = rank, st = 1; i-- > lead;) {
    stride[i] = table[i - lead] == 1 ? 0 : st;
    st *= table[i - lead];
  }
  std::vector<uint32_t> loop_size, loop_stride;
  for (size_t i = 0; i + 1 < rank; ++i) {
    const uint32_t n = x.shape[i];
    if (n == 1) continue;
    if (!loop_size.empty() && loop_stride.back() == stride[i] * n) {
      loop_size.back() *= n;
      loop_stride.back() = static_cast<uint32_t>(stride[i]);
      continue;
    }
    loop_size.push_back(n);
    loop_stride.push_back(static_cast<uint32_t>(stride[i]));
  }

  GpuDispatch base;
  base.shader = core::StrCat("rotary_embedding.", TypeSuffix(x.type));
  base.params = {0, h, table.back() == d ? h : 0u, 0, static_cast<uint32_t>(loop_size.size())};
  for (size_t i = 0; i + 1 < core::kMaxRank; ++i) base.params.push_back(i < loop_size.size() ? loop_size[i] : 1);
  for (size_t i = 0; i + 1 < core::kMaxRank; ++i) base.params.push_back(i < loop_stride.size() ? loop_stride[i] : 0);
  // x and the output split by rows; the tables stay whole (they broadcast
  // over rows, and are rarely as large as x).
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / (uint64_t{d} * ByteLengthFor(x.type, 1)), 1);
  GpuPlan plan;
  for (uint64_t first = 0; first < rows; first += chunk) {
    const uint64_t count = std::min(chunk, rows - first);
    GpuDispatch part = base;
    part.bindings = {GpuBinding::Input(0).Range(first * d, count * d), GpuBinding::Input(1), GpuBinding::Input(2),
                     GpuBinding::Output(0).Range(first * d, count * d)};
    part.params[0] = Count32(count * h);
    part.params[3] = static_cast<uint32_t>(first);
    part.groups = GridFor(count * h);
    plan.dispatches.push_back(std::move(part));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_rotary_embedding() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
