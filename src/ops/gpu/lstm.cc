// gpu kernels of lstm and lstmCell: shaders/lstm.comp. lstmCell is lstm with
// one step, one direction and required initial states.
//
// The plan, with the states in float32 scratch (slot 0, see lstm.comp):
//   init         h, c = initialHiddenState, initialCellState or 0
//   per chunk of steps: precompute  xw = W x of every step of the chunk (slot 1),
//                all directions and gate rows in parallel
//   per step:    one dispatch over (direction, batch, hidden unit): the four
//                gates' recurrent dot products, activations and state update
//   final        output0 and output1 from the last states
// The step reads the previous state half only, so the device's barriers
// between the dependent dispatches order the steps.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/recurrent_activation.h"
#include "ops/lstm.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<LstmAttrs>(s.attrs);
  const bool cell = s.op == OpKind::lstmCell;
  const GpuOperand& x = s.inputs[0];
  const std::string_view t = TypeSuffix(x.type);
  const uint32_t steps = cell ? 1 : x.shape[0];
  const uint32_t batch = x.shape[cell ? 0 : 1];
  const uint32_t input_size = x.shape[cell ? 1 : 2];
  const uint32_t hidden = attrs.hiddenSize;
  const uint32_t dirs = !cell && attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const bool backward = !cell && attrs.direction == MLRecurrentNetworkDirection::kBackward;
  const uint32_t rows = 4 * hidden;
  const size_t bias_slot = cell ? 5 : 3, rbias_slot = bias_slot + 1, peephole_slot = bias_slot + 2;
  const size_t h0_slot = cell ? 3 : 6, c0_slot = cell ? 4 : 7;
  const bool sequence = !cell && attrs.returnSequence && s.outputs.size() > 2 && s.outputs[2].present;
  const bool iofg = attrs.layout == MLLstmWeightLayout::kIofg;
  const uint32_t dstate = Count32(uint64_t{dirs} * batch * hidden);

  // xw holds as many steps as one binding spans (all of them unless huge).
  const uint64_t step_bytes = uint64_t{dirs} * batch * rows * 4;
  const uint32_t chunk = static_cast<uint32_t>(
      std::clamp<uint64_t>((s.max_binding_bytes - 4096) / std::max<uint64_t>(step_bytes, 1), 1, steps));

  GpuPlan plan;
  plan.scratch_bytes = {uint64_t{dstate} * 4 * 4, chunk * step_bytes};

  GpuDispatch init;
  init.shader = core::StrCat("lstm_init.", t);
  init.bindings = {s.InputOrFirst(h0_slot), s.InputOrFirst(c0_slot), GpuBinding::Scratch(0)};
  init.params = {dstate, (s.has_input(h0_slot) ? 1u : 0u) | (s.has_input(c0_slot) ? 2u : 0u)};
  init.groups = GridFor(dstate);
  plan.dispatches.push_back(std::move(init));

  const uint32_t flags = (s.has_input(bias_slot) ? 1u : 0u) | (s.has_input(rbias_slot) ? 2u : 0u) |
                         (s.has_input(peephole_slot) ? 4u : 0u) | (sequence ? 8u : 0u) | (backward ? 16u : 0u);
  for (uint32_t step = 0; step < steps; ++step) {
    if (step % chunk == 0) {
      const uint32_t count = std::min(chunk, steps - step);
      const uint32_t n = Count32(uint64_t{count} * dirs * batch * rows);
      GpuDispatch pre;
      pre.shader = core::StrCat("lstm_precompute.", t);
      pre.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Scratch(1)};
      pre.params = {n, step, steps, dirs, batch, input_size, rows, backward ? 1u : 0u};
      pre.groups = GridFor(n);
      plan.dispatches.push_back(std::move(pre));
    }
    GpuDispatch d;
    d.shader = core::StrCat("lstm_step.", t);
    d.bindings = {GpuBinding::Scratch(0),    GpuBinding::Scratch(1),     GpuBinding::Input(2),
                  s.InputOrFirst(bias_slot),    s.InputOrFirst(rbias_slot),    s.InputOrFirst(peephole_slot),
                  sequence ? GpuBinding::Output(2) : GpuBinding::Output(0)};
    d.params = {dstate,
                step,
                steps,
                dirs,
                batch,
                hidden,
                flags,
                RecurrentActivationCode(attrs.activations[0]),
                RecurrentActivationCode(attrs.activations[1]),
                RecurrentActivationCode(attrs.activations[2]),
                step % chunk,
                0,                         // i
                (iofg ? 1 : 3) * hidden,   // o
                (iofg ? 2 : 1) * hidden,   // f
                (iofg ? 3 : 2) * hidden};  // g
    d.groups = GridFor(dstate);
    plan.dispatches.push_back(std::move(d));
  }

  GpuDispatch final;
  final.shader = core::StrCat("lstm_final.", t);
  final.bindings = {GpuBinding::Scratch(0), GpuBinding::Output(0), GpuBinding::Output(1)};
  final.params = {dstate, (steps & 1u) * dstate};
  final.groups = GridFor(dstate);
  plan.dispatches.push_back(std::move(final));
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_lstm() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
