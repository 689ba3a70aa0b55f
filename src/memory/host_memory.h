// Accounted host memory. Every tensor byte the reference and cpu devices hold
// comes from here, so the engine can report its peak and refuse to exceed a
// budget (QuotaExceededError) instead of being killed by the OS.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/parallel.h"
#include "memory/ledger.h"

namespace webnn::memory {

struct MemoryStats {
  uint64_t current_bytes = 0;
  uint64_t peak_bytes = 0;
  uint64_t budget_bytes = 0;  // 0 = unlimited
};

// Process-wide accounting of host memory (every category, every context):
// the host part of ProcessLedger().
MemoryStats GetHostMemoryStats();
void ResetHostPeak();
// A process-wide host budget on top of the contexts' memoryLimit; 0 removes
// it. Internal (tests).
void SetHostMemoryBudget(uint64_t bytes);

// A zero-filled, 64-byte aligned block charged to `account` (process ledger
// when it has none); throws QuotaExceededError naming the byte count and
// `what` it is for when a limit would be exceeded or the system has no memory
// for it. Large blocks are mapped zero pages, so their memory is committed
// page by page as it is first written, not up front.
class HostBlock {
 public:
  HostBlock(size_t bytes, std::string_view what, const Account& account = {});
  ~HostBlock();
  HostBlock(const HostBlock&) = delete;
  HostBlock& operator=(const HostBlock&) = delete;

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_ = 0;  // bytes mapped with mmap (0: from aligned_alloc)
  Charge charge_;
};

// dst[0, n) = src[0, n) (disjoint), for reading a tensor back: split over
// `parallel` from 1 MiB on, and from 8 MiB on written with streaming stores
// (past the caches, which a copy that large leaves anyway). A decoder
// prefill's 78 MB of logits read back, Xeon: 11.3 ms with memcpy on 1
// thread, 10.2 streaming; 6.0 / 5.7 on 2.
void CopyOut(std::byte* dst, const std::byte* src, size_t n, core::ParallelFor& parallel);

// A copy of `bytes` charged to `account` on the host for as long as the copy
// lives (the builder's constants); QuotaExceededError before copying.
std::shared_ptr<const std::vector<std::byte>> CountedCopy(std::span<const std::byte> bytes, std::string_view what,
                                                          const Account& account);

}  // namespace webnn::memory
