#include "ops/host_device.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
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

void HostDevice::Download(DeviceBuffer& buffer, size_t offset, std::span<std::byte> data,
                          core::ParallelFor& parallel) {
  if (offset + data.size() > buffer.size()) throw OperationError("download past the end of a buffer");
  memory::CopyOut(data.data(), buffer.host_data() + offset, data.size(), parallel);
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
    v.unrounded = b.unrounded;
    return v;
  };
  inputs.clear();
  outputs.clear();
  for (int32_t id : step.inputs) inputs.push_back(view(id));
  for (int32_t id : step.outputs) outputs.push_back(view(id));
}

namespace {

// A constant value the program has no bytes for yet (a weightless constant
// not bound): the steps reading it wait (HostProgram::BindConstant).
bool Missing(const Program& program, std::span<const std::shared_ptr<DeviceBuffer>> constants, int32_t v) {
  return v >= 0 && program.values[v].kind == ProgramValue::Kind::kConstant && !constants[v];
}

// Steps are prepared (weights packed) as soon as every constant they read has
// bytes: at Compile for most graphs; for a weightless constant when it is
// bound, so a streamed weight is packed, and its raw bytes released, while the
// next one streams in (webnn#901).
class HostProgram final : public DeviceProgram {
 public:
  HostProgram(const HostDevice& device, const Program& program, std::shared_ptr<memory::Ledger> ledger)
      : device_(device),
        program_(program),
        steps_(program.steps.size()),
        packed_(program.steps.size()),
        ledger_(std::move(ledger)) {
    for (const ProgramStep& step : program_.steps)
      for (int32_t v : step.inputs)
        if (v >= 0 && program_.values[v].kind == ProgramValue::Kind::kConstant) ++pending_readers_[v];
  }

  // Prepares the steps that read `value` (or, with value < 0, every step)
  // whose constants all have bytes. All or nothing: when one step fails (no
  // kernel, over the memory limit) the steps prepared by this call are undone.
  void PrepareReady(int32_t value, std::span<const std::shared_ptr<DeviceBuffer>> constants) {
    std::vector<size_t> done;
    try {
      for (size_t s = 0; s < program_.steps.size(); ++s) {
        const ProgramStep& step = program_.steps[s];
        if (steps_[s].run) continue;
        if (value >= 0 && std::find(step.inputs.begin(), step.inputs.end(), value) == step.inputs.end()) continue;
        if (std::any_of(step.inputs.begin(), step.inputs.end(),
                        [&](int32_t v) { return Missing(program_, constants, v); }))
          continue;
        Prepare(s, constants);
        done.push_back(s);
        // Once the last reader has packed a constant its pages are released
        // at once, before the next step packs, so packing a chain of weights
        // holds one raw weight at a time (1 GiB of float32 matmul weights:
        // peak 1.0x + one layer, not 2x). Only a hint: undoing the step
        // below leaves the bytes readable.
        for (int32_t v : step.inputs)
          if (v >= 0 && program_.values[v].kind == ProgramValue::Kind::kConstant && !ReadsConstant(v))
            constants[v]->ReleaseResidentPages();
      }
    } catch (...) {
      for (size_t s : done) Unprepare(s);
      throw;
    }
  }

  void BindConstant(size_t value, std::span<const std::shared_ptr<DeviceBuffer>> constants) override {
    PrepareReady(static_cast<int32_t>(value), constants);
  }

  // A constant is read at run by a step that did not pack it, or by a step
  // not prepared yet (which may not pack it).
  bool ReadsConstant(size_t value) const override {
    return pending_readers_.count(static_cast<int32_t>(value)) || reads_constant_.count(static_cast<int32_t>(value));
  }

  void Run(std::span<const ValueBinding> values, core::ParallelFor& parallel, std::span<double> step_ms) override {
    memory::WorkspaceScope workspace(WorkspaceFor(parallel.NumThreads()));
    std::vector<TensorView> inputs, outputs;
    for (size_t s = 0; s < program_.steps.size(); ++s) {
      if (s) parallel.Yield();  // latency work may run between ops of throughput work
      const auto start = std::chrono::steady_clock::now();
      const ProgramStep& step = program_.steps[s];
      if (!steps_[s].run) throw InvalidStateError(core::StrCat(OpName(step.op), ": a constant it reads has no data"));
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
      if (!step_ms.empty())
        step_ms[s] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
  }

 private:
  void Prepare(size_t s, std::span<const std::shared_ptr<DeviceBuffer>> constants) {
    const ProgramStep& step = program_.steps[s];
    HostDevice::CompiledStep compiled = device_.CompileStep(program_, step, constants);
    if (compiled.run == nullptr)
      throw NotSupportedError(core::StrCat("device '", device_.name(), "' has no kernel for ", OpName(step.op)));
    // Charged once packed (the packing knows its size): over the limit, the
    // packed copy is freed as this throws, before the next step packs.
    if (compiled.prepared_bytes != 0)
      packed_[s] = memory::Charge(ledger_, memory::Place::kHost, memory::Category::kConstantsPacked,
                                  compiled.prepared_bytes,
                                  core::StrCat("packing the weights of ", OpName(step.op),
                                               step.label.empty() ? "" : " '", step.label,
                                               step.label.empty() ? "" : "'"));
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      const int32_t v = step.inputs[i];
      if (v < 0 || program_.values[v].kind != ProgramValue::Kind::kConstant) continue;
      if (--pending_readers_[v] == 0) pending_readers_.erase(v);
      const bool is_packed = compiled.prepared && i < 32 && (compiled.packed_inputs >> i & 1u);
      if (!is_packed) ++reads_constant_[v];
    }
    steps_[s] = std::move(compiled);
    need_changed_ = true;
  }

  void Unprepare(size_t s) {
    const ProgramStep& step = program_.steps[s];
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      const int32_t v = step.inputs[i];
      if (v < 0 || program_.values[v].kind != ProgramValue::Kind::kConstant) continue;
      ++pending_readers_[v];
      const bool is_packed = steps_[s].prepared && i < 32 && (steps_[s].packed_inputs >> i & 1u);
      if (!is_packed && --reads_constant_[v] == 0) reads_constant_.erase(v);
    }
    steps_[s] = {};
    packed_[s].Reset();
    need_changed_ = true;
  }

  // The kernels' scratch for `workers` threads: the largest any step
  // declared, allocated at the first run (and again if a step bound later
  // declared more). Charged as workspace; over the limit, the run fails
  // before any kernel starts. Always set, even empty: scratch a kernel did
  // not declare is an error, not memory of its own.
  memory::Workspace* WorkspaceFor(size_t workers) {
    if (need_changed_) {
      need_ = {};
      for (const HostDevice::CompiledStep& step : steps_) need_.Max(step.workspace);
      need_changed_ = false;
    }
    const memory::WorkspaceSize& need = need_;
    if (!workspace_ || workspace_->workers() != workers || workspace_->size().shared < need.shared ||
        workspace_->size().per_worker < need.per_worker) {
      workspace_.reset();  // the old one's charge goes first
      workspace_ = std::make_unique<memory::Workspace>(need, workers,
                                                       memory::Account{ledger_, memory::Category::kWorkspace});
    }
    return workspace_.get();
  }

  const HostDevice& device_;  // outlives the program (scheduler::Executable holds both)
  Program program_;
  std::vector<HostDevice::CompiledStep> steps_;  // run == nullptr: not prepared yet
  std::vector<memory::Charge> packed_;           // per step: what its prepared data holds
  std::shared_ptr<memory::Ledger> ledger_;
  std::map<int32_t, uint32_t> pending_readers_;  // constant value -> steps not prepared yet
  std::map<int32_t, uint32_t> reads_constant_;   // constant value -> prepared steps that read its bytes
  memory::WorkspaceSize need_;  // the largest step's (recomputed when steps are prepared or undone)
  bool need_changed_ = true;
  std::unique_ptr<memory::Workspace> workspace_;
};

}  // namespace

std::unique_ptr<DeviceProgram> HostDevice::Compile(const Program& program,
                                                   std::span<const std::shared_ptr<DeviceBuffer>> constants,
                                                   const std::shared_ptr<memory::Ledger>& ledger) {
  auto p = std::make_unique<HostProgram>(*this, program, ledger);
  p->PrepareReady(-1, constants);
  return p;
}

}  // namespace webnn::ops
