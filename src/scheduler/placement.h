// Where each step of a compiled program runs (placement across devices).
//
// A step runs on the context's device when that device runs it (a kernel for
// its op and for the data type of each of its operands); otherwise on the
// first fallback device that does (FallbackDevices: cpu, then reference). A
// context whose device runs everything runs everything there. Executable
// splits a placed program into segments of consecutive steps on one device
// and copies values between device memories where a segment needs them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "ops/device.h"

namespace webnn::scheduler {

struct Placement {
  std::vector<std::shared_ptr<ops::Device>> devices;  // [0]: the context's device, then the fallbacks used
  std::vector<uint32_t> step_device;                  // per step: an index into `devices`
  bool fell_back() const { return devices.size() > 1; }
};

// Whether `device` runs `step` of `program`.
using StepFilter = std::function<bool(const ops::Device& device, const ops::Program& program,
                                      const ops::ProgramStep& step)>;
bool DeviceRunsStep(const ops::Device& device, const ops::Program& program, const ops::ProgramStep& step);

// The devices that take the steps `device` does not run, in order of
// preference: cpu, then reference (those available, never `device` itself).
std::vector<std::shared_ptr<ops::Device>> FallbackDevices(const ops::Device& device);

// Tests: while one lives, `filter` replaces DeviceRunsStep for every graph
// built (to place steps on a fallback device that their device does run).
class ScopedStepFilterForTesting {
 public:
  explicit ScopedStepFilterForTesting(StepFilter filter);
  ~ScopedStepFilterForTesting();
  ScopedStepFilterForTesting(const ScopedStepFilterForTesting&) = delete;
  ScopedStepFilterForTesting& operator=(const ScopedStepFilterForTesting&) = delete;

 private:
  StepFilter previous_;
};

// Places every step of `program` (DeviceRunsStep decides). Throws NotSupportedError naming the step
// (its op, label and the operand type the device lacks) when no device runs
// it, or, with `strict`, when the context's device does not.
Placement PlaceProgram(const ops::Program& program, const std::shared_ptr<ops::Device>& device,
                       const std::vector<std::shared_ptr<ops::Device>>& fallbacks, bool strict);

// Two devices that read each other's buffers in place.
inline bool SameMemory(const ops::Device& a, const ops::Device& b) {
  return &a == &b || (a.HostMemory() && b.HostMemory());
}

}  // namespace webnn::scheduler
