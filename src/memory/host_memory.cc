#include "memory/host_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::memory {
namespace {
// From this size on a block is an anonymous mapping: the kernel hands out
// zero pages and commits memory only where the block is written, so a 2 GB
// arena costs nothing until it is used (memset touched every page at build).
// Below it, aligned_alloc + memset is cheaper than a system call.
constexpr size_t kMapThreshold = size_t{1} << 20;
constexpr size_t kHugePage = size_t{2} << 20;
}  // namespace

MemoryStats GetHostMemoryStats() {
  const LedgerSnapshot s = ProcessLedger()->Snapshot();
  return {s.places[0].current, s.places[0].peak, s.limit};
}
void ResetHostPeak() { ProcessLedger()->ResetPeaks(); }
void SetHostMemoryBudget(uint64_t bytes) { ProcessLedger()->set_limit(bytes); }

HostBlock::HostBlock(size_t bytes, std::string_view what, const Account& account)
    : size_(bytes), charge_(account.ledger, Place::kHost, account.category, bytes, what) {
  if (bytes >= kMapThreshold) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      data_ = static_cast<std::byte*>(p);  // page-aligned, zero
      mapped_ = bytes;
      // Transparent huge pages where the system offers them on request
      // (THP "madvise"): a network's large activations stream through
      // memory, and 2 MB pages spare the page walks of 4 KB ones (PP-OCR det
      // 640x640 at 1 thread: -2.5%, Xeon, 6 interleaved runs). A no-op where
      // THP is off; smaller blocks gain nothing.
      if (bytes >= kHugePage) madvise(p, bytes, MADV_HUGEPAGE);
    }
  } else {
    const size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    data_ = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
    if (data_ != nullptr) std::memset(data_, 0, rounded);
  }
  if (data_ == nullptr)
    throw QuotaExceededError(core::StrCat("out of memory allocating ", bytes, " bytes for ", what));
}

std::shared_ptr<const std::vector<std::byte>> CountedCopy(std::span<const std::byte> bytes, std::string_view what,
                                                          const Account& account) {
  struct Counted {
    Charge charge;
    std::vector<std::byte> bytes;
  };
  auto counted = std::make_shared<Counted>();
  counted->charge = Charge(account.ledger, Place::kHost, account.category, bytes.size(), what);
  counted->bytes.assign(bytes.begin(), bytes.end());
  return std::shared_ptr<const std::vector<std::byte>>(counted, &counted->bytes);
}

HostBlock::~HostBlock() {
  if (mapped_ != 0) munmap(data_, mapped_);
  else std::free(data_);
}

}  // namespace webnn::memory
