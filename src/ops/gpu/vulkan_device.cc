#include "ops/gpu/vulkan_device.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/shader_library.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {

using core::StrCat;

namespace {

const char* DeviceTypeName(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

// Lower is preferred: real GPUs before software rasterizers like lavapipe.
int TypeRank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

std::string VersionString(uint32_t v) {
  return StrCat(VK_API_VERSION_MAJOR(v), ".", VK_API_VERSION_MINOR(v), ".", VK_API_VERSION_PATCH(v));
}

bool HasExtension(const std::vector<VkExtensionProperties>& exts, const char* name) {
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

}  // namespace

std::unique_ptr<VulkanDevice> VulkanDevice::Open(std::string* why) {
  std::unique_ptr<VulkanDevice> d(new VulkanDevice());
  if (!d->Init(why)) return nullptr;
  return d;
}

bool VulkanDevice::Init(std::string* why) {
  vk_ = LoadVulkan(why);
  if (!vk_) return false;
  const VulkanApi& vk = *vk_;
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion) vk.vkEnumerateInstanceVersion(&loader_version);
  if (loader_version < VK_API_VERSION_1_2) {
    *why = StrCat("the Vulkan loader is version ", VersionString(loader_version), "; the gpu device needs 1.2");
    return false;
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "webnn";
  app.pEngineName = "webnn";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkResult r = vk.vkCreateInstance(&ici, nullptr, &instance_);
  if (r != VK_SUCCESS) {
    *why = StrCat("vkCreateInstance failed: ", VkResultName(r));
    return false;
  }
  // The api table is shared process-wide; instance functions do not depend
  // on the instance for a loader-provided trampoline, so loading them again
  // for a second instance is harmless.
  if (!const_cast<VulkanApi&>(vk).LoadInstance(instance_, why)) return false;

  uint32_t count = 0;
  vk.vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> physicals(count);
  if (count) vk.vkEnumeratePhysicalDevices(instance_, &count, physicals.data());
  if (physicals.empty()) {
    *why = "Vulkan reports no physical device (install mesa-vulkan-drivers for lavapipe)";
    return false;
  }
  std::vector<VkPhysicalDeviceProperties> props(physicals.size());
  for (size_t i = 0; i < physicals.size(); ++i) vk.vkGetPhysicalDeviceProperties(physicals[i], &props[i]);

  int chosen = -1;
  if (const char* want = std::getenv("WEBNN_VULKAN_DEVICE"); want && *want) {
    char* end = nullptr;
    const long index = std::strtol(want, &end, 10);
    if (end && *end == '\0') {
      if (index < 0 || static_cast<size_t>(index) >= physicals.size()) {
        *why = StrCat("WEBNN_VULKAN_DEVICE=", want, " but there are ", physicals.size(), " Vulkan devices");
        return false;
      }
      chosen = static_cast<int>(index);
    } else {
      for (size_t i = 0; i < physicals.size() && chosen < 0; ++i)
        if (std::strstr(props[i].deviceName, want)) chosen = static_cast<int>(i);
      if (chosen < 0) {
        std::string names;
        for (size_t i = 0; i < props.size(); ++i) names += StrCat(i ? ", " : "", i, ": ", props[i].deviceName);
        *why = StrCat("WEBNN_VULKAN_DEVICE=", want, " matches no Vulkan device (", names, ")");
        return false;
      }
    }
  } else {
    for (size_t i = 0; i < physicals.size(); ++i) {
      if (props[i].apiVersion < VK_API_VERSION_1_2) continue;
      if (chosen < 0 || TypeRank(props[i].deviceType) < TypeRank(props[chosen].deviceType)) chosen = static_cast<int>(i);
    }
    if (chosen < 0) {
      *why = "no Vulkan device supports Vulkan 1.2";
      return false;
    }
  }
  physical_ = physicals[chosen];
  properties_ = props[chosen];
  if (properties_.apiVersion < VK_API_VERSION_1_2) {
    *why = StrCat(properties_.deviceName, " supports Vulkan ", VersionString(properties_.apiVersion),
                  "; the gpu device needs 1.2");
    return false;
  }

  // Extensions: push descriptors are required (one descriptor layout, no pools).
  vk.vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  if (count) vk.vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, exts.data());
  if (!HasExtension(exts, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    *why = StrCat(properties_.deviceName, " lacks ", VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    return false;
  }
  features_.cooperative_matrix = HasExtension(exts, "VK_KHR_cooperative_matrix");
  const bool has_coopmat_nv = HasExtension(exts, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);

  // Features.
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  f11.pNext = &f12;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV fcm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  if (has_coopmat_nv) f12.pNext = &fcm;
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.pNext = &f11;
  vk.vkGetPhysicalDeviceFeatures2(physical_, &f2);
  // Cooperative matrices (NV): the shapes, when the driver offers them to
  // compute shaders together with the memory model their SPIR-V declares.
  const bool coopmat_nv = has_coopmat_nv && fcm.cooperativeMatrix && f12.vulkanMemoryModel &&
                          f12.shaderFloat16 && f11.storageBuffer16BitAccess;
  if (coopmat_nv) {
    auto props_fn = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
        vk.vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
    uint32_t n = 0;
    if (props_fn && props_fn(physical_, &n, nullptr) == VK_SUCCESS && n) {
      std::vector<VkCooperativeMatrixPropertiesNV> cm(n, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV});
      props_fn(physical_, &n, cm.data());
      auto type_name = [](VkComponentTypeNV t) -> std::string {
        switch (t) {
          case VK_COMPONENT_TYPE_FLOAT16_NV: return "f16";
          case VK_COMPONENT_TYPE_FLOAT32_NV: return "f32";
          case VK_COMPONENT_TYPE_SINT8_NV: return "i8";
          case VK_COMPONENT_TYPE_UINT8_NV: return "u8";
          case VK_COMPONENT_TYPE_SINT32_NV: return "i32";
          case VK_COMPONENT_TYPE_UINT32_NV: return "u32";
          default: return StrCat("type", static_cast<int>(t));
        }
      };
      for (const VkCooperativeMatrixPropertiesNV& p : cm) {
        features_.coopmat_nv_shapes.push_back(StrCat(p.MSize, "x", p.NSize, "x", p.KSize, " ", type_name(p.AType), "*",
                                                     type_name(p.BType), "+", type_name(p.CType), "->",
                                                     type_name(p.DType), p.scope == VK_SCOPE_SUBGROUP_NV ? "" : " (not subgroup)"));
        if (p.scope == VK_SCOPE_SUBGROUP_NV && p.AType == VK_COMPONENT_TYPE_FLOAT16_NV &&
            p.BType == VK_COMPONENT_TYPE_FLOAT16_NV && p.CType == VK_COMPONENT_TYPE_FLOAT32_NV &&
            p.DType == VK_COMPONENT_TYPE_FLOAT32_NV)
          features_.coopmat_f16_f32.push_back({p.MSize, p.NSize, p.KSize});
      }
    }
  }
  features_.float16 = f12.shaderFloat16 && f11.storageBuffer16BitAccess;
  features_.int8 = f12.shaderInt8 && f12.storageBuffer8BitAccess;
  features_.int16 = f2.features.shaderInt16;
  features_.int64 = f2.features.shaderInt64;

  VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  subgroup.pNext = &p12;
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &subgroup;
  vk.vkGetPhysicalDeviceProperties2(physical_, &p2);
  features_.denorm_preserve_widths = (p12.shaderDenormPreserveFloat16 ? 1u : 0u) |
                                     (p12.shaderDenormPreserveFloat32 ? 2u : 0u) |
                                     (p12.shaderDenormPreserveFloat64 ? 4u : 0u);
  features_.signed_zero_inf_nan_widths = (p12.shaderSignedZeroInfNanPreserveFloat16 ? 1u : 0u) |
                                         (p12.shaderSignedZeroInfNanPreserveFloat32 ? 2u : 0u) |
                                         (p12.shaderSignedZeroInfNanPreserveFloat64 ? 4u : 0u);
  // Where the widths are not independent, every width (NONE) or 16 and 64
  // together (32_BIT_ONLY) must have the same mode: ask for all or none.
  if (p12.denormBehaviorIndependence == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE &&
      features_.denorm_preserve_widths != 7u)
    features_.denorm_preserve_widths = 0;
  if (p12.denormBehaviorIndependence == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY &&
      (features_.denorm_preserve_widths & 5u) != 5u)
    features_.denorm_preserve_widths &= 2u;
  features_.subgroup_size = subgroup.subgroupSize;
  features_.subgroup_arithmetic = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                                  (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
  const VkPhysicalDeviceLimits& limits = properties_.limits;
  features_.max_shared_memory = limits.maxComputeSharedMemorySize;
  features_.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  features_.min_storage_offset_alignment = limits.minStorageBufferOffsetAlignment;
  features_.max_storage_buffer_range = limits.maxStorageBufferRange;
  features_.timestamp_period_ns = limits.timestampPeriod;

  // A compute queue.
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
  int family = -1;
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      family = static_cast<int>(i);
      break;
    }
  if (family < 0) {
    *why = StrCat(properties_.deviceName, " has no compute queue");
    return false;
  }
  queue_family_ = static_cast<uint32_t>(family);
  features_.timestamps = families[family].timestampValidBits > 0 && limits.timestampComputeAndGraphics;

  vk.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    // Unified memory is device-local memory the CPU reads at cache speed
    // (an integrated GPU, lavapipe). A discrete GPU's resizable BAR is also
    // device-local, host-visible and coherent, but uncached: on an H100
    // (2026-11-26) reading results from it ran at ~25-30 MB/s, so a 1 MB
    // output cost 35 ms. Such memory is not unified; results come back
    // through a cached staging buffer. A small heap (a 256 MiB BAR window)
    // does not count either.
    const VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
    if ((f & kUnifiedMemory) == kUnifiedMemory && memory_.memoryHeaps[memory_.memoryTypes[i].heapIndex].size >= (1ull << 30))
      features_.unified_memory = true;
  }

  // The logical device, with the features our shaders use enabled.
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  e12.shaderFloat16 = f12.shaderFloat16;
  e12.shaderInt8 = f12.shaderInt8;
  e12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
  e12.uniformAndStorageBuffer8BitAccess = f12.uniformAndStorageBuffer8BitAccess;
  const bool enable_coopmat = !features_.coopmat_f16_f32.empty();
  e12.vulkanMemoryModel = enable_coopmat;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV ecm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  ecm.cooperativeMatrix = VK_TRUE;
  if (enable_coopmat) e12.pNext = &ecm;
  VkPhysicalDeviceVulkan11Features e11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  e11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
  e11.uniformAndStorageBuffer16BitAccess = f11.uniformAndStorageBuffer16BitAccess;
  e11.pNext = &e12;
  VkPhysicalDeviceFeatures2 e2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  e2.features.shaderInt64 = f2.features.shaderInt64;
  e2.features.shaderInt16 = f2.features.shaderInt16;
  // Bounds-checked buffer access where offered: a kernel bug then reads zeros
  // or drops a write instead of faulting the device (or, on lavapipe, the
  // process). Our shaders index within their bindings, so the checks cost
  // only the compare; a GPU without the feature runs unchecked.
  e2.features.robustBufferAccess = f2.features.robustBufferAccess;
  e2.pNext = &e11;
  const char* device_exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &e2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = enable_coopmat ? 2 : 1;
  dci.ppEnabledExtensionNames = device_exts;
  r = vk.vkCreateDevice(physical_, &dci, nullptr, &device_);
  if (r != VK_SUCCESS) {
    *why = StrCat("vkCreateDevice on ", properties_.deviceName, " failed: ", VkResultName(r));
    return false;
  }
  if (!const_cast<VulkanApi&>(vk).LoadDevice(device_, why)) return false;
  vk.vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  cpci.queueFamilyIndex = queue_family_;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (vk.vkCreateCommandPool(device_, &cpci, nullptr, &command_pool_) != VK_SUCCESS ||
      vk.vkCreateFence(device_, &fci, nullptr, &fence_) != VK_SUCCESS) {
    *why = "creating the command pool or fence failed";
    return false;
  }

  // One layout for every shader: binding 0 = params, 1..kMaxBindings = operands.
  std::vector<VkDescriptorSetLayoutBinding> bindings(kMaxBindings + 1);
  for (uint32_t b = 0; b <= kMaxBindings; ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dslci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  dslci.bindingCount = static_cast<uint32_t>(bindings.size());
  dslci.pBindings = bindings.data();
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set_layout_;
  if (vk.vkCreateDescriptorSetLayout(device_, &dslci, nullptr, &set_layout_) != VK_SUCCESS ||
      vk.vkCreatePipelineLayout(device_, &plci, nullptr, &pipeline_layout_) != VK_SUCCESS) {
    *why = "creating the pipeline layout failed";
    return false;
  }

  // Pipeline cache, loaded from WEBNN_GPU_PIPELINE_CACHE when set (SaveNewPipelines writes it).
  std::vector<char> cache_data;
  if (const char* path = std::getenv("WEBNN_GPU_PIPELINE_CACHE"); path && *path) {
    pipeline_cache_path_ = path;
    std::ifstream in(pipeline_cache_path_, std::ios::binary);
    if (in) cache_data.assign(std::istreambuf_iterator<char>(in), {});
  }
  VkPipelineCacheCreateInfo pcci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  pcci.initialDataSize = cache_data.size();
  pcci.pInitialData = cache_data.empty() ? nullptr : cache_data.data();
  if (vk.vkCreatePipelineCache(device_, &pcci, nullptr, &pipeline_cache_) != VK_SUCCESS) {
    // A stale or foreign cache file: start empty.
    pcci.initialDataSize = 0;
    pcci.pInitialData = nullptr;
    vk.vkCreatePipelineCache(device_, &pcci, nullptr, &pipeline_cache_);
  }
  return true;
}

VulkanDevice::~VulkanDevice() {
  if (!vk_) return;
  const VulkanApi& vk = *vk_;
  if (device_) {
    vk.vkDeviceWaitIdle(device_);
    SavePipelineCache();
    for (auto& [name, p] : pipelines_) vk.vkDestroyPipeline(device_, p, nullptr);
    if (pipeline_cache_) vk.vkDestroyPipelineCache(device_, pipeline_cache_, nullptr);
    if (pipeline_layout_) vk.vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
    if (set_layout_) vk.vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
    if (fence_) vk.vkDestroyFence(device_, fence_, nullptr);
    if (timestamps_) vk.vkDestroyQueryPool(device_, timestamps_, nullptr);
    if (command_pool_) vk.vkDestroyCommandPool(device_, command_pool_, nullptr);
    vk.vkDestroyDevice(device_, nullptr);
  }
  if (instance_ && vk.vkDestroyInstance) vk.vkDestroyInstance(instance_, nullptr);
}

void VulkanDevice::SaveNewPipelines() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pipelines_.size() == saved_pipelines_) return;
  SavePipelineCache();
  saved_pipelines_ = pipelines_.size();
}

void VulkanDevice::SavePipelineCache() {
  if (pipeline_cache_path_.empty() || !pipeline_cache_) return;
  size_t size = 0;
  if (vk_->vkGetPipelineCacheData(device_, pipeline_cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
  std::vector<char> data(size);
  if (vk_->vkGetPipelineCacheData(device_, pipeline_cache_, &size, data.data()) != VK_SUCCESS) return;
  std::ofstream out(pipeline_cache_path_, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(size));
}

std::string VulkanDevice::Description() const {
  return StrCat(properties_.deviceName, " (", DeviceTypeName(properties_.deviceType), ", Vulkan ",
                VersionString(properties_.apiVersion), ", driver ", properties_.driverVersion, ")");
}

namespace {
// "f16 f32" for a widths mask (bits 0, 1, 2 = 16, 32, 64), "no" for none.
std::string WidthList(uint32_t widths) {
  std::string s;
  for (uint32_t w = 0; w < 3; ++w)
    if (widths & (1u << w)) s += StrCat(s.empty() ? "f" : " f", 16u << w);
  return s.empty() ? "no" : s;
}
}  // namespace

std::string VulkanDevice::FeatureSummary() const {
  const VulkanFeatures& f = features_;
  return StrCat("float16 ", f.float16 ? "yes" : "no", ", int8 ", f.int8 ? "yes" : "no", ", int64 ",
                f.int64 ? "yes" : "no", ", subgroup ", f.subgroup_size,
                f.subgroup_arithmetic ? " (arithmetic)" : "", ", shared memory ", f.max_shared_memory / 1024,
                " KiB, cooperative matrix KHR ", f.cooperative_matrix ? "yes" : "no", ", NV ",
                f.coopmat_nv_shapes.empty() ? std::string("no") : core::ListToString(f.coopmat_nv_shapes), ", timestamps ",
                f.timestamps ? "yes" : "no", ", unified memory ", f.unified_memory ? "yes" : "no",
                ", denormals kept ", WidthList(f.denorm_preserve_widths), ", signed zero/inf/nan kept ",
                WidthList(f.signed_zero_inf_nan_widths));
}

core::DataTypeSet VulkanDevice::SupportedTypes() const {
  using T = MLOperandDataType;
  core::DataTypeSet s{T::kFloat32, T::kInt32, T::kUint32};
  if (features_.float16) s = s | core::DataTypeSet{T::kFloat16};
  if (features_.int8) s = s | core::DataTypeSet{T::kInt8, T::kUint8, T::kInt4, T::kUint4};
  if (features_.int64) s = s | core::DataTypeSet{T::kInt64, T::kUint64};
  return s;
}

uint32_t VulkanDevice::FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags want,
                                      VkMemoryPropertyFlags avoid) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
    if ((type_bits & (1u << i)) && (f & want) == want && !(f & avoid)) return i;
  }
  return UINT32_MAX;
}

void VulkanDevice::Check(VkResult result, const char* what) {
  if (result == VK_SUCCESS) return;
  if (result == VK_ERROR_DEVICE_LOST) {
    lost_ = true;
    throw OperationError(StrCat("gpu device '", properties_.deviceName, "' was lost (", what,
                                " returned VK_ERROR_DEVICE_LOST); create a new context"));
  }
  if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
    throw QuotaExceededError(StrCat("gpu device '", properties_.deviceName, "': ", what, " failed with ",
                                    VkResultName(result)));
  throw OperationError(StrCat("gpu device '", properties_.deviceName, "': ", what, " failed with ",
                              VkResultName(result)));
}

void VulkanDevice::InjectFault(VkResult result, bool on_allocation) {
  std::lock_guard<std::mutex> lock(mutex_);
  injected_ = result;
  inject_on_allocation_ = on_allocation;
}

VulkanBuffer VulkanDevice::CreateBuffer(uint64_t bytes, bool host_visible, std::string_view what) {
  if (lost_) Check(VK_ERROR_DEVICE_LOST, "allocating memory");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (injected_ != VK_SUCCESS && inject_on_allocation_) {
      const VkResult r = injected_;
      injected_ = VK_SUCCESS;
      Check(r, StrCat("vkAllocateMemory of ", bytes, " bytes for ", what, " (injected fault)").c_str());
    }
  }
  const VulkanApi& vk = *vk_;
  VulkanBuffer b;
  b.size = std::max<uint64_t>(bytes, 4);
  b.size = (b.size + 3) / 4 * 4;  // vkCmdFillBuffer works in words
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = b.size;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  Check(vk.vkCreateBuffer(device_, &bci, nullptr, &b.buffer), "vkCreateBuffer");
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(device_, b.buffer, &req);
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  if (features_.unified_memory) {
    type = FindMemoryType(req.memoryTypeBits, kUnifiedMemory, 0);
  } else if (host_visible) {
    // Staging, read back by the CPU: cached system memory first (not the
    // BAR, see kUnifiedMemory), then any host-visible memory.
    type = FindMemoryType(req.memoryTypeBits, host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX) type = FindMemoryType(req.memoryTypeBits, host, 0);
  } else {
    // Device memory the CPU never maps: keep the BAR free where there is one.
    type = FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (type == UINT32_MAX) type = FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  }
  if (type == UINT32_MAX) type = FindMemoryType(req.memoryTypeBits, 0, 0);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = type;
  const VkResult r = vk.vkAllocateMemory(device_, &mai, nullptr, &b.memory);
  if (r != VK_SUCCESS) {
    vk.vkDestroyBuffer(device_, b.buffer, nullptr);
    throw QuotaExceededError(StrCat("gpu device '", properties_.deviceName, "': allocating ", bytes, " bytes for ",
                                    what, " failed with ", VkResultName(r)));
  }
  vk.vkBindBufferMemory(device_, b.buffer, b.memory, 0);
  if (memory_.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    void* p = nullptr;
    Check(vk.vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    b.mapped = static_cast<std::byte*>(p);
    std::memset(b.mapped, 0, b.size);
  } else {
    const VkBuffer buffer = b.buffer;
    const uint64_t size = b.size;
    SubmitAndWait([&](VkCommandBuffer cmd) { vk.vkCmdFillBuffer(cmd, buffer, 0, size, 0); });
  }
  return b;
}

void VulkanDevice::DestroyBuffer(VulkanBuffer& b) {
  if (!device_) return;
  if (b.buffer) vk_->vkDestroyBuffer(device_, b.buffer, nullptr);
  if (b.memory) vk_->vkFreeMemory(device_, b.memory, nullptr);
  b = VulkanBuffer{};
}

bool HasCoopMatF16(const VulkanFeatures& features) {
  bool shape = false;
  for (const VulkanFeatures::CoopMatShape& c : features.coopmat_f16_f32) shape |= c.m == 16 && c.n == 16 && c.k == 16;
  return shape && features.subgroup_size == 32;
}

bool DisabledByEnvironment(std::string_view feature) {
  static const std::vector<std::string> disabled = [] {
    std::vector<std::string> list;
    const char* v = std::getenv("WEBNN_GPU_DISABLE");
    std::string item;
    for (const char* c = v ? v : ""; ; ++c) {
      if (*c == ',' || *c == '\0') {
        if (!item.empty()) list.push_back(item);
        item.clear();
        if (*c == '\0') break;
      } else if (*c != ' ') {
        item += *c;
      }
    }
    return list;
  }();
  return std::find(disabled.begin(), disabled.end(), feature) != disabled.end();
}

std::vector<uint32_t> WithFloatControls(std::span<const uint32_t> code, uint32_t denorm_preserve_widths,
                                        uint32_t signed_zero_inf_nan_widths) {
  // SPIR-V: a 5-word header, then instructions whose first word is
  // (word count << 16) | opcode; capabilities come first, execution modes
  // right after the entry points.
  constexpr uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17;
  constexpr uint32_t kCapDenormPreserve = 4464, kCapSignedZeroInfNanPreserve = 4466;
  constexpr uint32_t kModeDenormPreserve = 4459, kModeSignedZeroInfNanPreserve = 4461;
  std::vector<uint32_t> out(code.begin(), code.end());
  if (code.size() < 5 || (denorm_preserve_widths == 0 && signed_zero_inf_nan_widths == 0)) return out;
  std::vector<uint32_t> modes, caps;
  size_t modes_at = 0;
  for (size_t i = 5; i < code.size();) {
    const uint32_t words = code[i] >> 16, opcode = code[i] & 0xffffu;
    if (words == 0 || i + words > code.size()) return out;  // malformed: leave it to the driver's checks
    if (opcode == kOpEntryPoint) {
      const uint32_t entry = code[i + 2];
      for (uint32_t w = 0; w < 3; ++w) {
        const uint32_t width = 16u << w;
        if (denorm_preserve_widths & (1u << w)) modes.insert(modes.end(), {(4u << 16) | kOpExecutionMode, entry, kModeDenormPreserve, width});
        if (signed_zero_inf_nan_widths & (1u << w))
          modes.insert(modes.end(), {(4u << 16) | kOpExecutionMode, entry, kModeSignedZeroInfNanPreserve, width});
      }
      modes_at = i + words;
    }
    i += words;
  }
  if (modes.empty()) return out;
  if (denorm_preserve_widths) caps.insert(caps.end(), {(2u << 16) | kOpCapability, kCapDenormPreserve});
  if (signed_zero_inf_nan_widths) caps.insert(caps.end(), {(2u << 16) | kOpCapability, kCapSignedZeroInfNanPreserve});
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(modes_at), modes.begin(), modes.end());
  out.insert(out.begin() + 5, caps.begin(), caps.end());
  return out;
}

VkPipeline VulkanDevice::Pipeline(const std::string& shader, const std::vector<uint32_t>& constants) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_pair(shader, constants);
  if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
  const std::span<const uint32_t> embedded = FindShader(shader);
  if (embedded.empty()) throw NotSupportedError(StrCat("gpu device: this build has no shader '", shader, "'"));
  const bool float_controls = !DisabledByEnvironment("float_controls");
  const std::vector<uint32_t> code =
      WithFloatControls(embedded, float_controls ? features_.denorm_preserve_widths : 0u,
                        float_controls ? features_.signed_zero_inf_nan_widths : 0u);
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = code.size() * 4;
  smci.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult r = vk_->vkCreateShaderModule(device_, &smci, nullptr, &module);
  if (r != VK_SUCCESS)
    throw OperationError(StrCat("gpu device: vkCreateShaderModule('", shader, "') failed: ", VkResultName(r)));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = module;
  cpci.stage.pName = "main";
  std::vector<VkSpecializationMapEntry> entries(constants.size());
  for (uint32_t i = 0; i < constants.size(); ++i) entries[i] = {i, i * 4, 4};
  const VkSpecializationInfo spec{static_cast<uint32_t>(entries.size()), entries.data(), constants.size() * 4,
                                  constants.data()};
  if (!constants.empty()) cpci.stage.pSpecializationInfo = &spec;
  cpci.layout = pipeline_layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  r = vk_->vkCreateComputePipelines(device_, pipeline_cache_, 1, &cpci, nullptr, &pipeline);
  vk_->vkDestroyShaderModule(device_, module, nullptr);
  if (r != VK_SUCCESS)
    throw OperationError(StrCat("gpu device: creating the pipeline of '", shader, "' failed: ", VkResultName(r)));
  pipelines_[std::move(key)] = pipeline;
  return pipeline;
}

VkCommandBuffer VulkanDevice::AllocateCommandBuffer() {
  std::lock_guard<std::mutex> lock(mutex_);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = command_pool_;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  Check(vk_->vkAllocateCommandBuffers(device_, &cbai, &cmd), "vkAllocateCommandBuffers");
  return cmd;
}

void VulkanDevice::FreeCommandBuffer(VkCommandBuffer cmd) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cmd) vk_->vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
}

void VulkanDevice::Submit(VkCommandBuffer cmd) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lost_) Check(VK_ERROR_DEVICE_LOST, "vkQueueSubmit");
  if (injected_ != VK_SUCCESS && !inject_on_allocation_) {
    const VkResult r = injected_;
    injected_ = VK_SUCCESS;
    Check(r, "vkQueueSubmit (injected fault)");
  }
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  Check(vk_->vkResetFences(device_, 1, &fence_), "vkResetFences");
  Check(vk_->vkQueueSubmit(queue_, 1, &si, fence_), "vkQueueSubmit");
  // Bounded wait: a hung device is reported as lost instead of hanging the
  // caller. GPU drivers reset a hung queue within seconds themselves; the
  // bound is for implementations without such a watchdog, and it is long
  // because lavapipe on a loaded 2-core machine takes over a minute for
  // PP-OCR det at 640x640 (WEBNN_GPU_FENCE_TIMEOUT_S overrides it).
  static const uint64_t timeout_s = [] {
    const char* s = std::getenv("WEBNN_GPU_FENCE_TIMEOUT_S");
    const long v = s ? std::strtol(s, nullptr, 10) : 0;
    return v > 0 ? static_cast<uint64_t>(v) : uint64_t{600};
  }();
  const VkResult r = vk_->vkWaitForFences(device_, 1, &fence_, VK_TRUE, timeout_s * 1000 * 1000 * 1000);
  if (r == VK_TIMEOUT) {
    Check(VK_ERROR_DEVICE_LOST,
          StrCat("vkWaitForFences (no progress in ", timeout_s, " s; WEBNN_GPU_FENCE_TIMEOUT_S)").c_str());
  }
  Check(r, "vkWaitForFences");
}

void VulkanDevice::SubmitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBuffer cmd = AllocateCommandBuffer();
  struct Free {
    VulkanDevice* d;
    VkCommandBuffer c;
    ~Free() { d->FreeCommandBuffer(c); }
  } free_later{this, cmd};
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  Check(vk_->vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
  record(cmd);
  Check(vk_->vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  Submit(cmd);
}

}  // namespace webnn::ops::gpu

namespace webnn::ops::gpu {

double VulkanDevice::TimedSubmitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  const VulkanApi& vk = *vk_;
  if (features_.timestamps && !timestamps_) {
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2;
    Check(vk.vkCreateQueryPool(device_, &qpci, nullptr, &timestamps_), "vkCreateQueryPool");
  }
  const auto start = std::chrono::steady_clock::now();
  SubmitAndWait([&](VkCommandBuffer cmd) {
    if (timestamps_) {
      vk.vkCmdResetQueryPool(cmd, timestamps_, 0, 2);
      vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 0);
    }
    record(cmd);
    if (timestamps_) vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 1);
  });
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!timestamps_) return wall_ms;
  uint64_t ticks[2] = {0, 0};
  Check(vk.vkGetQueryPoolResults(device_, timestamps_, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  return static_cast<double>(ticks[1] - ticks[0]) * features_.timestamp_period_ns * 1e-6;
}

}  // namespace webnn::ops::gpu
