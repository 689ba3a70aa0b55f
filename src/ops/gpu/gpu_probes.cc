#include "ops/gpu/gpu_probes.h"

#include <algorithm>
#include <cstring>

#include "ops/gpu/gpu_device.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/vulkan_device.h"

namespace webnn::ops::gpu {
namespace {

// One dispatch of `shader` over `buffers` (bindings 1, 2, ...), timed.
double TimeProbe(VulkanDevice& dev, const char* shader, const std::vector<VulkanBuffer*>& buffers,
                 const std::vector<uint32_t>& kernel_params, uint32_t groups) {
  const VulkanApi& vk = dev.vk();
  std::vector<uint32_t> params(kParamHeaderWords, 0);  // every binding at offset 0
  params.insert(params.end(), kernel_params.begin(), kernel_params.end());
  VulkanBuffer p = dev.CreateBuffer(params.size() * 4, true, "probe parameters");
  std::memcpy(p.mapped, params.data(), params.size() * 4);
  std::vector<VkDescriptorBufferInfo> infos{{p.buffer, 0, VK_WHOLE_SIZE}};
  for (VulkanBuffer* b : buffers) infos.push_back({b->buffer, 0, VK_WHOLE_SIZE});
  std::vector<VkWriteDescriptorSet> writes(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  const VkPipeline pipeline = dev.Pipeline(shader);
  double ms = 0;
  try {
    ms = dev.TimedSubmitAndWait([&](VkCommandBuffer cmd) {
      vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, dev.pipeline_layout(), 0,
                                   static_cast<uint32_t>(writes.size()), writes.data());
      vk.vkCmdDispatch(cmd, groups, 1, 1);
    });
  } catch (...) {
    dev.DestroyBuffer(p);
    throw;
  }
  dev.DestroyBuffer(p);
  return ms;
}

constexpr double kMinMs = 20;  // long enough for timer resolution and clock ramp-up
constexpr int kRuns = 5;

double ProbeFma(VulkanDevice& dev) {
  uint32_t groups = 64, iterations = 256;
  VulkanBuffer out = dev.CreateBuffer(uint64_t{65535} * 256 * 4, false, "the FMA probe");
  const std::vector<VulkanBuffer*> buffers{&out};
  const std::vector<uint32_t> base{0, FloatBits(0.999f), FloatBits(1e-3f)};
  auto run = [&] {
    std::vector<uint32_t> params = base;
    params[0] = iterations;
    return TimeProbe(dev, "probe_fma", buffers, params, groups);
  };
  // Grow the grid first (to fill the device), then the loop.
  double ms = run();
  while (ms < kMinMs) {
    if (groups < 16384) groups *= 4;
    else iterations *= 2;
    ms = run();
  }
  double best = 0;
  for (int r = 0; r < kRuns; ++r) best = std::max(best, 64.0 * iterations * groups * 256 / (run() * 1e6));
  dev.DestroyBuffer(out);
  return best;
}

double ProbeCopy(VulkanDevice& dev) {
  // 256 MiB each way on a GPU (beyond any cache), 64 MiB on a CPU implementation.
  const uint64_t bytes = std::min<uint64_t>(dev.is_cpu() ? 64u << 20 : 256u << 20,
                                            dev.features().max_storage_buffer_range / 16 * 16);
  VulkanBuffer a = dev.CreateBuffer(bytes, false, "the copy probe"), o = dev.CreateBuffer(bytes, false, "the copy probe");
  const std::vector<VulkanBuffer*> buffers{&a, &o};
  const uint32_t vec4s = static_cast<uint32_t>(bytes / 16);
  double best = 0;
  for (int r = 0; r < kRuns; ++r)
    best = std::max(best, 2.0 * bytes / (TimeProbe(dev, "probe_copy", buffers, {vec4s}, GridFor(vec4s)[0]) * 1e6));
  dev.DestroyBuffer(a);
  dev.DestroyBuffer(o);
  return best;
}

double ProbeCoopMat(VulkanDevice& dev) {
  bool has = dev.features().subgroup_size == 32;
  bool shape = false;
  for (const VulkanFeatures::CoopMatShape& c : dev.features().coopmat_f16_f32) shape |= c.m == 16 && c.n == 16 && c.k == 16;
  if (!has || !shape) return 0;
  uint32_t groups = 64, iterations = 256;
  VulkanBuffer out = dev.CreateBuffer(uint64_t{16384} * 8 * 256 * 4, false, "the cooperative-matrix probe");
  VulkanBuffer in = dev.CreateBuffer(512 * 2, false, "the cooperative-matrix probe");
  const std::vector<VulkanBuffer*> buffers{&out, &in};
  auto run = [&] { return TimeProbe(dev, "probe_coopmat", buffers, {iterations}, groups); };
  double ms = run();
  while (ms < kMinMs) {
    if (groups < 16384) groups *= 4;
    else iterations *= 2;
    ms = run();
  }
  // 8 subgroups per workgroup, 8 products of 2 * 16^3 flops per iteration.
  double best = 0;
  for (int r = 0; r < kRuns; ++r) best = std::max(best, 8.0 * 8 * 8192 * iterations * groups / (run() * 1e6));
  dev.DestroyBuffer(out);
  dev.DestroyBuffer(in);
  return best;
}

}  // namespace

std::optional<GpuPeak> MeasureGpuPeak(Device& device) {
  VulkanDevice* dev = VulkanOf(device);
  if (!dev) return std::nullopt;
  return GpuPeak{ProbeFma(*dev), ProbeCopy(*dev), ProbeCoopMat(*dev)};
}

}  // namespace webnn::ops::gpu
