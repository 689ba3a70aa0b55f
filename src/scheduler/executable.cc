#include "scheduler/executable.h"

#include "core/strings.h"
#include "memory/arena.h"

namespace webnn::scheduler {

Executable::Executable(std::shared_ptr<ops::Device> device, ops::Program program,
                       std::vector<std::shared_ptr<ops::DeviceBuffer>> constants,
                       std::shared_ptr<memory::Ledger> ledger)
    : device_(std::move(device)), program_(std::move(program)), constants_(std::move(constants)),
      ledger_(std::move(ledger)) {
  // Lifetimes of intermediates: from the producing step to the last reader.
  const size_t n = program_.values.size();
  std::vector<int64_t> first(n, -1), last(n, -1);
  for (size_t s = 0; s < program_.steps.size(); ++s) {
    for (int32_t v : program_.steps[s].outputs) {
      if (first[v] < 0) first[v] = static_cast<int64_t>(s);
      last[v] = std::max<int64_t>(last[v], static_cast<int64_t>(s));
    }
    for (int32_t v : program_.steps[s].inputs)
      if (v >= 0) last[v] = std::max<int64_t>(last[v], static_cast<int64_t>(s));
  }
  std::vector<memory::BufferLifetime> lifetimes;
  std::vector<size_t> which;
  for (size_t v = 0; v < n; ++v) {
    if (program_.values[v].kind != ops::ProgramValue::Kind::kIntermediate || first[v] < 0) continue;
    const auto& desc = program_.values[v].desc;
    lifetimes.push_back({ByteLengthFor(desc.type, core::ElementCount(desc.shape)), static_cast<uint32_t>(first[v]),
                         static_cast<uint32_t>(last[v])});
    which.push_back(v);
    intermediate_bytes_ += lifetimes.back().bytes;
  }
  intermediate_count_ = which.size();
  const memory::ArenaPlan plan = memory::PlanArena(lifetimes);
  arena_offsets_.assign(n, 0);
  for (size_t i = 0; i < which.size(); ++i) arena_offsets_[which[i]] = plan.offsets[i];
  // Mapped zero pages (memory::HostBlock): a large arena commits memory as
  // the runs write it, not at build time.
  if (plan.total_bytes > 0)
    arena_ = device_->Allocate(plan.total_bytes, "build: the graph's intermediate values (arena)",
                               {ledger_, memory::Category::kIntermediates});

  released_.assign(n, false);
  for (size_t v = 0; v < n; ++v)
    if (program_.values[v].kind == ops::ProgramValue::Kind::kConstant && !constants_[v]) ++unbound_constants_;
  device_program_ = device_->Compile(program_, constants_, ledger_);
  ReleaseUnreadConstants();
}

void Executable::ReleaseUnreadConstants() {
  // A constant every reader packed needs no bytes any more; it can never be
  // bound again (BindConstant refuses a bound one), so nothing re-packs it.
  for (size_t v = 0; v < program_.values.size(); ++v) {
    if (program_.values[v].kind != ops::ProgramValue::Kind::kConstant || !constants_[v] || released_[v] ||
        device_program_->ReadsConstant(v))
      continue;
    constants_[v] = std::make_shared<ops::ReleasedConstantBuffer>(constants_[v]->size());
    released_[v] = true;
  }
}

void Executable::BindConstant(int32_t value, std::shared_ptr<ops::DeviceBuffer> buffer) {
  std::lock_guard<std::mutex> lock(run_mutex_);
  if (constants_.at(value)) throw InvalidStateError("a constant's data can be given only once");
  constants_[value] = std::move(buffer);
  try {
    device_program_->BindConstant(value, constants_);
  } catch (...) {
    constants_[value].reset();
    throw;
  }
  --unbound_constants_;
  ReleaseUnreadConstants();
}

void Executable::Run(const std::vector<ops::DeviceBuffer*>& external,
                     const std::vector<std::vector<uint32_t>>& shapes, core::ParallelFor& parallel) {
  std::lock_guard<std::mutex> lock(run_mutex_);
  if (unbound_constants_ != 0) throw InvalidStateError("the graph has constants without data");
  std::vector<ops::ValueBinding> bindings(program_.values.size());
  for (size_t v = 0; v < program_.values.size(); ++v) {
    ops::ValueBinding& b = bindings[v];
    b.shape = shapes[v];
    switch (program_.values[v].kind) {
      case ops::ProgramValue::Kind::kInput:
      case ops::ProgramValue::Kind::kOutput: b.buffer = external[v]; break;
      case ops::ProgramValue::Kind::kConstant: b.buffer = constants_[v].get(); break;
      case ops::ProgramValue::Kind::kIntermediate:
        b.buffer = arena_.get();
        b.offset = arena_offsets_[v];
        break;
    }
  }
  device_program_->Run(bindings, parallel);
}

}  // namespace webnn::scheduler
