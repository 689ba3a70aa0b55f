// Memory accounting: every byte the engine holds for a context is charged to
// that context's Ledger by category and by where it lives (host or gpu), and
// every ledger charges the process-wide one too. A ledger with a limit refuses
// a charge that would take its total over it (QuotaExceededError), before the
// memory is allocated where the caller can order it so.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "webnn/types.h"

namespace webnn::memory {

// What the bytes are for, and where they live: the public enums (their names
// come from webnn::ToString).
using Category = MLMemoryCategory;
inline constexpr size_t kCategoryCount = kMLMemoryCategoryCount;
using Place = MLMemoryDevice;
inline constexpr size_t kPlaceCount = kMLMemoryDeviceCount;

struct Counter {
  uint64_t current = 0;
  uint64_t peak = 0;
};

struct LedgerSnapshot {
  std::array<std::array<Counter, kCategoryCount>, kPlaceCount> counters{};  // [place][category]
  std::array<Counter, kPlaceCount> places{};  // per place, all categories (peak of the sum)
  Counter total;                              // everything (peak of the sum)
  uint64_t limit = 0;                         // 0 = unlimited
  const Counter& at(Place p, Category c) const { return counters[static_cast<size_t>(p)][static_cast<size_t>(c)]; }
};

class Ledger : public std::enable_shared_from_this<Ledger> {
 public:
  // `limit_name` names the limit in error messages ("memoryLimit").
  // `host_only_limit`: the limit applies to host bytes only (the process
  // budget), else to the total of every place.
  Ledger(std::string limit_name, uint64_t limit, std::shared_ptr<Ledger> parent, bool host_only_limit = false);

  // Counts `bytes` more, here and in every parent. Throws QuotaExceededError
  // naming `what`, the bytes asked, the category, the limit and the bytes in
  // use when a limit would be exceeded; then nothing is counted.
  void Reserve(Place place, Category category, uint64_t bytes, std::string_view what);
  void Release(Place place, Category category, uint64_t bytes) noexcept;

  LedgerSnapshot Snapshot() const;
  void ResetPeaks();
  void set_limit(uint64_t bytes);
  uint64_t limit() const;

 private:
  mutable std::mutex mutex_;
  std::string limit_name_;
  uint64_t limit_;
  bool host_only_limit_;
  std::shared_ptr<Ledger> parent_;
  LedgerSnapshot counts_;
};

// The process-wide ledger: every charge ends here. Its limit (internal,
// SetHostMemoryBudget) applies to host bytes.
const std::shared_ptr<Ledger>& ProcessLedger();

// Bytes charged to a ledger for as long as the Charge lives (RAII). A null
// ledger means the process ledger.
class Charge {
 public:
  Charge() = default;
  Charge(std::shared_ptr<Ledger> ledger, Place place, Category category, uint64_t bytes, std::string_view what);
  ~Charge() { Reset(); }
  Charge(Charge&& other) noexcept { *this = std::move(other); }
  Charge& operator=(Charge&& other) noexcept;
  Charge(const Charge&) = delete;
  Charge& operator=(const Charge&) = delete;

  // Releases what is charged.
  void Reset() noexcept;
  // Charges `bytes` instead of what is charged now: growing reserves the
  // difference (throwing leaves the charge as it was).
  void Resize(uint64_t bytes, std::string_view what);
  uint64_t bytes() const { return bytes_; }
  Ledger* ledger() const { return ledger_.get(); }

 private:
  std::shared_ptr<Ledger> ledger_;
  Place place_ = Place::kHost;
  Category category_ = Category::kWorkspace;
  uint64_t bytes_ = 0;
};

// Where an allocation is charged: a ledger (null: the process ledger) and a
// category. Devices' Allocate() takes one.
struct Account {
  std::shared_ptr<Ledger> ledger;
  Category category = Category::kTensors;
};

}  // namespace webnn::memory
