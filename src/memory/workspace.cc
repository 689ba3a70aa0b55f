#include "memory/workspace.h"

#ifdef WEBNN_SCRATCH_REDZONES
#include <sanitizer/asan_interface.h>
#endif

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::memory {

namespace {

// The calling thread's workspace and the slot it holds there (-1: none).
thread_local Workspace* t_workspace = nullptr;
thread_local int t_slot = -1;

}  // namespace

Workspace::Workspace(const WorkspaceSize& size, size_t workers, const Account& account)
    : size_(size),
      workers_(workers == 0 ? 1 : workers),
      ledger_(account.ledger),
      block_(size.Total(workers == 0 ? 1 : workers), "kernel workspace", account),
      busy_(new std::atomic<bool>[workers_]),
      used_(workers_, 0) {
  for (size_t i = 0; i < workers_; ++i) busy_[i].store(false, std::memory_order_relaxed);
}

Workspace* CurrentWorkspace() { return t_workspace; }

Charge ChargeRunMemory(uint64_t bytes, std::string_view what) {
  return Charge(t_workspace ? t_workspace->ledger() : nullptr, Place::kHost, Category::kWorkspace, bytes, what);
}

WorkerSlotScope::WorkerSlotScope(Workspace* workspace) : WorkerSlotScope(workspace, false) {}

WorkerSlotScope::WorkerSlotScope(Workspace* workspace, bool dispatching)
    : previous_(t_workspace), previous_slot_(t_slot) {
  if (workspace && workspace == t_workspace && t_slot >= 0) return;  // holds a slot of it already
  t_workspace = workspace;
  t_slot = -1;
  if (!workspace) return;
  // Slot 0 is the dispatching thread's. At most `workers` threads run one
  // parallel-for, and each gives its slot back before its chunk counts as
  // done, so a pool thread always finds one free.
  for (size_t i = dispatching ? 0 : 1; i < (dispatching ? 1 : workspace->workers_); ++i) {
    bool expected = false;
    if (workspace->busy_[i].compare_exchange_strong(expected, true, std::memory_order_acquire)) {
      claimed_ = static_cast<int>(i);
      t_slot = claimed_;
      return;
    }
  }
  t_workspace = previous_;
  t_slot = previous_slot_;
  throw OperationError(core::StrCat("kernel workspace: no free slot of ", workspace->workers_,
                                    dispatching ? " for the dispatching thread" : " for a pool thread",
                                    " (an engine bug)"));
}

WorkerSlotScope::~WorkerSlotScope() {
  if (claimed_ >= 0) t_workspace->busy_[claimed_].store(false, std::memory_order_release);
  t_workspace = previous_;
  t_slot = previous_slot_;
}

void ScratchBase::PoisonTail(uint64_t bytes, uint64_t need) {
#ifdef WEBNN_SCRATCH_REDZONES
  // From the next 8-byte granule (ASan's shadow) on.
  const uint64_t from = (bytes + 7) / 8 * 8;
  tail_ = data_ + from;
  tail_bytes_ = need - from;
  ASAN_POISON_MEMORY_REGION(tail_, tail_bytes_);
#else
  (void)bytes, (void)need;
#endif
}

void ScratchBase::UnpoisonTail() {
#ifdef WEBNN_SCRATCH_REDZONES
  if (tail_) ASAN_UNPOISON_MEMORY_REGION(tail_, tail_bytes_);
#endif
}

ScratchBase::ScratchBase(uint64_t bytes, std::string_view what) {
  const uint64_t need = ScratchBytes(bytes);
  if (need == 0) return;
  Workspace* ws = t_workspace;
  if (!ws || t_slot < 0) {
    own_ = std::make_unique<HostBlock>(need, what);
    data_ = own_->data();
    PoisonTail(bytes, need);
    return;
  }
  const uint64_t capacity = ws->Capacity(t_slot);
  uint64_t& used = ws->used_[t_slot];
  if (used + need > capacity)
    throw OperationError(core::StrCat("kernel workspace: ", what, " needs ", need, " bytes, ", capacity - used,
                                      " of the ", capacity, " bytes its step declared for ",
                                      t_slot == 0 ? "the dispatching thread" : "a worker",
                                      " are left (an engine bug: the kernel's declaration is short)"));
  data_ = ws->block_.data() + ws->Offset(t_slot) + used;
  workspace_ = ws;
  slot_ = t_slot;
  mark_ = used;
  used += need;
  PoisonTail(bytes, need);
}

ScratchBase::~ScratchBase() {
  UnpoisonTail();
  if (workspace_) workspace_->used_[slot_] = mark_;
}

}  // namespace webnn::memory
