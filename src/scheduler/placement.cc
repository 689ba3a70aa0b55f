#include "scheduler/placement.h"

#include <algorithm>

#include "core/strings.h"
#include "webnn/webnn.h"

namespace webnn::scheduler {

namespace {

// The first operand of `step` whose type `device` does not run, as
// "input 1 (int64)", or "" when it runs them all.
std::string UnsupportedOperand(const ops::Device& device, const ops::Program& program, const ops::ProgramStep& step) {
  if (!ops::GetSchema(step.op).outputs.empty() && device.SupportedTypes(step.op, true, 0).Empty())
    return "no kernel for the op";
  for (int pass = 0; pass < 2; ++pass) {
    const auto& ids = pass ? step.outputs : step.inputs;
    const auto& slots = pass ? ops::GetSchema(step.op).outputs : ops::GetSchema(step.op).inputs;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] < 0) continue;
      const core::DataType t = program.values[ids[i]].desc.type;
      // Operands past the schema's slots belong to its variadic last slot
      // (concat's inputs, split's outputs).
      const size_t slot = std::min(i, slots.empty() ? 0 : slots.size() - 1);
      if (!device.SupportedTypes(step.op, pass == 1, slot).Contains(t))
        return core::StrCat(pass ? "output " : "input ", i, " (", ToString(t), ")");
    }
  }
  return "";
}

std::string StepName(const ops::ProgramStep& step) {
  return core::StrCat(OpName(step.op), step.label.empty() ? "" : " '", step.label, step.label.empty() ? "" : "'");
}

StepFilter& TestFilter() {
  static StepFilter filter;  // tests only; set and reset on one thread
  return filter;
}

}  // namespace

ScopedStepFilterForTesting::ScopedStepFilterForTesting(StepFilter filter) : previous_(TestFilter()) {
  TestFilter() = std::move(filter);
}
ScopedStepFilterForTesting::~ScopedStepFilterForTesting() { TestFilter() = std::move(previous_); }

bool DeviceRunsStep(const ops::Device& device, const ops::Program& program, const ops::ProgramStep& step) {
  return UnsupportedOperand(device, program, step).empty();
}

std::vector<std::shared_ptr<ops::Device>> FallbackDevices(const ops::Device& device) {
  std::vector<std::shared_ptr<ops::Device>> out;
  for (MLDeviceType t : {MLDeviceType::kCpu, MLDeviceType::kReference}) {
    if (t == device.type()) continue;
    if (auto d = ops::FindDevice(t)) out.push_back(std::move(d));
  }
  return out;
}

Placement PlaceProgram(const ops::Program& program, const std::shared_ptr<ops::Device>& device,
                       const std::vector<std::shared_ptr<ops::Device>>& fallbacks, bool strict) {
  const StepFilter& runs = TestFilter() ? TestFilter() : StepFilter(DeviceRunsStep);
  Placement p;
  p.devices.push_back(device);
  p.step_device.reserve(program.steps.size());
  for (const ops::ProgramStep& step : program.steps) {
    if (runs(*device, program, step)) {
      p.step_device.push_back(0);
      continue;
    }
    const std::string why = UnsupportedOperand(*device, program, step);
    const std::string lacks = core::StrCat("the ", device->name(), " device does not run ", StepName(step),
                                           why.empty() ? "" : core::StrCat(" (", why, ")"));
    if (strict)
      throw NotSupportedError(core::StrCat("build: ", lacks, ", and strict placement forbids running it elsewhere"));
    auto it = std::find_if(fallbacks.begin(), fallbacks.end(),
                           [&](const std::shared_ptr<ops::Device>& d) { return runs(*d, program, step); });
    if (it == fallbacks.end()) throw NotSupportedError(core::StrCat("build: ", lacks, ", nor does any other device"));
    auto known = std::find(p.devices.begin(), p.devices.end(), *it);
    if (known == p.devices.end()) known = p.devices.insert(p.devices.end(), *it);
    p.step_device.push_back(static_cast<uint32_t>(known - p.devices.begin()));
  }
  return p;
}

}  // namespace webnn::scheduler
