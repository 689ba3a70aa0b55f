#include "ops/gpu/vulkan_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace webnn::ops::gpu {

bool VulkanApi::LoadInstance(VkInstance instance, std::string* why) {
#define WEBNN_VK_LOAD(name)                                                             \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));          \
  if (!name) {                                                                          \
    *why = "the Vulkan loader has no " #name;                                           \
    return false;                                                                       \
  }
  WEBNN_VK_INSTANCE_FUNCTIONS(WEBNN_VK_LOAD)
#undef WEBNN_VK_LOAD
  return true;
}

bool VulkanApi::LoadDevice(VkDevice device, std::string* why) {
#define WEBNN_VK_LOAD(name)                                                   \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name));     \
  if (!name) {                                                                \
    *why = "the Vulkan device has no " #name;                                 \
    return false;                                                             \
  }
  WEBNN_VK_DEVICE_FUNCTIONS(WEBNN_VK_LOAD)
#undef WEBNN_VK_LOAD
  return true;
}

const VulkanApi* LoadVulkan(std::string* why) {
  static std::once_flag once;
  static VulkanApi api;
  static bool ok = false;
  static std::string failure;
  std::call_once(once, [] {
    const char* name = std::getenv("WEBNN_VULKAN_LOADER");
    if (!name || !*name) name = "libvulkan.so.1";
    void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* err = dlerror();
      failure = std::string("no Vulkan loader: ") + (err ? err : name);
      return;
    }
    api.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
    if (!api.vkGetInstanceProcAddr) {
      failure = std::string(name) + " has no vkGetInstanceProcAddr";
      return;
    }
#define WEBNN_VK_LOAD(fn) api.fn = reinterpret_cast<PFN_##fn>(api.vkGetInstanceProcAddr(nullptr, #fn));
    WEBNN_VK_GLOBAL_FUNCTIONS(WEBNN_VK_LOAD)
#undef WEBNN_VK_LOAD
    if (!api.vkCreateInstance) {
      failure = std::string(name) + " has no vkCreateInstance";
      return;
    }
    ok = true;
  });
  if (!ok) {
    *why = failure;
    return nullptr;
  }
  return &api;
}

const char* VkResultName(VkResult result) {
  switch (result) {
#define WEBNN_VK_RESULT(r) \
  case r: return #r;
    WEBNN_VK_RESULT(VK_SUCCESS)
    WEBNN_VK_RESULT(VK_NOT_READY)
    WEBNN_VK_RESULT(VK_TIMEOUT)
    WEBNN_VK_RESULT(VK_INCOMPLETE)
    WEBNN_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    WEBNN_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    WEBNN_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    WEBNN_VK_RESULT(VK_ERROR_DEVICE_LOST)
    WEBNN_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    WEBNN_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    WEBNN_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    WEBNN_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    WEBNN_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    WEBNN_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    WEBNN_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    WEBNN_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    WEBNN_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
#undef WEBNN_VK_RESULT
    default: return "VK_ERROR_UNKNOWN";
  }
}

}  // namespace webnn::ops::gpu
