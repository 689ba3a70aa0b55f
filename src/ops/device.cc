#include "ops/device.h"

#include <mutex>

#include "memory/constant_bytes.h"
#include "ops/cpu/cpu_device.h"
#include "ops/reference/reference_device.h"
#ifdef WEBNN_HAS_GPU
#include "ops/gpu/gpu_device.h"
#endif

namespace webnn::ops {

namespace {

struct Registry {
  std::mutex mutex;  // devices may be replaced (a lost gpu)
  std::vector<std::shared_ptr<Device>> devices;
  std::string gpu_unavailable;
};

Registry& GetRegistry() {
  static std::once_flag once;
  static Registry registry;
  std::call_once(once, [] {
#ifdef WEBNN_HAS_GPU
    if (auto gpu = CreateGpuDevice(&registry.gpu_unavailable)) registry.devices.push_back(std::move(gpu));
#else
    registry.gpu_unavailable = "this build has no gpu device (meson option vulkan, or no Vulkan headers/glslang)";
#endif
    registry.devices.push_back(CreateCpuDevice());
    registry.devices.push_back(CreateReferenceDevice());
  });
  return registry;
}

}  // namespace

std::vector<std::shared_ptr<Device>> AvailableDevices() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
#ifdef WEBNN_HAS_GPU
  // A lost gpu stays lost for the contexts that used it; new contexts get a
  // freshly opened device.
  for (auto& d : r.devices)
    if (d->lost()) {
      std::string why;
      if (auto fresh = CreateGpuDevice(&why)) d = std::move(fresh);
    }
#endif
  return r.devices;
}

std::string WhyUnavailable(MLDeviceType type) {
  if (FindDevice(type)) return "";
  if (type == MLDeviceType::kGpu) {
    Registry& r = GetRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.gpu_unavailable;
  }
  return "not built";
}

std::shared_ptr<DeviceBuffer> Device::ConstantBuffer(std::shared_ptr<const memory::ConstantBytes> data,
                                                     const std::shared_ptr<memory::Ledger>& ledger) {
  auto buffer = Allocate(data->size(), "a constant", {ledger, memory::Category::kConstantsRaw});
  Upload(*buffer, 0, data->bytes());
  // Uploaded: the host copy is not read again (a mapped view's pages go).
  data->ReleaseResidentPages();
  return buffer;
}

std::shared_ptr<Device> FindDevice(MLDeviceType type) {
  for (const auto& d : AvailableDevices())
    if (d->type() == type) return d;
  return nullptr;
}

}  // namespace webnn::ops
