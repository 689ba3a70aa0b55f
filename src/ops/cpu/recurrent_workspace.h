// The workspace declaration shared by the recurrent kernels (gru.cc, lstm.cc).
#pragma once

#include "memory/workspace.h"
#include "ops/cpu/float16.h"
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {

// Float16 operands (all but the weights, slots 1 and 2, which are packed)
// widened and outputs computed in float32, then the directions, one per
// thread or one after the other: `add_direction(ws, in_body)` declares one.
template <typename AddDirection>
void AddRecurrentWorkspace(const PrepareContext& ctx, AddDirection add_direction) {
  memory::WorkspaceSize& ws = ctx.workspace;
  for (size_t i = 0; i < ctx.inputs.size(); ++i)
    if (i != 1 && i != 2) AddF32InputWorkspace(ws, &ctx.inputs[i]);
  if (ctx.inputs[0].type == DataType::kFloat16)
    for (const TensorView& out : ctx.outputs) ws.AddShared<float>(out.elements());
  memory::WorkspaceSize in_body, alone;
  add_direction(in_body, true);
  add_direction(alone, false);
  in_body.Max(alone);
  ws.shared += in_body.shared;
  ws.per_worker += in_body.per_worker;
}

}  // namespace webnn::ops::cpu
