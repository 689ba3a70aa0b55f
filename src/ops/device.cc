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

// The devices, each created on first need: the gpu device (a Vulkan driver:
// lavapipe maps ~60 MiB) only when a caller asks for the gpu or for every
// device, so a cpu or reference context never loads it.
struct Registry {
  std::mutex mutex;  // devices may be replaced (a lost gpu)
  std::shared_ptr<Device> cpu = CreateCpuDevice();
  std::shared_ptr<Device> reference = CreateReferenceDevice();
  std::shared_ptr<Device> gpu;
  bool gpu_tried = false;
  std::string gpu_unavailable;

  // With `mutex` held. Null when there is no gpu device (gpu_unavailable says why).
  const std::shared_ptr<Device>& Gpu() {
#ifdef WEBNN_HAS_GPU
    // A lost gpu stays lost for the contexts that used it; new contexts get
    // a freshly opened device.
    if (!gpu_tried || (gpu && gpu->lost())) {
      gpu_tried = true;
      std::string why;
      if (auto fresh = CreateGpuDevice(&why)) gpu = std::move(fresh);
      else if (!gpu) gpu_unavailable = why;
    }
#else
    gpu_unavailable = "this build has no gpu device (meson option vulkan, or no Vulkan headers/glslang)";
#endif
    return gpu;
  }
};

// Never destroyed: a Vulkan driver loaded after the registry was made tears
// itself down in its own exit handlers, which run before a static registry's
// destructor would; destroying the VkDevice after that crashed every process
// at exit on an NVIDIA H100. The system reclaims the devices at exit.
Registry& GetRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

}  // namespace

std::vector<std::shared_ptr<Device>> AvailableDevices() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::shared_ptr<Device>> out;
  if (r.Gpu()) out.push_back(r.gpu);
  out.push_back(r.cpu);
  out.push_back(r.reference);
  return out;
}

std::shared_ptr<Device> FindDevice(MLDeviceType type) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  switch (type) {
    case MLDeviceType::kCpu: return r.cpu;
    case MLDeviceType::kReference: return r.reference;
    case MLDeviceType::kGpu: return r.Gpu();
    case MLDeviceType::kAuto: break;
  }
  return nullptr;
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

}  // namespace webnn::ops
