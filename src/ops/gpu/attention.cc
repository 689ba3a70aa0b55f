// gpu kernel of attention (src/ops/attention.h): shaders/attention.comp, flash
// attention with a workgroup per query row (grid x, looping past 65535) and,
// where Dv is wider than one workgroup's output elements, a workgroup per
// chunk of them (grid y). Where the query or the output exceeds what one
// binding may span, their rows are split over several dispatches; the key,
// value and mask stay whole.
#include <algorithm>

#include "core/strings.h"
#include "ops/attention.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint32_t kOutputsPerGroup = 64 * 4;  // attention.comp: kWidth threads x kSlots elements

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<AttentionAttrs>(s.attrs);
  const GpuOperand& q = s.inputs[0];
  const GpuOperand& key = s.inputs[1];
  const GpuOperand& value = s.inputs[2];
  const GpuOperand& out = s.outputs[0];
  if (out.elements() == 0) return {};
  const uint32_t hq = q.shape[1], seq = q.shape[2], d = q.shape[3];
  const uint32_t hkv = key.shape[1], t = value.shape[2], dv = value.shape[3];
  const uint64_t rows = uint64_t{q.shape[0]} * hq * seq;
  const bool has_mask = s.has_input(3);

  GpuDispatch base;
  base.shader = core::StrCat("attention.", TypeSuffix(q.type));
  base.params = {0,
                 0,
                 hq,
                 seq,
                 t,
                 d,
                 dv,
                 hq / hkv,
                 attrs.key_transposed ? 1 : d,
                 attrs.key_transposed ? t : 1,
                 FloatBits(attrs.scale),
                 attrs.divide ? 1u : 0u,
                 has_mask ? 1u : 0u};
  // The mask's strides, right-aligned against the scores [B, Hq, S, T]; 0
  // where it broadcasts.
  uint32_t mask_strides[4] = {0, 0, 0, 0};
  if (has_mask) {
    const std::vector<uint32_t>& shape = s.inputs[3].shape;
    uint64_t stride = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      const uint32_t dim = shape[shape.size() - 1 - i];
      mask_strides[3 - i] = dim == 1 ? 0 : Count32(stride);
      stride *= dim;
    }
  }
  base.params.insert(base.params.end(), std::begin(mask_strides), std::end(mask_strides));
  // Rows per dispatch: the query's and the output's within one binding (4 KiB
  // of slack for its alignment).
  const uint64_t row_bytes = uint64_t{std::max(d, dv)} * ByteLengthFor(q.type, 1);
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / std::max<uint64_t>(row_bytes, 1), 1);
  const uint32_t dv_groups = (dv + kOutputsPerGroup - 1) / kOutputsPerGroup;
  GpuPlan plan;
  for (uint64_t first = 0; first < rows; first += chunk) {
    const uint64_t count = std::min(chunk, rows - first);
    GpuDispatch part = base;
    part.bindings = {GpuBinding::Input(0).Range(first * d, count * d), GpuBinding::Input(1), GpuBinding::Input(2),
                     s.InputOrFirst(3), GpuBinding::Output(0).Range(first * dv, count * dv)};
    part.params[0] = Count32(first);
    part.params[1] = Count32(count);
    part.groups = {static_cast<uint32_t>(std::min<uint64_t>(count, 65535)), dv_groups, 1};
    plan.dispatches.push_back(std::move(part));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_attention() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
