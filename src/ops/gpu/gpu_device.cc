#include "ops/gpu/gpu_device.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "core/strings.h"
#include "memory/host_memory.h"
#include "ops/gpu/fused_elementwise_limits.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/gpu/vulkan_device.h"

namespace webnn::ops {
namespace gpu {
namespace {

using core::StrCat;

// Whether float16 products run on cooperative matrices: where the device has
// them (HasCoopMatF16), unless WEBNN_GPU_DISABLE names coopmat.
bool CoopMatF16(const VulkanDevice& device) {
  return HasCoopMatF16(device.features()) && !DisabledByEnvironment("coopmat");
}

std::atomic<uint64_t> next_buffer_serial{1};

class GpuBuffer final : public DeviceBuffer {
 public:
  // Charged to `account` on the gpu before the memory is allocated.
  GpuBuffer(std::shared_ptr<VulkanDevice> device, uint64_t bytes, bool host_visible, std::string_view what,
            const memory::Account& account)
      : DeviceBuffer(bytes), charge_(account.ledger, memory::Place::kGpu, account.category, bytes, what),
        device_(std::move(device)), memory_(device_->CreateBuffer(bytes, host_visible, what)),
        serial_(next_buffer_serial++) {}
  ~GpuBuffer() override { device_->DestroyBuffer(memory_); }
  const VulkanBuffer& memory() const { return memory_; }
  // Unique for the process: recorded command buffers are keyed by it (Vulkan
  // handles may be reused after a buffer is destroyed).
  uint64_t serial() const { return serial_; }

 private:
  memory::Charge charge_;
  std::shared_ptr<VulkanDevice> device_;
  VulkanBuffer memory_;
  uint64_t serial_;
};

GpuBuffer& AsGpu(DeviceBuffer& b) {
  auto* g = dynamic_cast<GpuBuffer*>(&b);
  if (!g) throw OperationError("gpu device: a buffer of another device was bound");
  return *g;
}

// Bytes per element as shaders address them: packed 4-bit types are addressed
// by byte.
uint64_t AddressUnit(DataType t) {
  if (t == DataType::kInt4 || t == DataType::kUint4) return 1;
  return ByteLengthFor(t, 1);
}

std::string FeatureFor(DataType t) {
  switch (t) {
    case DataType::kFloat16: return "shaderFloat16 and storageBuffer16BitAccess";
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt4:
    case DataType::kUint4: return "shaderInt8 and storageBuffer8BitAccess";
    case DataType::kInt64:
    case DataType::kUint64: return "shaderInt64";
    default: return "a kernel";
  }
}

struct Range {
  uint64_t serial, begin, end;
  bool Overlaps(const Range& o) const { return serial == o.serial && begin < o.end && o.begin < end; }
};

class GpuProgram final : public DeviceProgram {
 public:
  GpuProgram(std::shared_ptr<VulkanDevice> device, const Program& program, std::shared_ptr<memory::Ledger> ledger)
      : device_(std::move(device)), program_(program), ledger_(std::move(ledger)) {}
  ~GpuProgram() override {
    if (cmd_) device_->FreeCommandBuffer(cmd_);
    if (timestamps_) device_->vk().vkDestroyQueryPool(device_->device(), timestamps_, nullptr);
  }

  // Plans every step at the program's build-time shapes, so that an
  // unsupported case is reported by build(), not by the first dispatch.
  void CheckPlans() {
    std::vector<ValueBinding> values(program_.values.size());
    for (size_t v = 0; v < values.size(); ++v) values[v].shape = core::Sizes(program_.values[v].desc.shape);
    std::vector<GpuOperand> ins, outs;
    for (const ProgramStep& step : program_.steps) PlanStep(step, values, ins, outs);
  }

  void Run(std::span<const ValueBinding> values, core::ParallelFor&, std::span<double> step_ms) override {
    const bool profile = !step_ms.empty() && device_->features().timestamps;
    std::vector<uint64_t> signature{profile ? 1u : 0u};
    for (const ValueBinding& b : values) {
      signature.push_back(AsGpu(*b.buffer).serial());
      signature.push_back(b.offset);
      signature.insert(signature.end(), b.shape.begin(), b.shape.end());
      signature.push_back(UINT64_MAX);
    }
    if (!cmd_ || signature != signature_) {
      Record(values, profile);
      signature_ = std::move(signature);
    }
    device_->Submit(cmd_);
    if (!step_ms.empty()) {
      std::fill(step_ms.begin(), step_ms.end(), std::numeric_limits<double>::quiet_NaN());  // no timestamps
      if (profile) {
        // Timestamp s + 1 follows step s (behind a barrier), so a step's time
        // is the difference of its neighbours.
        const size_t n = program_.steps.size();
        std::vector<uint64_t> ticks(n + 1);
        device_->Check(device_->vk().vkGetQueryPoolResults(device_->device(), timestamps_, 0, static_cast<uint32_t>(n + 1),
                                                           ticks.size() * 8, ticks.data(), 8,
                                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                       "vkGetQueryPoolResults");
        for (size_t s = 0; s < n; ++s)
          step_ms[s] = static_cast<double>(ticks[s + 1] - ticks[s]) * device_->features().timestamp_period_ns * 1e-6;
      }
    }
  }

 private:
  GpuPlan PlanStep(const ProgramStep& step, std::span<const ValueBinding> values, std::vector<GpuOperand>& ins,
                   std::vector<GpuOperand>& outs) const {
    auto operand = [&](int32_t id) {
      GpuOperand o;
      if (id < 0) {
        o.present = false;
        return o;
      }
      o.type = program_.values[id].desc.type;
      o.shape = values[id].shape;
      return o;
    };
    ins.clear();
    outs.clear();
    for (int32_t id : step.inputs) ins.push_back(operand(id));
    for (int32_t id : step.outputs) outs.push_back(operand(id));
    const GpuKernelEntry kernel = FindGpuKernel(step.op);
    if (!kernel.plan) throw NotSupportedError(StrCat("gpu device: no kernel for ", OpName(step.op)));
    return kernel.plan(GpuStepInfo{step.op, *step.attrs, ins, outs, device_->features().max_storage_buffer_range,
                                   device_->is_cpu(), CoopMatF16(*device_)});
  }

  // `profile`: a timestamp before the first step and after each, every step
  // behind a barrier so that the times are its own.
  void Record(std::span<const ValueBinding> values, bool profile) {
    const VulkanApi& vk = device_->vk();
    const uint64_t align = std::max<uint64_t>(device_->features().min_storage_offset_alignment, 4);

    // Plan every step; collect params and scratch sizes.
    struct Planned {
      size_t step;
      GpuPlan plan;
      std::vector<uint64_t> param_offsets;  // bytes, per dispatch
    };
    std::vector<Planned> planned;
    uint64_t param_bytes = 0;
    std::vector<GpuOperand> ins, outs;
    for (size_t s = 0; s < program_.steps.size(); ++s) {
      Planned p{s, PlanStep(program_.steps[s], values, ins, outs), {}};
      for (const GpuDispatch& d : p.plan.dispatches) {
        p.param_offsets.push_back(param_bytes);
        const uint64_t words = kParamHeaderWords + d.params.size();
        param_bytes += (words * 4 + align - 1) / align * align;
      }
      if (scratch_.size() <= s) scratch_.resize(s + 1);
      auto& scratch = scratch_[s];
      scratch.resize(std::max(scratch.size(), p.plan.scratch_bytes.size()));
      for (size_t i = 0; i < p.plan.scratch_bytes.size(); ++i)
        if (!scratch[i] || scratch[i]->size() < p.plan.scratch_bytes[i])
          scratch[i] = std::make_unique<GpuBuffer>(device_, p.plan.scratch_bytes[i], false,
                                                   StrCat("scratch of ", OpName(program_.steps[s].op)),
                                                   memory::Account{ledger_, memory::Category::kWorkspace});
      planned.push_back(std::move(p));
    }
    if (!params_ || params_->size() < param_bytes)
      params_ = std::make_unique<GpuBuffer>(device_, std::max<uint64_t>(param_bytes, 256), true, "shader parameters",
                                            memory::Account{ledger_, memory::Category::kWorkspace});
    std::byte* param_memory = params_->memory().mapped;

    if (!cmd_) cmd_ = device_->AllocateCommandBuffer();
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    device_->Check(vk.vkBeginCommandBuffer(cmd_, &bi), "vkBeginCommandBuffer");
    const uint32_t queries = static_cast<uint32_t>(program_.steps.size() + 1);
    if (profile) {
      if (timestamps_ && timestamp_count_ < queries) {
        vk.vkDestroyQueryPool(device_->device(), timestamps_, nullptr);
        timestamps_ = VK_NULL_HANDLE;
      }
      if (!timestamps_) {
        VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = queries;
        device_->Check(vk.vkCreateQueryPool(device_->device(), &qpci, nullptr, &timestamps_), "vkCreateQueryPool");
        timestamp_count_ = queries;
      }
      vk.vkCmdResetQueryPool(cmd_, timestamps_, 0, queries);
      vk.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 0);
    }

    // Hazards since the last barrier: a dispatch that reads or writes what an
    // earlier one wrote, or writes what an earlier one read (arena slots are
    // reused), waits behind a barrier; independent dispatches do not.
    std::vector<Range> written, read;
    VkPipeline bound = VK_NULL_HANDLE;
    for (const Planned& p : planned) {
      const ProgramStep& step = program_.steps[p.step];
      for (size_t di = 0; di < p.plan.dispatches.size(); ++di) {
        const GpuDispatch& d = p.plan.dispatches[di];
        if (d.bindings.size() > kMaxBindings)
          throw OperationError(StrCat("gpu kernel of ", OpName(step.op), " uses more than ", kMaxBindings, " bindings"));
        std::vector<uint32_t> header(kParamHeaderWords, 0);
        std::vector<VkDescriptorBufferInfo> infos(d.bindings.size() + 1);
        std::vector<Range> reads, writes;
        for (size_t bi2 = 0; bi2 < d.bindings.size(); ++bi2) {
          const GpuBinding& b = d.bindings[bi2];
          GpuBuffer* buffer = nullptr;
          uint64_t offset = 0, bytes = 0, unit = 1;
          if (b.kind == GpuBinding::Kind::kScratch) {
            buffer = scratch_[p.step].at(b.index).get();
            bytes = buffer->size();
            offset = b.first;  // scratch is addressed in bytes
            if (b.count) bytes = b.count;
          } else {
            const auto& ids = b.kind == GpuBinding::Kind::kInput ? step.inputs : step.outputs;
            const int32_t id = ids.at(b.index);
            if (id < 0)
              throw OperationError(StrCat("gpu kernel of ", OpName(step.op), " binds an absent operand"));
            const ValueBinding& vb = values[id];
            buffer = &AsGpu(*vb.buffer);
            offset = vb.offset;
            const DataType t = program_.values[id].desc.type;
            unit = AddressUnit(t);
            bytes = ByteLengthFor(t, core::ElementCount(vb.shape));
            if (b.first || b.count) {
              // A sub-range: byte offsets of packed 4-bit types round down to the byte.
              const uint64_t count = b.count ? b.count : core::ElementCount(vb.shape) - b.first;
              const uint64_t begin = t == DataType::kInt4 || t == DataType::kUint4 ? b.first / 2 : b.first * unit;
              offset += begin;
              bytes = std::min(bytes - begin, ByteLengthFor(t, count) + (unit == 1 ? 1 : 0));
            }
          }
          const uint64_t aligned = offset / align * align;
          header[bi2] = static_cast<uint32_t>((offset - aligned) / unit);
          uint64_t range = (offset - aligned + bytes + 3) / 4 * 4;
          range = std::min(range, buffer->memory().size - aligned);
          if (range > device_->features().max_storage_buffer_range)
            throw NotSupportedError(StrCat(OpName(step.op), step.label.empty() ? "" : " [" + step.label + "]",
                                           ": an operand of ", bytes, " bytes exceeds the gpu device's ",
                                           "maxStorageBufferRange of ", device_->features().max_storage_buffer_range,
                                           " bytes, and its kernel does not split it"));
          infos[bi2 + 1] = {buffer->memory().buffer, aligned, std::max<uint64_t>(range, 4)};
          const Range r{buffer->serial(), offset, offset + std::max<uint64_t>(bytes, 1)};
          (b.kind == GpuBinding::Kind::kInput ? reads : writes).push_back(r);
        }
        // Params: header, then the kernel's words.
        std::memcpy(param_memory + p.param_offsets[di], header.data(), header.size() * 4);
        if (!d.params.empty())
          std::memcpy(param_memory + p.param_offsets[di] + header.size() * 4, d.params.data(), d.params.size() * 4);
        infos[0] = {params_->memory().buffer, p.param_offsets[di], (kParamHeaderWords + d.params.size()) * 4};

        bool hazard = profile && di == 0;  // profiling: each step starts after the previous one ends
        for (const Range& w : written)
          for (const auto* list : {&reads, &writes})
            for (const Range& r : *list) hazard |= w.Overlaps(r);
        for (const Range& r : read)
          for (const Range& w : writes) hazard |= r.Overlaps(w);
        if (hazard) {
          VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
          mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
          mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
          vk.vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                  1, &mb, 0, nullptr, 0, nullptr);
          written.clear();
          read.clear();
        }
        written.insert(written.end(), writes.begin(), writes.end());
        read.insert(read.end(), reads.begin(), reads.end());

        const VkPipeline pipeline = device_->Pipeline(d.shader, d.constants);
        if (pipeline != bound) {
          vk.vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
          bound = pipeline;
        }
        std::vector<VkWriteDescriptorSet> writes_ds(infos.size());
        for (size_t i = 0; i < infos.size(); ++i) {
          writes_ds[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
          writes_ds[i].dstBinding = static_cast<uint32_t>(i);
          writes_ds[i].descriptorCount = 1;
          writes_ds[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
          writes_ds[i].pBufferInfo = &infos[i];
        }
        vk.vkCmdPushDescriptorSetKHR(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, device_->pipeline_layout(), 0,
                                     static_cast<uint32_t>(writes_ds.size()), writes_ds.data());
        vk.vkCmdDispatch(cmd_, d.groups[0], d.groups[1], d.groups[2]);
      }
      if (profile)
        vk.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, static_cast<uint32_t>(p.step + 1));
    }
    // Make the results visible to transfers and host reads that follow.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
                            nullptr);
    device_->Check(vk.vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    device_->SaveNewPipelines();  // those this recording made, once
  }

  std::shared_ptr<VulkanDevice> device_;
  Program program_;
  std::shared_ptr<memory::Ledger> ledger_;  // charged for params_ and scratch_ (workspace)
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;  // profiling: steps + 1 timestamps
  uint32_t timestamp_count_ = 0;
  std::vector<uint64_t> signature_;
  std::unique_ptr<GpuBuffer> params_;
  std::vector<std::vector<std::unique_ptr<GpuBuffer>>> scratch_;  // per step
};

class GpuDevice final : public Device {
 public:
  explicit GpuDevice(std::unique_ptr<VulkanDevice> vulkan)
      : vulkan_(std::move(vulkan)), types_(vulkan_->SupportedTypes()), description_(vulkan_->Description()) {}

  MLDeviceType type() const override { return MLDeviceType::kGpu; }
  std::string_view name() const override { return "gpu"; }
  std::string description() const override { return description_; }
  // A CPU implementation of Vulkan (lavapipe) is no accelerator: kAuto never
  // prefers it over the cpu device.
  bool accelerated() const override { return !vulkan_->is_cpu(); }
  // Every fused form (src/ops/gpu/<family>.cc of each internal op), with
  // fusedElementwise chains as long as shaders/fused_elementwise.comp runs.
  DeviceFusions Fusions() const override {
    DeviceFusions fusions = DeviceFusions::All();
    fusions.elementwise_max_inputs = gpu::kFusedElementwiseMaxInputs;
    fusions.elementwise_max_steps = gpu::kFusedElementwiseMaxSteps;
    fusions.elementwise_upsampled = false;  // shaders/fused_elementwise.comp reads operands as they are
    return fusions;
  }
  std::string features() const override { return vulkan_->FeatureSummary(); }
  FloatBehaviour float_behaviour() const override {
    FloatBehaviour b;
    // Float controls keep float32 denormals only where the driver offers the
    // mode and WEBNN_GPU_DISABLE leaves it on; a CPU implementation keeps them.
    b.float32_denormals = vulkan_->is_cpu() || ((vulkan_->features().denorm_preserve_widths & 2u) != 0 &&
                                                !DisabledByEnvironment("float_controls"));
    b.float32_denormal_filters = b.float32_denormals;
    if (CoopMatF16(*vulkan_)) b.negative_zero_sums = DataTypeSet{MLOperandDataType::kFloat32};
    return b;
  }
  bool lost() const override { return vulkan_->lost(); }

  DataTypeSet SupportedTypes(OpKind op, bool is_output, size_t slot) const override {
    const GpuKernelEntry k = FindGpuKernel(op);
    if (!k.plan) return {};
    const OpLimits& limits = SchemaLimits(op);
    const auto& slots = is_output ? limits.outputs : limits.inputs;
    if (slot >= slots.size()) return {};
    DataTypeSet s = slots[slot].types & types_;
    if (k.types) s = s & k.types(op, is_output, slot);
    return s;
  }

  std::shared_ptr<DeviceBuffer> Allocate(size_t bytes, std::string_view what,
                                         const memory::Account& account) override {
    return std::make_shared<GpuBuffer>(vulkan_, bytes, false, what, account);
  }

  void Upload(DeviceBuffer& buffer, size_t offset, std::span<const std::byte> data) override {
    GpuBuffer& g = AsGpu(buffer);
    if (offset + data.size() > g.size()) throw OperationError("gpu device: upload past the end of a buffer");
    if (data.empty()) return;
    if (g.memory().mapped) {
      std::memcpy(g.memory().mapped + offset, data.data(), data.size());
      return;
    }
    std::lock_guard<std::mutex> lock(staging_mutex_);
    for (size_t done = 0; done < data.size();) {
      const size_t n = std::min(data.size() - done, kStagingBytes);
      VulkanBuffer& st = Staging();
      std::memcpy(st.mapped, data.data() + done, n);
      const VkBufferCopy copy{0, offset + done, n};
      vulkan_->SubmitAndWait(
          [&](VkCommandBuffer cmd) { vulkan_->vk().vkCmdCopyBuffer(cmd, st.buffer, g.memory().buffer, 1, &copy); });
      done += n;
    }
  }

  void Download(DeviceBuffer& buffer, size_t offset, std::span<std::byte> data, core::ParallelFor& parallel) override {
    GpuBuffer& g = AsGpu(buffer);
    if (offset + data.size() > g.size()) throw OperationError("gpu device: download past the end of a buffer");
    if (data.empty()) return;
    if (g.memory().mapped) {
      memory::CopyOut(data.data(), g.memory().mapped + offset, data.size(), parallel);
      return;
    }
    std::lock_guard<std::mutex> lock(staging_mutex_);
    for (size_t done = 0; done < data.size();) {
      const size_t n = std::min(data.size() - done, kStagingBytes);
      VulkanBuffer& st = Staging();
      const VkBufferCopy copy{offset + done, 0, n};
      vulkan_->SubmitAndWait(
          [&](VkCommandBuffer cmd) { vulkan_->vk().vkCmdCopyBuffer(cmd, g.memory().buffer, st.buffer, 1, &copy); });
      std::memcpy(data.data() + done, st.mapped, n);
      done += n;
    }
  }

  std::unique_ptr<DeviceProgram> Compile(const Program& program, std::span<const std::shared_ptr<DeviceBuffer>>,
                                         const std::shared_ptr<memory::Ledger>& ledger) override {
    for (const ProgramStep& step : program.steps) {
      if (!FindGpuKernel(step.op).plan)
        throw NotSupportedError(StrCat(OpName(step.op), step.label.empty() ? "" : " [" + step.label + "]",
                                       ": the gpu device has no kernel for ", OpName(step.op)));
      for (int pass = 0; pass < 2; ++pass) {
        const auto& ids = pass ? step.outputs : step.inputs;
        const auto& slots = pass ? GetSchema(step.op).outputs : GetSchema(step.op).inputs;
        for (size_t i = 0; i < ids.size(); ++i) {
          if (ids[i] < 0) continue;
          const DataType t = program.values[ids[i]].desc.type;
          // Operands past the schema's slots belong to its variadic last slot
          // (concat's inputs, split's outputs).
          const size_t slot = std::min(i, slots.empty() ? 0 : slots.size() - 1);
          if (SupportedTypes(step.op, pass == 1, slot).Contains(t)) continue;
          const bool feature = !types_.Contains(t);
          throw NotSupportedError(StrCat(OpName(step.op), step.label.empty() ? "" : " [" + step.label + "]",
                                         ": the gpu device does not run ", ToString(t), " for ",
                                         pass ? "output " : "input ", i,
                                         feature ? StrCat(" (", vulkan_->name(), " lacks ", FeatureFor(t), ")")
                                                 : std::string(" (no shader variant yet)")));
        }
      }
    }
    auto p = std::make_unique<GpuProgram>(vulkan_, program, ledger);
    p->CheckPlans();
    return p;
  }

  VulkanDevice& vulkan() { return *vulkan_; }

 private:
  static constexpr size_t kStagingBytes = 16u << 20;  // bounded staging: 16 MiB at a time
  VulkanBuffer& Staging() {
    // The device's, shared by its contexts: charged to the process ledger.
    if (!staging_)
      staging_ = std::make_unique<GpuBuffer>(vulkan_, kStagingBytes, true, "staging",
                                             memory::Account{nullptr, memory::Category::kStaging});
    return const_cast<VulkanBuffer&>(staging_->memory());
  }

  std::shared_ptr<VulkanDevice> vulkan_;
  DataTypeSet types_;
  std::string description_;
  std::mutex staging_mutex_;
  std::unique_ptr<GpuBuffer> staging_;
};

}  // namespace

VulkanDevice* VulkanOf(Device& device) {
  auto* g = dynamic_cast<GpuDevice*>(&device);
  return g ? &g->vulkan() : nullptr;
}

bool InjectGpuFault(Device& device, bool device_lost, bool on_allocation) {
  auto* g = dynamic_cast<GpuDevice*>(&device);
  if (!g) return false;
  g->vulkan().InjectFault(device_lost ? VK_ERROR_DEVICE_LOST : VK_ERROR_OUT_OF_DEVICE_MEMORY, on_allocation);
  return true;
}

}  // namespace gpu

std::shared_ptr<Device> CreateGpuDevice(std::string* why) {
  auto vulkan = gpu::VulkanDevice::Open(why);
  if (!vulkan) return nullptr;
  return std::make_shared<gpu::GpuDevice>(std::move(vulkan));
}

}  // namespace webnn::ops
