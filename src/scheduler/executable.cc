#include "scheduler/executable.h"

#include <algorithm>
#include <limits>
#include <new>

#include "core/strings.h"
#include "memory/arena.h"
#include "webnn/webnn.h"

namespace webnn::scheduler {

namespace {

uint64_t MaxBytes(const ops::ProgramValue& v) { return ByteLengthFor(v.desc.type, core::ElementCount(v.desc.shape)); }

}  // namespace

Executable::Executable(Placement placement, ops::Program program,
                       std::vector<std::vector<std::shared_ptr<ops::DeviceBuffer>>> constants,
                       std::shared_ptr<memory::Ledger> ledger)
    : placement_(std::move(placement)), program_(std::move(program)), ledger_(std::move(ledger)) {
  constants.resize(placement_.devices.size());
  const size_t n = program_.values.size();
  for (auto& c : constants) c.resize(n);
  std::vector<bool> produced(n, false);
  for (const ops::ProgramStep& step : program_.steps)
    for (int32_t v : step.outputs) produced[v] = true;
  for (size_t v = 0; v < n; ++v) {
    const ops::ProgramValue& value = program_.values[v];
    if (value.kind == ops::ProgramValue::Kind::kIntermediate && produced[v]) {
      intermediate_bytes_ += MaxBytes(value);
      ++intermediate_count_;
    }
    if (value.kind == ops::ProgramValue::Kind::kConstant &&
        std::none_of(constants.begin(), constants.end(), [&](const auto& c) { return c[v] != nullptr; }))
      ++unbound_constants_;
  }
  CheckStepOrder();
  BuildSegments(constants);
  ReleaseUnreadConstants();
}

// Every intermediate or output a step reads is made by an earlier step: a
// graph pass that broke this would have the run read a buffer nothing wrote
// yet (one device) or find no buffer (several). Refused at build, naming it,
// not at the first dispatch.
void Executable::CheckStepOrder() const {
  using Kind = ops::ProgramValue::Kind;
  std::vector<bool> made(program_.values.size(), false);
  for (size_t s = 0; s < program_.steps.size(); ++s) {
    const ops::ProgramStep& step = program_.steps[s];
    for (int32_t v : step.inputs) {
      const Kind kind = v >= 0 ? program_.values[v].kind : Kind::kInput;
      if ((kind == Kind::kIntermediate || kind == Kind::kOutput) && !made[v])
        throw OperationError(core::StrCat("build: internal error: step ", s, " (", ops::OpName(step.op),
                                          step.label.empty() ? "" : " '", step.label, step.label.empty() ? "" : "'",
                                          ") reads value ", v, ", which no step before it computes"));
    }
    for (int32_t v : step.outputs) made[v] = true;
  }
}

void Executable::BuildSegments(std::vector<std::vector<std::shared_ptr<ops::DeviceBuffer>>>& constants) {
  using Kind = ops::ProgramValue::Kind;
  const size_t n = program_.values.size();
  // Segments: runs of consecutive steps on one device.
  std::vector<std::vector<size_t>> steps_of;
  for (size_t s = 0; s < program_.steps.size(); ++s) {
    if (segments_.empty() || segments_.back().device != placement_.step_device[s]) {
      segments_.emplace_back().device = placement_.step_device[s];
      steps_of.emplace_back();
    }
    steps_of.back().push_back(s);
  }
  std::vector<int32_t> producer(n, -1);
  std::vector<std::vector<int32_t>> readers(n);
  for (size_t i = 0; i < segments_.size(); ++i)
    for (size_t s : steps_of[i]) {
      for (int32_t v : program_.steps[s].outputs) producer[v] = static_cast<int32_t>(i);
      for (int32_t v : program_.steps[s].inputs)
        if (v >= 0 && (readers[v].empty() || readers[v].back() != static_cast<int32_t>(i)))
          readers[v].push_back(static_cast<int32_t>(i));
    }
  home_.assign(n, 0);
  for (size_t v = 0; v < n; ++v) {
    if (program_.values[v].kind != Kind::kIntermediate || producer[v] < 0) continue;
    home_[v] = segments_[producer[v]].device;
    const bool crosses = std::any_of(readers[v].begin(), readers[v].end(), [&](int32_t r) { return r != producer[v]; });
    if (crosses)
      crossing_[static_cast<int32_t>(v)] =
          placement_.devices[home_[v]]->Allocate(MaxBytes(program_.values[v]), "build: a value read on another device",
                                                 {ledger_, memory::Category::kIntermediates});
  }

  for (size_t i = 0; i < segments_.size(); ++i) {
    Segment& seg = segments_[i];
    ops::Device& device = *placement_.devices[seg.device];
    auto local = [&](int32_t v) {
      if (v < 0) return -1;
      auto [it, added] = seg.local_id.emplace(v, static_cast<int32_t>(seg.whole.size()));
      if (added) seg.whole.push_back(v);
      return it->second;
    };
    for (size_t s : steps_of[i]) {
      seg.steps.push_back(s);
      const ops::ProgramStep& whole_step = program_.steps[s];
      ops::ProgramStep step{whole_step.op, whole_step.label, whole_step.attrs, {}, {}};
      for (int32_t v : whole_step.inputs) step.inputs.push_back(local(v));
      for (int32_t v : whole_step.outputs) step.outputs.push_back(local(v));
      seg.program.steps.push_back(std::move(step));
    }
    // Its values: what it produces and keeps is intermediate, what others
    // read is output; what it reads from elsewhere is input.
    const size_t m = seg.whole.size();
    seg.program.values.resize(m);
    seg.constants.resize(m);
    seg.released.assign(m, false);
    for (size_t l = 0; l < m; ++l) {
      const int32_t v = seg.whole[l];
      ops::ProgramValue value = program_.values[v];
      const bool here = producer[v] == static_cast<int32_t>(i);
      switch (value.kind) {
        case Kind::kConstant: seg.constants[l] = constants[seg.device][v]; break;
        case Kind::kInput: break;
        case Kind::kOutput: value.kind = here ? Kind::kOutput : Kind::kInput; break;
        case Kind::kIntermediate:
          value.kind = !here ? Kind::kInput : crossing_.count(v) ? Kind::kOutput : Kind::kIntermediate;
          break;
      }
      seg.program.values[l] = value;
      if (value.kind != Kind::kInput && value.kind != Kind::kOutput) continue;
      // A value in another device's memory: a copy here, moved in or out per run.
      if (SameMemory(*placement_.devices[home_[v]], device)) continue;
      Copy copy{v, device.Allocate(MaxBytes(value), "build: a copy of a value from another device",
                                   {ledger_, memory::Category::kIntermediates})};
      seg.local_buffer[v] = copy.local.get();
      (value.kind == Kind::kInput ? seg.copy_in : seg.copy_out).push_back(std::move(copy));
      ++transfer_count_;
      transfer_bytes_ += MaxBytes(value);
    }
    // Lifetimes of its intermediates: from the producing step to the last reader.
    std::vector<int64_t> first(m, -1), last(m, -1);
    for (size_t s = 0; s < seg.program.steps.size(); ++s) {
      for (int32_t l : seg.program.steps[s].outputs) {
        if (first[l] < 0) first[l] = static_cast<int64_t>(s);
        last[l] = std::max<int64_t>(last[l], static_cast<int64_t>(s));
      }
      for (int32_t l : seg.program.steps[s].inputs)
        if (l >= 0) last[l] = std::max<int64_t>(last[l], static_cast<int64_t>(s));
    }
    std::vector<memory::BufferLifetime> lifetimes;
    std::vector<size_t> which;
    for (size_t l = 0; l < m; ++l) {
      if (seg.program.values[l].kind != Kind::kIntermediate || first[l] < 0) continue;
      lifetimes.push_back({MaxBytes(seg.program.values[l]), static_cast<uint32_t>(first[l]),
                           static_cast<uint32_t>(last[l])});
      which.push_back(l);
    }
    const memory::ArenaPlan plan = memory::PlanArena(lifetimes);
    seg.arena_offsets.assign(m, 0);
    for (size_t k = 0; k < which.size(); ++k) seg.arena_offsets[which[k]] = plan.offsets[k];
    // Mapped zero pages (memory::HostBlock): a large arena commits memory as
    // the runs write it, not at build time.
    if (plan.total_bytes > 0)
      seg.arena = device.Allocate(plan.total_bytes, "build: the graph's intermediate values (arena)",
                                  {ledger_, memory::Category::kIntermediates});
    seg.device_program = device.Compile(seg.program, seg.constants, ledger_);
  }
}

uint64_t Executable::arena_bytes() const {
  uint64_t bytes = 0;
  for (const Segment& seg : segments_) bytes += seg.arena ? seg.arena->size() : 0;
  return bytes;
}

bool Executable::constant_released(size_t value) const {
  bool any = false;
  for (const Segment& seg : segments_) {
    auto it = seg.local_id.find(static_cast<int32_t>(value));
    if (it == seg.local_id.end()) continue;
    if (!seg.released[it->second]) return false;
    any = true;
  }
  return any;
}

void Executable::ReleaseUnreadConstants() {
  // A constant every reader packed needs no bytes any more; it can never be
  // bound again (BindConstant refuses a bound one), so nothing re-packs it.
  for (Segment& seg : segments_)
    for (size_t l = 0; l < seg.whole.size(); ++l) {
      if (seg.program.values[l].kind != ops::ProgramValue::Kind::kConstant || !seg.constants[l] || seg.released[l] ||
          seg.device_program->ReadsConstant(l))
        continue;
      seg.constants[l] = std::make_shared<ops::ReleasedConstantBuffer>(seg.constants[l]->size());
      seg.released[l] = true;
    }
}

void Executable::BindConstant(int32_t value, std::shared_ptr<ops::DeviceBuffer> buffer) {
  std::lock_guard<std::mutex> lock(run_mutex_);
  std::vector<Segment*> readers;
  for (Segment& seg : segments_) {
    auto it = seg.local_id.find(value);
    if (it == seg.local_id.end()) continue;
    if (seg.constants[it->second]) throw InvalidStateError("a constant's data can be given only once");
    readers.push_back(&seg);
  }
  // (graph::CompileGraph refuses weightless constants read on a device whose
  // memory is not the context's.)
  for (size_t k = 0; k < readers.size(); ++k) {
    Segment& seg = *readers[k];
    const int32_t l = seg.local_id.at(value);
    seg.constants[l] = buffer;
    try {
      seg.device_program->BindConstant(l, seg.constants);
    } catch (...) {
      // Segments prepared before this one keep their packed copy; binding
      // again prepares nothing twice.
      for (size_t j = 0; j <= k; ++j) readers[j]->constants[readers[j]->local_id.at(value)].reset();
      throw;
    }
  }
  --unbound_constants_;
  ReleaseUnreadConstants();
}

void Executable::Transfer(ops::Device& from_device, ops::DeviceBuffer& from, ops::Device& to_device,
                          ops::DeviceBuffer& to, uint64_t bytes, core::ParallelFor& parallel) {
  if (bytes == 0) return;
  if (std::byte* src = from.host_data()) {
    to_device.Upload(to, 0, {src, bytes});
    return;
  }
  if (std::byte* dst = to.host_data()) {
    from_device.Download(from, 0, {dst, bytes}, parallel);
    return;
  }
  const memory::Charge staging(ledger_, memory::Place::kHost, memory::Category::kStaging, bytes,
                               "dispatch: copying a value between devices");
  std::vector<std::byte> tmp;
  try {
    tmp.resize(bytes);
  } catch (const std::bad_alloc&) {
    throw QuotaExceededError(core::StrCat("dispatch: out of memory allocating ", bytes,
                                          " bytes to copy a value between devices"));
  }
  from_device.Download(from, 0, tmp, parallel);
  to_device.Upload(to, 0, tmp);
}

Executable::Profile Executable::last_profile() const {
  std::lock_guard<std::mutex> lock(run_mutex_);
  return profile_;
}

void Executable::Run(const std::vector<ops::DeviceBuffer*>& external,
                     const std::vector<std::vector<uint32_t>>& shapes, core::ParallelFor& parallel, bool profile,
                     const std::vector<double*>& unrounded) {
  using Kind = ops::ProgramValue::Kind;
  std::lock_guard<std::mutex> lock(run_mutex_);
  if (unbound_constants_ != 0) throw InvalidStateError("the graph has constants without data");
  const auto start = std::chrono::steady_clock::now();
  // Where a value lives: the dispatch's tensor, or its crossing buffer.
  auto home_buffer = [&](int32_t v) {
    const Kind kind = program_.values[v].kind;
    if (kind == Kind::kInput || kind == Kind::kOutput) return external[v];
    auto it = crossing_.find(v);
    if (it == crossing_.end())  // BuildSegments gives every value read across segments one
      throw OperationError(core::StrCat("dispatch: internal error: value ", v, " has no buffer between devices"));
    return it->second.get();
  };
  auto bytes_of = [&](int32_t v) { return ByteLengthFor(program_.values[v].desc.type, core::ElementCount(shapes[v])); };
  std::vector<ops::ValueBinding> bindings;
  std::vector<double> step_ms, seg_ms;
  if (profile) step_ms.assign(program_.steps.size(), std::numeric_limits<double>::quiet_NaN());
  for (Segment& seg : segments_) {
    ops::Device& device = *placement_.devices[seg.device];
    for (const Copy& c : seg.copy_in)
      Transfer(*placement_.devices[home_[c.value]], *home_buffer(c.value), device, *c.local, bytes_of(c.value),
               parallel);
    bindings.assign(seg.whole.size(), {});
    for (size_t l = 0; l < seg.whole.size(); ++l) {
      const int32_t v = seg.whole[l];
      ops::ValueBinding& b = bindings[l];
      b.shape = shapes[v];
      switch (seg.program.values[l].kind) {
        case Kind::kInput:
        case Kind::kOutput: {
          auto it = seg.local_buffer.find(v);
          b.buffer = it != seg.local_buffer.end() ? it->second : home_buffer(v);
          if (seg.program.values[l].kind == Kind::kOutput && !unrounded.empty()) b.unrounded = unrounded[v];
          break;
        }
        case Kind::kConstant: b.buffer = seg.constants[l].get(); break;
        case Kind::kIntermediate:
          b.buffer = seg.arena.get();
          b.offset = seg.arena_offsets[l];
          break;
      }
    }
    seg_ms.assign(profile ? seg.steps.size() : 0, 0.0);
    seg.device_program->Run(bindings, parallel, seg_ms);
    for (size_t i = 0; i < seg_ms.size(); ++i) step_ms[seg.steps[i]] = seg_ms[i];
    for (const Copy& c : seg.copy_out)
      Transfer(device, *c.local, *placement_.devices[home_[c.value]], *home_buffer(c.value), bytes_of(c.value),
               parallel);
  }
  if (profile) profile_ = {std::move(step_ms), shapes};
  last_run_ns_.store(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count(),
      std::memory_order_relaxed);
}

}  // namespace webnn::scheduler
