// What the fusion passes (src/graph/passes.h) moved into a GEMM-based cpu
// kernel (matmul, quantizedMatmul): a bias along N (an optional input, [N] or
// one value, any float type) and an activation. relu and clamp clamp in the
// GEMM epilogue (GemmEpilogue), other activations run over the finished
// output (ApplyRest).
#pragma once

#include <optional>

#include "memory/workspace.h"
#include "ops/activation.h"
#include "ops/cpu/gemm.h"
#include "ops/kernel.h"

namespace webnn::ops::cpu {

class FusedEpilogue {
 public:
  // `bias` null when absent; `n` the output's last dimension.
  FusedEpilogue(const TensorView* bias, const std::optional<FusedActivation>& activation, size_t n,
                core::ParallelFor& parallel);
  const GemmEpilogue& epilogue() const { return epilogue_; }
  // The activation's part not done in the epilogue, over the whole output.
  void ApplyRest(float* out, size_t count, core::ParallelFor& parallel) const;

 private:
  memory::Scratch<float> bias_;
  GemmEpilogue epilogue_;
  const std::optional<FusedActivation>& activation_;
};

// The workspace FusedEpilogue takes for a bias input `bias` (null: none).
void AddFusedEpilogueWorkspace(memory::WorkspaceSize& workspace, const TensorView* bias, size_t n);

}  // namespace webnn::ops::cpu
