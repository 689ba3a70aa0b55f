#include "ops/host_device.h"

#include <cstring>
#include <new>

#include "core/strings.h"

namespace webnn::ops {

std::shared_ptr<DeviceBuffer> HostDevice::Allocate(size_t bytes, std::string_view what,
                                                   const memory::Account& account) {
  return std::make_shared<HostBuffer>(bytes, what, account);
}

std::shared_ptr<DeviceBuffer> HostDevice::ConstantBuffer(std::shared_ptr<const memory::ConstantBytes> data,
                                                         const std::shared_ptr<memory::Ledger>&) {
  return std::make_shared<SharedHostBuffer>(std::move(data));
}

void HostDevice::Upload(DeviceBuffer& buffer, size_t offset, std::span<const std::byte> data) {
  if (offset + data.size() > buffer.size()) throw OperationError("upload past the end of a buffer");
  if (!data.empty()) std::memcpy(buffer.host_data() + offset, data.data(), data.size());
}

void HostDevice::Download(DeviceBuffer& buffer, size_t offset, std::span<std::byte> data) {
  if (offset + data.size() > buffer.size()) throw OperationError("download past the end of a buffer");
  if (!data.empty()) std::memcpy(data.data(), buffer.host_data() + offset, data.size());
}

void MakeTensorViews(const Program& program, const ProgramStep& step, std::span<const ValueBinding> values,
                     std::vector<TensorView>& inputs, std::vector<TensorView>& outputs) {
  auto view = [&](int32_t id) {
    TensorView v;
    if (id < 0) return v;
    const ValueBinding& b = values[id];
    v.type = program.values[id].desc.type;
    v.shape = b.shape;
    v.data = b.buffer->host_data() + b.offset;
    return v;
  };
  inputs.clear();
  outputs.clear();
  for (int32_t id : step.inputs) inputs.push_back(view(id));
  for (int32_t id : step.outputs) outputs.push_back(view(id));
}

namespace {

class HostProgram final : public DeviceProgram {
 public:
  HostProgram(const Program& program, std::vector<HostDevice::CompiledStep> steps,
              std::shared_ptr<memory::Ledger> ledger, std::vector<memory::Charge> packed,
              std::vector<bool> reads_constant)
      : program_(program),
        steps_(std::move(steps)),
        ledger_(std::move(ledger)),
        packed_(std::move(packed)),
        reads_constant_(std::move(reads_constant)) {}

  bool ReadsConstant(size_t value) const override { return reads_constant_.at(value); }

  void Run(std::span<const ValueBinding> values, core::ParallelFor& parallel) override {
    // Kernel scratch that grows in this run is charged to the program's
    // ledger (the thread pool passes it on to its workers).
    memory::WorkspaceScope workspace(ledger_.get());
    std::vector<TensorView> inputs, outputs;
    for (size_t s = 0; s < program_.steps.size(); ++s) {
      if (s) parallel.Yield();  // latency work may run between ops of throughput work
      const ProgramStep& step = program_.steps[s];
      MakeTensorViews(program_, step, values, inputs, outputs);
      KernelContext ctx{step.op, *step.attrs, inputs, outputs, parallel, steps_[s].prepared.get()};
      try {
        steps_[s].run(ctx);
      } catch (const std::bad_alloc&) {
        // A kernel's scratch memory (e.g. the reference kernels' float64
        // copies): the spec's error for exhausted resources, naming the step.
        throw QuotaExceededError(core::StrCat("out of memory running ", OpName(step.op),
                                              step.label.empty() ? "" : " '", step.label,
                                              step.label.empty() ? "" : "'"));
      }
    }
  }

 private:
  Program program_;
  std::vector<HostDevice::CompiledStep> steps_;
  std::shared_ptr<memory::Ledger> ledger_;
  std::vector<memory::Charge> packed_;  // what steps_' prepared data holds
  std::vector<bool> reads_constant_;  // per value
};

}  // namespace

std::unique_ptr<DeviceProgram> HostDevice::Compile(const Program& program,
                                                   std::span<const std::shared_ptr<DeviceBuffer>> constants,
                                                   const std::shared_ptr<memory::Ledger>& ledger) {
  // Readers of each constant not compiled yet, and whether one reads its
  // bytes at run. Once the last reader has packed a constant its pages are
  // released at once, so packing a chain of weights holds one raw weight at a
  // time (1 GiB of float32 matmul weights: peak 1.0x + one layer, not 2x).
  const size_t n = program.values.size();
  std::vector<uint32_t> readers(n, 0);
  std::vector<bool> reads_constant(n, false);
  for (const ProgramStep& step : program.steps)
    for (int32_t v : step.inputs)
      if (v >= 0 && program.values[v].kind == ProgramValue::Kind::kConstant) ++readers[v];
  std::vector<CompiledStep> steps;
  std::vector<memory::Charge> packed;
  for (const ProgramStep& step : program.steps) {
    CompiledStep compiled = CompileStep(program, step, constants);
    if (compiled.run == nullptr)
      throw NotSupportedError(core::StrCat("device '", name(), "' has no kernel for ", OpName(step.op)));
    // Charged once packed (the packing knows its size): over the limit, the
    // packed copy is freed as this throws, before the next step packs.
    if (compiled.prepared_bytes != 0)
      packed.emplace_back(ledger, memory::Place::kHost, memory::Category::kConstantsPacked, compiled.prepared_bytes,
                          core::StrCat("packing the weights of ", OpName(step.op),
                                       step.label.empty() ? "" : " '", step.label, step.label.empty() ? "" : "'"));
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      const int32_t v = step.inputs[i];
      if (v < 0 || program.values[v].kind != ProgramValue::Kind::kConstant) continue;
      const bool is_packed = compiled.prepared && i < 32 && (compiled.packed_inputs >> i & 1u);
      if (!is_packed) reads_constant[v] = true;
      if (--readers[v] == 0 && !reads_constant[v] && constants[v]) constants[v]->ReleaseResidentPages();
    }
    steps.push_back(std::move(compiled));
  }
  return std::make_unique<HostProgram>(program, std::move(steps), ledger, std::move(packed), std::move(reads_constant));
}

}  // namespace webnn::ops
