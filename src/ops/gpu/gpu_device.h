// The `gpu` device: Vulkan compute shaders for the operators of
// src/ops/gpu/<family>.cc, one command buffer recorded per compiled graph
// (re-recorded only when the concrete shapes or bound tensors change).
#pragma once

#include <memory>
#include <string>

#include "ops/device.h"

namespace webnn::ops {

// The gpu device on this machine, or null with the reason in `why` (no
// Vulkan loader, no usable physical device, or a build without Vulkan).
std::shared_ptr<Device> CreateGpuDevice(std::string* why);

namespace gpu {
class VulkanDevice;
// The Vulkan device behind the gpu device (null for other devices): for the
// probes and tests that drive shaders directly.
VulkanDevice* VulkanOf(Device& device);
// Tests: make the gpu device's next queue submission (or, with
// `on_allocation`, its next memory allocation) fail as if the device were lost
// (`device_lost`) or out of memory. False when there is no gpu device.
bool InjectGpuFault(Device& device, bool device_lost, bool on_allocation);
}  // namespace gpu

}  // namespace webnn::ops
