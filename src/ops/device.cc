#include "ops/device.h"

#include <mutex>

#include "ops/cpu/cpu_device.h"
#include "ops/reference/reference_device.h"

namespace webnn::ops {

std::vector<std::shared_ptr<Device>> AvailableDevices() {
  static std::once_flag once;
  static std::vector<std::shared_ptr<Device>> devices;
  std::call_once(once, [] {
    devices.push_back(CreateCpuDevice());
    devices.push_back(CreateReferenceDevice());
  });
  return devices;
}

std::shared_ptr<DeviceBuffer> Device::ConstantBuffer(std::shared_ptr<const std::vector<std::byte>> data) {
  auto buffer = Allocate(data->size(), "a constant");
  Upload(*buffer, 0, *data);
  return buffer;
}

std::shared_ptr<Device> FindDevice(MLDeviceType type) {
  for (const auto& d : AvailableDevices())
    if (d->type() == type) return d;
  return nullptr;
}

}  // namespace webnn::ops
