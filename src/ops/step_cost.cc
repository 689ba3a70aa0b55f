#include "ops/step_cost.h"

#include "core/shape.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/gemm.h"
#include "ops/quantized_matmul.h"
#include "ops/schema.h"

namespace webnn::ops {

StepCost CostOf(const Program& program, const ProgramStep& step, std::span<const std::vector<uint32_t>> shapes) {
  StepCost c;
  auto elements = [&](int32_t v) { return v < 0 ? 0.0 : static_cast<double>(core::ElementCount(shapes[v])); };
  auto bytes = [&](int32_t v) {
    return v < 0 ? 0.0 : static_cast<double>(ByteLengthFor(program.values[v].desc.type, core::ElementCount(shapes[v])));
  };
  if (IsGather(step.op)) {
    // A gather reads the indices and the elements it gathers (as many as it
    // writes), not its whole input: an embedding lookup of one token reads
    // one row of a 544 MB table.
    c.bytes = bytes(step.inputs.size() > 1 ? step.inputs[1] : -1);
    for (int32_t v : step.outputs) c.bytes += 2 * bytes(v);
    return c;
  }
  for (int32_t v : step.inputs) c.bytes += bytes(v);
  for (int32_t v : step.outputs) c.bytes += bytes(v);
  if (step.inputs.size() < 2 || step.outputs.empty() || step.inputs[0] < 0 || step.inputs[1] < 0) return c;
  const std::vector<uint32_t>& a = shapes[step.inputs[0]];
  const double out = elements(step.outputs[0]);
  switch (step.op) {
    case OpKind::matmul:  // every output element is a dot product along A's last dimension
      if (!a.empty()) c.flops = 2.0 * out * a.back();
      break;
    case OpKind::quantizedMatmul:  // gated: two dot products per output element (gate and up)
      if (!a.empty()) c.flops = (AttrsAs<QuantizedMatmulAttrs>(*step.attrs).gated ? 4.0 : 2.0) * out * a.back();
      break;
    case OpKind::attention: {  // per query row: T scores of D products, then T rows of Dv
      const std::vector<uint32_t>& v = shapes[step.inputs[2]];
      if (a.size() == 4 && v.size() == 4 && a[3]) c.flops = 2.0 * elements(step.inputs[0]) / a[3] * v[2] * (a[3] + v[3]);
      break;
    }
    case OpKind::gemm:
      if (a.size() == 2) c.flops = 2.0 * out * (AttrsAs<GemmAttrs>(*step.attrs).aTranspose ? a[0] : a[1]);
      break;
    case OpKind::conv2d: {
      // Per output element: the filter of its output channel, all of its
      // in-channels-per-group x kh x kw taps.
      const auto& attrs = AttrsAs<Conv2dAttrs>(*step.attrs);
      const std::vector<uint32_t>& o = shapes[step.outputs[0]];
      const uint32_t channels = o.size() == 4 ? o[attrs.inputLayout == MLInputOperandLayout::kNchw ? 1 : 3] : 0;
      if (channels) c.flops = 2.0 * out * elements(step.inputs[1]) / channels;
      break;
    }
    case OpKind::convTranspose2d: {
      // Per input element: every tap of its in-channel's filter slice.
      const auto& attrs = AttrsAs<ConvTranspose2dAttrs>(*step.attrs);
      const uint32_t channels = a.size() == 4 ? a[attrs.inputLayout == MLInputOperandLayout::kNchw ? 1 : 3] : 0;
      if (channels) c.flops = 2.0 * elements(step.inputs[0]) * elements(step.inputs[1]) / channels;
      break;
    }
    default: break;
  }
  return c;
}

}  // namespace webnn::ops
