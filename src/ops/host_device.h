// Shared base of the devices whose memory is host memory (reference, cpu):
// accounted host buffers, memcpy upload/download, and a program runner that
// calls one kernel per step.
#pragma once

#include <memory>

#include "memory/constant_bytes.h"
#include "memory/host_memory.h"
#include "memory/workspace.h"
#include "ops/device.h"
#include "ops/kernel.h"

namespace webnn::ops {

class HostBuffer final : public DeviceBuffer {
 public:
  HostBuffer(size_t bytes, std::string_view what, const memory::Account& account)
      : DeviceBuffer(bytes), block_(bytes, what, account) {}
  std::byte* host_data() override { return block_.data(); }

 private:
  memory::HostBlock block_;
};

// Read-only view of shared host bytes (constants); nothing is copied. The
// bytes may be a read-only file mapping: kernels never write constants.
class SharedHostBuffer final : public DeviceBuffer {
 public:
  explicit SharedHostBuffer(std::shared_ptr<const memory::ConstantBytes> data)
      : DeviceBuffer(data->size()), data_(std::move(data)) {}
  std::byte* host_data() override { return const_cast<std::byte*>(data_->data()); }
  void ReleaseResidentPages() override { data_->ReleaseResidentPages(); }

 private:
  std::shared_ptr<const memory::ConstantBytes> data_;
};

class HostDevice : public Device {
 public:
  std::shared_ptr<DeviceBuffer> Allocate(size_t bytes, std::string_view what,
                                         const memory::Account& account) override;
  void Upload(DeviceBuffer& buffer, size_t offset, std::span<const std::byte> data) override;
  void Download(DeviceBuffer& buffer, size_t offset, std::span<std::byte> data, core::ParallelFor& parallel) override;
  std::shared_ptr<DeviceBuffer> ConstantBuffer(std::shared_ptr<const memory::ConstantBytes> data,
                                               const std::shared_ptr<memory::Ledger>& ledger) override;
  bool SharesConstantBytes() const override { return true; }
  bool HostMemory() const override { return true; }
  std::unique_ptr<DeviceProgram> Compile(const Program& program,
                                         std::span<const std::shared_ptr<DeviceBuffer>> constants,
                                         const std::shared_ptr<memory::Ledger>& ledger) override;

  // A step's kernel and what it prepared at compile time.
  struct CompiledStep {
    KernelFn run = nullptr;
    std::shared_ptr<const void> prepared;
    // Bytes `prepared` holds (packed weights, tables): charged to the
    // program's ledger as constants (packed).
    uint64_t prepared_bytes = 0;
    // Input slots (bit i: step input i) that `prepared` holds a packed copy of
    // and the kernel never reads at run: once every reader of a constant has
    // packed it, its bytes are released.
    uint32_t packed_inputs = 0;
    // The kernel's scratch (memory::Scratch) at the step's maximum shapes.
    memory::WorkspaceSize workspace;
  };

  // Chooses and prepares the kernel of one step at compile time. `constants`
  // holds the buffers of the program's constant values (null for others).
  // Throws NotSupportedError if the device cannot run the step.
  virtual CompiledStep CompileStep(const Program& program, const ProgramStep& step,
                                   std::span<const std::shared_ptr<DeviceBuffer>> constants) const = 0;
};

// Builds the kernel's views of a step's operands for one run.
void MakeTensorViews(const Program& program, const ProgramStep& step, std::span<const ValueBinding> values,
                     std::vector<TensorView>& inputs, std::vector<TensorView>& outputs);

}  // namespace webnn::ops
