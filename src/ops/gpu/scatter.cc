// gpu kernel of scatterElements and scatterND: three passes of
// shaders/scatter.comp (copy + clear, claim, write), so that the last of
// repeated indices wins as in the reference device.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/strided_copy.h"
#include "ops/scatter.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& indices = s.inputs[1];
  const GpuOperand& updates = s.inputs[2];
  const GpuOperand& out = s.outputs[0];
  const uint32_t n_out = Count32(out.elements());
  const std::vector<int64_t> strides = ContiguousStrides(out.shape);

  // Words after P(5), and the thread counts of passes 1 and 2.
  std::vector<uint32_t> tail;
  uint32_t targets = 0, units = 0;
  const uint32_t n_updates = Count32(updates.elements());
  if (s.op == OpKind::scatterElements) {
    const uint32_t axis = AttrsAs<ScatterAttrs>(s.attrs).axis;
    targets = n_out;
    units = Count32(indices.elements());
    tail.assign(19, 0);
    tail[0] = static_cast<uint32_t>(indices.shape.size());
    for (size_t i = 0; i < indices.shape.size(); ++i) {
      tail[1 + i] = indices.shape[i];
      tail[9 + i] = static_cast<uint32_t>(strides[i]);
    }
    tail[17] = axis;
    tail[18] = out.shape[axis];
  } else {
    const uint32_t k = indices.shape.back();
    uint64_t slice = 1;
    for (size_t d = k; d < out.shape.size(); ++d) slice *= out.shape[d];
    uint64_t t = 1;
    for (uint32_t d = 0; d < k; ++d) t *= out.shape[d];
    targets = Count32(t);
    units = Count32(indices.elements() / k);
    tail.assign(18, 0);
    tail[0] = k;
    tail[1] = Count32(slice);
    // Target j (a slice) of coordinates c is sum(c[d] * target_strides[d]) over the first k axes.
    uint64_t stride = 1;
    for (uint32_t d = k; d-- > 0;) {
      tail[2 + d] = out.shape[d];
      tail[10 + d] = static_cast<uint32_t>(stride);
      stride *= out.shape[d];
    }
  }
  if (units == UINT32_MAX) throw NotSupportedError("gpu device: scatter of 2^32 - 1 updates");

  GpuPlan plan;
  plan.scratch_bytes = {uint64_t{targets} * 4};
  const uint32_t counts[3] = {std::max(n_out, targets), units, n_updates};
  for (uint32_t pass = 0; pass < 3; ++pass) {
    GpuDispatch d;
    d.shader = core::StrCat("scatter.b", ElementBits(in.type));
    d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Input(2), GpuBinding::Output(0),
                  GpuBinding::Scratch(0)};
    d.params = {pass, s.op == OpKind::scatterElements ? 0u : 1u, IndexKind(indices.type), counts[pass], n_out,
                targets};
    d.params.insert(d.params.end(), tail.begin(), tail.end());
    d.groups = GridFor(counts[pass]);
    plan.dispatches.push_back(std::move(d));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_scatter() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
