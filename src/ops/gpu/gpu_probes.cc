#include "ops/gpu/gpu_probes.h"

#include <algorithm>
#include <cstring>
#include <functional>

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

// The best of kRuns runs of a compute probe, in GFLOP/s: `run(groups,
// iterations)` returns milliseconds; the grid grows first (to fill the
// device, up to 16384 workgroups), then the loop, until a run takes kMinMs.
double BestRate(const std::function<double(uint32_t, uint32_t)>& run, double flops_per_group_iteration) {
  uint32_t groups = 64, iterations = 256;
  double ms = run(groups, iterations);
  while (ms < kMinMs) {
    if (groups < 16384) groups *= 4;
    else iterations *= 2;
    ms = run(groups, iterations);
  }
  double best = 0;
  for (int r = 0; r < kRuns; ++r)
    best = std::max(best, flops_per_group_iteration * groups * iterations / (run(groups, iterations) * 1e6));
  return best;
}

double ProbeFma(VulkanDevice& dev) {
  VulkanBuffer out = dev.CreateBuffer(uint64_t{16384} * 256 * 4, false, "the FMA probe");
  const std::vector<VulkanBuffer*> buffers{&out};
  const std::vector<uint32_t> base{0, FloatBits(0.999f), FloatBits(1e-3f)};
  auto run = [&](uint32_t groups, uint32_t iterations) {
    std::vector<uint32_t> params = base;
    params[0] = iterations;
    return TimeProbe(dev, "probe_fma", buffers, params, groups);
  };
  const double best = BestRate(run, 64.0 * 256);  // 256 invocations of 64 flops per iteration
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
  if (!HasCoopMatF16(dev.features())) return 0;
  VulkanBuffer out = dev.CreateBuffer(uint64_t{16384} * 8 * 256 * 4, false, "the cooperative-matrix probe");
  VulkanBuffer in = dev.CreateBuffer(512 * 2, false, "the cooperative-matrix probe");
  const std::vector<VulkanBuffer*> buffers{&out, &in};
  auto run = [&](uint32_t groups, uint32_t iterations) {
    return TimeProbe(dev, "probe_coopmat", buffers, {iterations}, groups);
  };
  const double best = BestRate(run, 8.0 * 8 * 8192);  // 8 subgroups, 8 products of 2 * 16^3 flops per iteration
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
