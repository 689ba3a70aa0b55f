#include "ops/cpu/fused_epilogue.h"

#include "ops/cpu/activation.h"
#include "ops/cpu/float16.h"

namespace webnn::ops::cpu {

FusedEpilogue::FusedEpilogue(const TensorView* bias, const std::optional<FusedActivation>& activation, size_t n,
                             core::ParallelFor& parallel)
    : bias_(bias ? n : 0, "fused bias along N"), activation_(activation) {
  if (bias) {
    const F32Input values(bias, parallel);
    for (size_t j = 0; j < n; ++j) bias_[j] = values.get()[bias->elements() == n ? j : 0];
    epilogue_.bias = bias_.data();
  }
  if (!activation) return;
  const ActivationF32 act = MakeActivationF32(activation->op, activation->attrs);
  if (act.op == OpKind::relu) epilogue_.min = 0;
  if (act.op == OpKind::clamp) {
    epilogue_.min = act.min_value;
    epilogue_.max = act.max_value;
  }
}

void FusedEpilogue::ApplyRest(float* out, size_t count, core::ParallelFor& parallel) const {
  if (activation_) ApplyFusedActivation(activation_, out, count, parallel, /*skip_clamps=*/true);
}

void AddFusedEpilogueWorkspace(memory::WorkspaceSize& workspace, const TensorView* bias, size_t n) {
  if (!bias) return;  // (a bias that is not constant has no data here: counted either way)
  workspace.AddShared<float>(n);
  AddF32InputWorkspace(workspace, bias);
}

}  // namespace webnn::ops::cpu
