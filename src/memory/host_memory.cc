#include "memory/host_memory.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::memory {
namespace {
std::atomic<uint64_t> g_current{0};
std::atomic<uint64_t> g_peak{0};
std::atomic<uint64_t> g_budget{0};

// From this size on a block is an anonymous mapping: the kernel hands out
// zero pages and commits memory only where the block is written, so a 2 GB
// arena costs nothing until it is used (memset touched every page at build).
// Below it, aligned_alloc + memset is cheaper than a system call.
constexpr size_t kMapThreshold = size_t{1} << 20;

void UpdatePeak(uint64_t now) {
  uint64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}
}  // namespace

MemoryStats GetHostMemoryStats() { return {g_current.load(), g_peak.load(), g_budget.load()}; }
void ResetHostPeak() { g_peak.store(g_current.load()); }
void SetHostMemoryBudget(uint64_t bytes) { g_budget.store(bytes); }

HostBlock::HostBlock(size_t bytes, std::string_view what) : size_(bytes) {
  const uint64_t budget = g_budget.load();
  const uint64_t now = g_current.fetch_add(bytes) + bytes;
  if (budget != 0 && now > budget) {
    g_current.fetch_sub(bytes);
    throw QuotaExceededError(core::StrCat("allocating ", bytes, " bytes for ", what,
                                          " would exceed the memory budget of ", budget, " bytes (", now - bytes,
                                          " in use)"));
  }
  UpdatePeak(now);
  if (bytes >= kMapThreshold) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      data_ = static_cast<std::byte*>(p);  // page-aligned, zero
      mapped_ = bytes;
    }
  } else {
    const size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    data_ = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
    if (data_ != nullptr) std::memset(data_, 0, rounded);
  }
  if (data_ == nullptr) {
    g_current.fetch_sub(bytes);
    throw QuotaExceededError(core::StrCat("out of memory allocating ", bytes, " bytes for ", what));
  }
}

HostBlock::~HostBlock() {
  if (mapped_ != 0) munmap(data_, mapped_);
  else std::free(data_);
  g_current.fetch_sub(size_);
}

}  // namespace webnn::memory
