// Vulkan, loaded at run time: libwebnn has no link-time Vulkan dependency.
// LoadVulkan() dlopens libvulkan.so.1 and resolves the functions below through
// vkGetInstanceProcAddr / vkGetDeviceProcAddr (volk's approach, our own code).
// No loader on the machine means no gpu device, with the reason kept for
// `webnn info`, never a crash.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

namespace webnn::ops::gpu {

// Functions resolved before an instance exists.
#define WEBNN_VK_GLOBAL_FUNCTIONS(X) \
  X(vkCreateInstance)                \
  X(vkEnumerateInstanceVersion)      \
  X(vkEnumerateInstanceExtensionProperties)

// Functions of a VkInstance.
#define WEBNN_VK_INSTANCE_FUNCTIONS(X)         \
  X(vkDestroyInstance)                         \
  X(vkEnumeratePhysicalDevices)                \
  X(vkGetPhysicalDeviceProperties)             \
  X(vkGetPhysicalDeviceProperties2)            \
  X(vkGetPhysicalDeviceFeatures2)              \
  X(vkGetPhysicalDeviceMemoryProperties)       \
  X(vkGetPhysicalDeviceQueueFamilyProperties)  \
  X(vkEnumerateDeviceExtensionProperties)      \
  X(vkCreateDevice)                            \
  X(vkGetDeviceProcAddr)

// Functions of a VkDevice.
#define WEBNN_VK_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                 \
  X(vkGetDeviceQueue)                \
  X(vkCreateBuffer)                  \
  X(vkDestroyBuffer)                 \
  X(vkGetBufferMemoryRequirements)   \
  X(vkAllocateMemory)                \
  X(vkFreeMemory)                    \
  X(vkBindBufferMemory)              \
  X(vkMapMemory)                     \
  X(vkUnmapMemory)                   \
  X(vkCreateShaderModule)            \
  X(vkDestroyShaderModule)           \
  X(vkCreateDescriptorSetLayout)     \
  X(vkDestroyDescriptorSetLayout)    \
  X(vkCreatePipelineLayout)          \
  X(vkDestroyPipelineLayout)         \
  X(vkCreatePipelineCache)           \
  X(vkDestroyPipelineCache)          \
  X(vkGetPipelineCacheData)          \
  X(vkCreateComputePipelines)        \
  X(vkDestroyPipeline)               \
  X(vkCreateCommandPool)             \
  X(vkDestroyCommandPool)            \
  X(vkAllocateCommandBuffers)        \
  X(vkFreeCommandBuffers)            \
  X(vkBeginCommandBuffer)            \
  X(vkEndCommandBuffer)              \
  X(vkCmdBindPipeline)               \
  X(vkCmdPushDescriptorSetKHR)       \
  X(vkCmdDispatch)                   \
  X(vkCmdPipelineBarrier)            \
  X(vkCmdCopyBuffer)                 \
  X(vkCmdFillBuffer)                 \
  X(vkCmdWriteTimestamp)             \
  X(vkCmdResetQueryPool)             \
  X(vkCreateQueryPool)               \
  X(vkDestroyQueryPool)              \
  X(vkGetQueryPoolResults)           \
  X(vkCreateFence)                   \
  X(vkDestroyFence)                  \
  X(vkResetFences)                   \
  X(vkWaitForFences)                 \
  X(vkQueueSubmit)                   \
  X(vkDeviceWaitIdle)

struct VulkanApi {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define WEBNN_VK_DECLARE(name) PFN_##name name = nullptr;
  WEBNN_VK_GLOBAL_FUNCTIONS(WEBNN_VK_DECLARE)
  WEBNN_VK_INSTANCE_FUNCTIONS(WEBNN_VK_DECLARE)
  WEBNN_VK_DEVICE_FUNCTIONS(WEBNN_VK_DECLARE)
#undef WEBNN_VK_DECLARE

  // Resolve the instance (device) functions; false names the first missing one in `why`.
  bool LoadInstance(VkInstance instance, std::string* why);
  bool LoadDevice(VkDevice device, std::string* why);
};

// The loader's global functions, or null with the reason in `why` (no
// libvulkan.so.1, or WEBNN_VULKAN_LOADER names a library that has none).
// Loaded once per process; the library stays loaded.
const VulkanApi* LoadVulkan(std::string* why);

// "VK_ERROR_DEVICE_LOST" for messages.
const char* VkResultName(VkResult result);

}  // namespace webnn::ops::gpu
