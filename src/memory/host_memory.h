// Accounted host memory. Every tensor byte the reference and cpu devices hold
// comes from here, so the engine can report its peak and refuse to exceed a
// budget (QuotaExceededError) instead of being killed by the OS.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace webnn::memory {

struct MemoryStats {
  uint64_t current_bytes = 0;
  uint64_t peak_bytes = 0;
  uint64_t budget_bytes = 0;  // 0 = unlimited
};

// Process-wide accounting of host tensor memory.
MemoryStats GetHostMemoryStats();
void ResetHostPeak();
// 0 removes the budget.
void SetHostMemoryBudget(uint64_t bytes);

// A zero-filled, 64-byte aligned block; throws QuotaExceededError when the
// budget would be exceeded.
class HostBlock {
 public:
  explicit HostBlock(size_t bytes);
  ~HostBlock();
  HostBlock(const HostBlock&) = delete;
  HostBlock& operator=(const HostBlock&) = delete;

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace webnn::memory
