#include "scheduler/device_choice.h"

#include <vector>

#include "core/strings.h"

namespace webnn::scheduler {

std::shared_ptr<ops::Device> ChooseDevice(const MLContextOptions& options, std::string* why) {
  std::shared_ptr<ops::Device> device;
  MLDeviceType want = options.device;
  std::string reason;
  if (want == MLDeviceType::kAuto) {
    if (options.powerPreference == MLPowerPreference::kFallback) {
      // "fallback": maximum compatibility, for checking numerics.
      device = ops::FindDevice(MLDeviceType::kReference);
      reason = "powerPreference 'fallback' picks the reference device";
    } else {
      // "low-latency" (webnn#934): the cpu, which starts work without a
      // submission to another device and a wait for it.
      const bool gpu_first = options.accelerated && options.powerPreference != MLPowerPreference::kLowPower &&
                             options.powerPreference != MLPowerPreference::kLowLatency;
      std::vector<MLDeviceType> order = gpu_first
                                            ? std::vector{MLDeviceType::kGpu, MLDeviceType::kCpu, MLDeviceType::kReference}
                                            : std::vector{MLDeviceType::kCpu, MLDeviceType::kGpu, MLDeviceType::kReference};
      // A gpu that is a CPU implementation of Vulkan (lavapipe) is never
      // picked over the cpu device: it is there for testing the gpu path.
      reason = core::StrCat("device 'auto' with powerPreference '", ToString(options.powerPreference),
                            "' and accelerated ", options.accelerated ? "true" : "false", " tries ",
                            gpu_first ? "gpu, cpu, reference" : "cpu, gpu, reference");
      for (MLDeviceType t : order) {
        device = ops::FindDevice(t);
        if (!device) {
          reason += core::StrCat("; ", ToString(t), " skipped: ", ops::WhyUnavailable(t));
        } else if (t == MLDeviceType::kGpu && !device->accelerated()) {
          reason += core::StrCat("; gpu skipped: ", device->description(),
                                 " is not accelerated (a CPU implementation of Vulkan runs only when asked for)");
          device = nullptr;
        }
        if (device) break;
      }
    }
  } else {
    device = ops::FindDevice(want);
    reason = core::StrCat("device '", ToString(want), "' asked for");
  }
  if (why) *why = std::move(reason);
  if (!device)
    throw NotSupportedError(core::StrCat("createContext: device '", ToString(want),
                                         "' is not available on this machine: ", ops::WhyUnavailable(want)));
  return device;
}

}  // namespace webnn::scheduler
