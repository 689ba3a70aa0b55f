// gpu kernels of batchNormalization (shaders/normalization_batch.comp) and of
// instanceNormalization and layerNormalization (shaders/normalization.comp).
// The latter two normalize a window of the input (the reduced axes) for every
// index of the other axes (a "row"); scale and bias are indexed by strides
// over the same axes, so one shader serves both.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/normalization.h"
#include "ops/number_cast.h"

namespace webnn::ops::gpu {
namespace {

// epsilon cast to the input's type first, as the spec (and the reference) do.
uint32_t Epsilon(double epsilon, DataType type) {
  return FloatBits(static_cast<float>(CastMLNumber(MLNumber(epsilon), type).f));
}

// Loops over one group of axes: input and scale/bias strides per loop, size-1
// axes dropped, neighbours merged where both strides chain.
struct Dims {
  std::vector<uint32_t> size, stride, param_stride;
  void Add(uint32_t n, uint32_t s, uint32_t ps, bool adjacent) {
    if (n == 1) return;
    if (adjacent && !size.empty() && stride.back() == static_cast<uint64_t>(s) * n &&
        param_stride.back() == static_cast<uint64_t>(ps) * n) {
      size.back() *= n;
      stride.back() = s;
      param_stride.back() = ps;
      return;
    }
    size.push_back(n);
    stride.push_back(s);
    param_stride.push_back(ps);
  }
  void Push(std::vector<uint32_t>& params) const {
    params.push_back(static_cast<uint32_t>(size.size()));
    for (size_t i = 0; i < core::kMaxRank; ++i) params.push_back(i < size.size() ? size[i] : 1);
    for (size_t i = 0; i < core::kMaxRank; ++i) params.push_back(i < size.size() ? stride[i] : 0);
    for (size_t i = 0; i < core::kMaxRank; ++i) params.push_back(i < size.size() ? param_stride[i] : 0);
  }
};

uint32_t Present(const GpuStepInfo& s, size_t i) { return s.has_input(i) ? 1u : 0u; }

GpuPlan PlanBatch(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<BatchNormalizationAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  uint64_t inner = 1;
  for (size_t d = attrs.axis + 1; d < in.shape.size(); ++d) inner *= in.shape[d];
  const uint32_t n = Count32(in.elements());
  GpuDispatch d;
  d.shader = core::StrCat("normalization_batch.", TypeSuffix(in.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Input(2), s.InputOrFirst(3), s.InputOrFirst(4),
                GpuBinding::Output(0)};
  d.params = {n, in.shape[attrs.axis], static_cast<uint32_t>(inner), Present(s, 3) | Present(s, 4) << 1,
              Epsilon(attrs.epsilon, in.type)};
  d.groups = GridFor(n);
  return {{d}, {}};
}

GpuPlan PlanOverAxes(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const uint32_t rank = static_cast<uint32_t>(in.shape.size());
  // Per input axis: reduced or kept, and its scale/bias stride.
  std::vector<bool> reduced(rank, false);
  std::vector<uint32_t> param_stride(rank, 0);
  double epsilon;
  if (s.op == OpKind::instanceNormalization) {
    const auto& attrs = AttrsAs<InstanceNormalizationAttrs>(s.attrs);
    const bool nchw = attrs.layout == MLInputOperandLayout::kNchw;
    for (uint32_t a : nchw ? std::array<uint32_t, 2>{2, 3} : std::array<uint32_t, 2>{1, 2}) reduced[a] = true;
    param_stride[nchw ? 1 : 3] = 1;
    epsilon = attrs.epsilon;
  } else {
    const auto& attrs = AttrsAs<LayerNormalizationAttrs>(s.attrs);
    const std::vector<uint32_t> axes = LayerNormalizationAxes(attrs, rank);
    // scale/bias dimension i is input axis axes[i].
    uint32_t st = 1;
    for (size_t i = axes.size(); i-- > 0;) {
      reduced[axes[i]] = true;
      param_stride[axes[i]] = st;
      st *= in.shape[axes[i]];
    }
    epsilon = attrs.epsilon;
  }
  Count32(in.elements());
  Dims kept, window;
  int last = -1;
  std::vector<uint32_t> strides(rank);
  for (uint32_t i = rank, st = 1; i-- > 0;) {
    strides[i] = st;
    st *= in.shape[i];
  }
  for (uint32_t i = 0; i < rank; ++i) {
    const int group = reduced[i] ? 1 : 0;
    (reduced[i] ? window : kept).Add(in.shape[i], strides[i], param_stride[i], last == group);
    if (in.shape[i] != 1) last = group;
  }
  uint64_t rows = 1, count = 1;
  for (uint32_t n : kept.size) rows *= n;
  for (uint32_t n : window.size) count *= n;
  const bool contiguous = !window.size.empty() && window.stride.back() == 1;
  // As the reductions: a workgroup per row for long windows with a contiguous
  // innermost loop (or too few rows to fill the device), else a thread per row.
  const bool workgroup_per_row = count >= 64 && (contiguous || rows < 2048);
  GpuDispatch d;
  d.shader = core::StrCat("normalization.", TypeSuffix(in.type));
  d.bindings = {GpuBinding::Input(0), s.InputOrFirst(1), s.InputOrFirst(2), GpuBinding::Output(0)};
  d.params = {Count32(rows), Count32(count), workgroup_per_row ? 1u : 0u, Present(s, 1) | Present(s, 2) << 1,
              Epsilon(epsilon, in.type)};
  kept.Push(d.params);
  window.Push(d.params);
  d.groups = workgroup_per_row ? std::array<uint32_t, 3>{static_cast<uint32_t>(std::min<uint64_t>(rows, 65535)), 1, 1}
                               : GridFor(rows);
  return {{d}, {}};
}

GpuPlan Plan(const GpuStepInfo& s) {
  return s.op == OpKind::batchNormalization ? PlanBatch(s) : PlanOverAxes(s);
}

}  // namespace

GpuKernelEntry GpuKernel_normalization() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
