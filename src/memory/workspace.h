// Kernel workspace: the scratch memory a kernel uses while it runs (packing
// buffers, pointer tables, converted or transposed copies of its tensors).
//
// Each kernel declares what it needs when its step is compiled, for the
// step's maximum shapes (WorkspaceSize, via ops::cpu::PrepareContext). The
// program owns one Workspace, sized for its largest step and charged as host
// workspace to its context's ledger, and its kernels take their scratch from
// it (Scratch). So what a run uses is known before it starts (and refused
// over memoryLimit as a QuotaExceededError), it does not depend on which
// thread ran which chunk, and it goes when the graph goes. Nothing is kept in
// thread_local buffers.
//
// A workspace has one slot per thread that runs the program's parallel-fors.
// The dispatching thread holds slot 0 for the whole run (WorkspaceScope); the
// thread pool gives every other thread running a chunk a free slot of its own
// (WorkerSlotScope). Slot 0 holds the shared bytes plus a worker's, the others
// a worker's. Scratch is taken and given back in stack order.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

#include "memory/host_memory.h"
#include "memory/ledger.h"

namespace webnn::memory {

// Every piece of scratch starts on a cache line (and a vector's alignment).
inline constexpr uint64_t kScratchAlign = 64;

// Under AddressSanitizer each piece of scratch is followed by a poisoned
// cache line while it lives, so that a kernel writing past what it took is
// reported where it writes: within one workspace block ASan saw nothing (a
// depthwise kernel once wrote 256 bytes past its phase planes, undetected).
#if defined(__SANITIZE_ADDRESS__)
#define WEBNN_SCRATCH_REDZONES 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEBNN_SCRATCH_REDZONES 1
#endif
#endif
#ifdef WEBNN_SCRATCH_REDZONES
inline constexpr uint64_t kScratchRedzone = 64;
#else
inline constexpr uint64_t kScratchRedzone = 0;
#endif

// The bytes a piece of `bytes` takes from a workspace (0 for none).
inline constexpr uint64_t ScratchBytes(uint64_t bytes) {
  return bytes == 0 ? 0 : (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign + kScratchRedzone;
}

// What a kernel declares. Pieces taken one after another in the same scope
// add up; declare their sum (an upper bound is fine, too little is a bug that
// Scratch reports).
struct WorkspaceSize {
  uint64_t shared = 0;      // taken on the dispatching thread outside parallel-for bodies
  uint64_t per_worker = 0;  // taken inside one parallel-for body

  template <typename T>
  void AddShared(uint64_t count) { shared += ScratchBytes(count * sizeof(T)); }
  template <typename T>
  void AddPerWorker(uint64_t count) { per_worker += ScratchBytes(count * sizeof(T)); }
  // A use that follows another (steps of a program): the larger of each.
  void Max(const WorkspaceSize& other) {
    if (other.shared > shared) shared = other.shared;
    if (other.per_worker > per_worker) per_worker = other.per_worker;
  }
  uint64_t Total(size_t workers) const { return shared + per_worker * workers; }
};

class Workspace {
 public:
  // `workers`: the most threads that run one parallel-for of the program.
  // Throws QuotaExceededError over the account's limit.
  Workspace(const WorkspaceSize& size, size_t workers, const Account& account);
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const WorkspaceSize& size() const { return size_; }
  const std::shared_ptr<Ledger>& ledger() const { return ledger_; }
  size_t workers() const { return workers_; }
  uint64_t bytes() const { return block_.size(); }

 private:
  friend class WorkerSlotScope;
  friend class ScratchBase;
  WorkspaceSize size_;
  size_t workers_;
  std::shared_ptr<Ledger> ledger_;
  HostBlock block_;
  uint64_t Capacity(size_t slot) const { return slot == 0 ? size_.shared + size_.per_worker : size_.per_worker; }
  uint64_t Offset(size_t slot) const { return slot == 0 ? 0 : size_.shared + slot * size_.per_worker; }
  std::unique_ptr<std::atomic<bool>[]> busy_;  // per slot
  std::vector<uint64_t> used_;                 // per slot
};

// The workspace of the calling thread's work (null: none, see Scratch).
Workspace* CurrentWorkspace();

// Around a parallel-for body (the thread pool): `workspace` becomes the
// calling thread's, and its scratch comes from a slot no other thread holds
// until the scope ends. A thread already holding a slot of `workspace` (the
// dispatching thread, or a parallel-for inside a body, run inline) keeps it.
class WorkerSlotScope {
 public:
  explicit WorkerSlotScope(Workspace* workspace);
  ~WorkerSlotScope();
  WorkerSlotScope(const WorkerSlotScope&) = delete;
  WorkerSlotScope& operator=(const WorkerSlotScope&) = delete;

 protected:
  WorkerSlotScope(Workspace* workspace, bool dispatching);

 private:
  Workspace* previous_;
  int previous_slot_;
  int claimed_ = -1;
};

// The dispatching thread's (a program's run): holds slot 0 of `workspace`
// (null: none) until the scope ends.
class WorkspaceScope : public WorkerSlotScope {
 public:
  explicit WorkspaceScope(Workspace* workspace) : WorkerSlotScope(workspace, true) {}
};

// Memory a kernel allocates itself while it runs (a weight that is not a
// constant, packed per dispatch into its own layout), of a size only the
// packing knows: charged as workspace to the ledger of the calling thread's
// workspace (the process ledger outside a program) for as long as the
// returned charge lives. QuotaExceededError over the limit.
Charge ChargeRunMemory(uint64_t bytes, std::string_view what);

class ScratchBase {
 protected:
  ScratchBase(uint64_t bytes, std::string_view what);
  ~ScratchBase();
  ScratchBase(const ScratchBase&) = delete;
  ScratchBase& operator=(const ScratchBase&) = delete;
  std::byte* data_ = nullptr;

 private:
  void PoisonTail(uint64_t bytes, uint64_t need);
  void UnpoisonTail();
  Workspace* workspace_ = nullptr;
  std::byte* tail_ = nullptr;  // the poisoned bytes after the piece (WEBNN_SCRATCH_REDZONES)
  uint64_t tail_bytes_ = 0;
  int slot_ = 0;
  uint64_t mark_ = 0;
  // Outside any program (a microbenchmark calling a kernel directly): memory
  // of its own, charged to the process ledger.
  std::unique_ptr<HostBlock> own_;
};

// `count` elements of scratch from the calling thread's workspace slot,
// uninitialized (or set to `value`), given back when it goes out of scope.
// Taking more than the step declared throws OperationError naming `what`:
// a kernel's declaration is wrong, which the tests are there to catch.
template <typename T>
class Scratch : private ScratchBase {
 public:
  Scratch(size_t count, std::string_view what) : ScratchBase(count * sizeof(T), what), size_(count) {}
  Scratch(size_t count, const T& value, std::string_view what) : Scratch(count, what) {
    for (size_t i = 0; i < count; ++i) new (data() + i) T(value);
  }
  T* data() const { return reinterpret_cast<T*>(data_); }
  size_t size() const { return size_; }
  T& operator[](size_t i) const { return data()[i]; }
  T* begin() const { return data(); }
  T* end() const { return data() + size_; }

 private:
  size_t size_;
};

}  // namespace webnn::memory
