// One Vulkan physical device opened for compute: instance, logical device,
// queue, memory types, the one pipeline layout every shader uses, pipelines
// created lazily per shader name and cached (optionally on disk), and
// submit-and-wait. Knows nothing about graphs or ops.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/data_type.h"
#include "ops/gpu/vulkan_api.h"

namespace webnn::ops::gpu {

// Device-local memory the CPU maps and reads at cache speed: what makes
// memory unified (vulkan_device.cc says why HOST_CACHED is required).
inline constexpr VkMemoryPropertyFlags kUnifiedMemory =
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
    VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

struct VulkanFeatures {
  bool float16 = false;  // shaderFloat16 + storageBuffer16BitAccess
  bool int8 = false;     // shaderInt8 + storageBuffer8BitAccess
  bool int16 = false;    // shaderInt16
  bool int64 = false;    // shaderInt64
  uint32_t subgroup_size = 0;
  bool subgroup_arithmetic = false;
  uint32_t max_shared_memory = 0;
  uint32_t max_workgroup_invocations = 0;
  bool timestamps = false;
  float timestamp_period_ns = 0;
  bool cooperative_matrix = false;  // VK_KHR_cooperative_matrix advertised
  // VK_NV_cooperative_matrix, enabled with the Vulkan memory model its shaders
  // need (glslang 12, Debian 12's, compiles GL_NV_cooperative_matrix but not
  // the KHR extension). Every shape the driver offers, as "16x8x16 f16*f16+f32",
  // for `webnn info`; the f16 x f16 + f32 subgroup shapes the shaders can use.
  std::vector<std::string> coopmat_nv_shapes;
  struct CoopMatShape {
    uint32_t m, n, k;
  };
  std::vector<CoopMatShape> coopmat_f16_f32;
  uint64_t min_storage_offset_alignment = 16;
  uint64_t max_storage_buffer_range = 0;
  // Float controls (Vulkan 1.2): which widths (16, 32, 64 as bits 0, 1, 2) a
  // shader may ask to keep denormals and to honour signed zeros, infinities
  // and NaN. Pipeline() asks for both wherever offered: without the second
  // an NVIDIA driver turned `x < 0 ? 0 : x` into a max() that drops NaN and
  // -0. That driver keeps denormals for float16 only, so float32 denormals
  // may still be flushed (Device::float_behaviour).
  uint32_t denorm_preserve_widths = 0;
  uint32_t signed_zero_inf_nan_widths = 0;
  bool unified_memory = false;  // a large device-local memory type with kUnifiedMemory's properties
};

// Memory of one buffer. Mapped when the memory type is host-visible.
struct VulkanBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  std::byte* mapped = nullptr;
  uint64_t size = 0;
};

// Whether the device runs matmul_coopmat.comp and probe_coopmat.comp:
// 16x16x16 float16 cooperative matrices with float32 accumulators, in
// subgroups of 32 (the shaders' 8 per workgroup).
bool HasCoopMatF16(const VulkanFeatures& features);

// Whether WEBNN_GPU_DISABLE (a comma-separated list) names `feature`: a
// switch for A/B measurements and for stepping around a driver's fault.
// Features: coopmat (float16 products through cooperative matrices) and
// float_controls (WithFloatControls).
bool DisabledByEnvironment(std::string_view feature);

// `code` with the float-controls execution modes asked for every entry
// point: DenormPreserve and SignedZeroInfNanPreserve for the widths (16, 32,
// 64 as bits 0, 1, 2) in each mask, and their capabilities.
std::vector<uint32_t> WithFloatControls(std::span<const uint32_t> code, uint32_t denorm_preserve_widths,
                                        uint32_t signed_zero_inf_nan_widths);

class VulkanDevice {
 public:
  // Opens the device chosen by WEBNN_VULKAN_DEVICE (index or name substring)
  // or, without it, the first discrete GPU, then integrated, virtual, CPU.
  // Null with the reason in `why` when there is none that we can use.
  static std::unique_ptr<VulkanDevice> Open(std::string* why);
  ~VulkanDevice();

  const VulkanApi& vk() const { return *vk_; }
  VkDevice device() const { return device_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VulkanFeatures& features() const { return features_; }
  std::string name() const { return properties_.deviceName; }
  bool is_cpu() const { return properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }
  // "NVIDIA H100 (discrete, driver 535.x, Vulkan 1.3.260)"
  std::string Description() const;
  // Feature list for `webnn info`.
  std::string FeatureSummary() const;
  // Data types the shaders can use on this device.
  core::DataTypeSet SupportedTypes() const;

  // Device memory for a tensor; zero-filled. Throws QuotaExceededError naming
  // the size and `what` it is for when the device is out of memory,
  // OperationError when lost.
  VulkanBuffer CreateBuffer(uint64_t bytes, bool host_visible, std::string_view what);
  void DestroyBuffer(VulkanBuffer& buffer);

  // The cached pipeline of an embedded shader with its specialization
  // constants (constant_id 0, 1, ...), created on first use.
  VkPipeline Pipeline(const std::string& shader, const std::vector<uint32_t>& constants = {});
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }

  // A one-shot command buffer: `record` fills it, then it is submitted and
  // waited for. Serialized with other submissions on the queue.
  void SubmitAndWait(const std::function<void(VkCommandBuffer)>& record);
  // SubmitAndWait with the recorded commands timed: GPU time in milliseconds
  // from timestamp queries, or the wall time of the submission where the
  // queue has no timestamps.
  double TimedSubmitAndWait(const std::function<void(VkCommandBuffer)>& record);
  // Submits a recorded command buffer and waits on a fence.
  void Submit(VkCommandBuffer cmd);
  VkCommandBuffer AllocateCommandBuffer();
  void FreeCommandBuffer(VkCommandBuffer cmd);

  // Throws OperationError (lost) / QuotaExceededError (out of memory) for a failed call.
  void Check(VkResult result, const char* what);
  bool lost() const { return lost_; }

  // Fault injection for tests: the next submission reports `result`
  // (VK_ERROR_DEVICE_LOST or VK_ERROR_OUT_OF_DEVICE_MEMORY), or the next buffer
  // creation when `on_allocation`.
  void InjectFault(VkResult result, bool on_allocation);

  // Writes the pipeline cache to WEBNN_GPU_PIPELINE_CACHE when pipelines were
  // made since the last save. Called after a command buffer is recorded, not
  // at exit: the device registry outlives the driver's own teardown
  // (ops/device.cc), so no destructor runs then.
  void SaveNewPipelines();

 private:
  VulkanDevice() = default;
  bool Init(std::string* why);
  uint32_t FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid) const;
  void SavePipelineCache();

  const VulkanApi* vk_ = nullptr;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;  // two queries, created on first use
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  std::string pipeline_cache_path_;
  size_t saved_pipelines_ = 0;  // pipelines_.size() at the last save
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  VulkanFeatures features_;
  std::map<std::pair<std::string, std::vector<uint32_t>>, VkPipeline> pipelines_;
  std::mutex mutex_;  // queue, command pool, pipelines
  bool lost_ = false;
  VkResult injected_ = VK_SUCCESS;
  bool inject_on_allocation_ = false;
};

}  // namespace webnn::ops::gpu
