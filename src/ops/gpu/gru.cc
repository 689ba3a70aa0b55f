// gpu kernels of gru and gruCell: shaders/gru.comp. gruCell is gru with one
// step, one direction and a required initial state.
//
// The plan, with the states in float32 scratch (slot 0, see gru.comp):
//   init         h = initialHiddenState or 0
//   per chunk of steps: precompute  xw = W x of every step of the chunk (slot 1),
//                all directions and gate rows in parallel
//   per step:    one dispatch over (direction, batch, hidden unit); with
//                resetAfter false two, since n needs r * h of every unit
//   final        output0 from the last state
// The step's recurrent dot products read the previous state half only, so the
// device's barriers between the dependent dispatches order the steps.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/recurrent_activation.h"
#include "ops/gru.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<GruAttrs>(s.attrs);
  const bool cell = s.op == OpKind::gruCell;
  const GpuOperand& x = s.inputs[0];
  const std::string_view t = TypeSuffix(x.type);
  const uint32_t steps = cell ? 1 : x.shape[0];
  const uint32_t batch = x.shape[cell ? 0 : 1];
  const uint32_t input_size = x.shape[cell ? 1 : 2];
  const uint32_t hidden = attrs.hiddenSize;
  const uint32_t dirs = !cell && attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const bool backward = !cell && attrs.direction == MLRecurrentNetworkDirection::kBackward;
  const uint32_t rows = 3 * hidden;
  const size_t bias_slot = cell ? 4 : 3, rbias_slot = bias_slot + 1, h0_slot = cell ? 3 : 5;
  const bool sequence = !cell && attrs.returnSequence && s.outputs.size() > 1 && s.outputs[1].present;
  const bool zrn = attrs.layout == MLGruWeightLayout::kZrn;
  const uint32_t dstate = Count32(uint64_t{dirs} * batch * hidden);

  // xw holds as many steps as one binding spans (all of them unless huge).
  const uint64_t step_bytes = uint64_t{dirs} * batch * rows * 4;
  const uint32_t chunk = static_cast<uint32_t>(
      std::clamp<uint64_t>((s.max_binding_bytes - 4096) / std::max<uint64_t>(step_bytes, 1), 1, steps));

  GpuPlan plan;
  plan.scratch_bytes = {uint64_t{dstate} * (attrs.resetAfter ? 2 : 3) * 4, chunk * step_bytes};

  GpuDispatch init;
  init.shader = core::StrCat("gru_init.", t);
  init.bindings = {s.InputOrFirst(h0_slot), GpuBinding::Scratch(0)};
  init.params = {dstate, s.has_input(h0_slot) ? 1u : 0u};
  init.groups = GridFor(dstate);
  plan.dispatches.push_back(std::move(init));

  const uint32_t flags = (s.has_input(bias_slot) ? 1u : 0u) | (s.has_input(rbias_slot) ? 2u : 0u) | (sequence ? 4u : 0u) |
                         (backward ? 8u : 0u);
  for (uint32_t step = 0; step < steps; ++step) {
    if (step % chunk == 0) {
      const uint32_t count = std::min(chunk, steps - step);
      const uint32_t n = Count32(uint64_t{count} * dirs * batch * rows);
      GpuDispatch pre;
      pre.shader = core::StrCat("gru_precompute.", t);
      pre.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Scratch(1)};
      pre.params = {n, step, steps, dirs, batch, input_size, rows, backward ? 1u : 0u};
      pre.groups = GridFor(n);
      plan.dispatches.push_back(std::move(pre));
    }
    for (uint32_t mode : attrs.resetAfter ? std::vector<uint32_t>{0} : std::vector<uint32_t>{1, 2}) {
      GpuDispatch d;
      d.shader = core::StrCat("gru_step.", t);
      d.bindings = {GpuBinding::Scratch(0),     GpuBinding::Scratch(1),     GpuBinding::Input(2),
                    s.InputOrFirst(bias_slot),     s.InputOrFirst(rbias_slot),
                    sequence ? GpuBinding::Output(1) : GpuBinding::Output(0)};
      d.params = {dstate,
                  step,
                  steps,
                  dirs,
                  batch,
                  hidden,
                  flags,
                  mode,
                  RecurrentActivationCode(attrs.activations[0]),
                  RecurrentActivationCode(attrs.activations[1]),
                  step % chunk,
                  (zrn ? 0 : 1) * hidden,
                  (zrn ? 1 : 0) * hidden};
      d.groups = GridFor(dstate);
      plan.dispatches.push_back(std::move(d));
    }
  }

  GpuDispatch final;
  final.shader = core::StrCat("gru_final.", t);
  final.bindings = {GpuBinding::Scratch(0), GpuBinding::Output(0)};
  final.params = {dstate, (steps & 1u) * dstate};
  final.groups = GridFor(dstate);
  plan.dispatches.push_back(std::move(final));
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_gru() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
