#include "memory/host_memory.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "webnn/types.h"

namespace webnn::memory {
namespace {
std::atomic<uint64_t> g_current{0};
std::atomic<uint64_t> g_peak{0};
std::atomic<uint64_t> g_budget{0};

void UpdatePeak(uint64_t now) {
  uint64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}
}  // namespace

MemoryStats GetHostMemoryStats() { return {g_current.load(), g_peak.load(), g_budget.load()}; }
void ResetHostPeak() { g_peak.store(g_current.load()); }
void SetHostMemoryBudget(uint64_t bytes) { g_budget.store(bytes); }

HostBlock::HostBlock(size_t bytes) : size_(bytes) {
  const uint64_t budget = g_budget.load();
  const uint64_t now = g_current.fetch_add(bytes) + bytes;
  if (budget != 0 && now > budget) {
    g_current.fetch_sub(bytes);
    throw QuotaExceededError("allocating " + std::to_string(bytes) + " bytes would exceed the memory budget of " +
                             std::to_string(budget) + " bytes (" + std::to_string(now - bytes) + " in use)");
  }
  UpdatePeak(now);
  const size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
  data_ = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
  if (data_ == nullptr) {
    g_current.fetch_sub(bytes);
    throw QuotaExceededError("out of memory allocating " + std::to_string(bytes) + " bytes");
  }
  std::memset(data_, 0, rounded);
}

HostBlock::~HostBlock() {
  std::free(data_);
  g_current.fetch_sub(size_);
}

}  // namespace webnn::memory
