#include "memory/ledger.h"

#include <string>

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::memory {

Ledger::Ledger(std::string limit_name, uint64_t limit, std::shared_ptr<Ledger> parent, bool host_only_limit)
    : limit_name_(std::move(limit_name)), limit_(limit), host_only_limit_(host_only_limit), parent_(std::move(parent)) {
  counts_.limit = limit;
}

namespace {
void Add(Counter& c, uint64_t bytes) {
  c.current += bytes;
  if (c.current > c.peak) c.peak = c.current;
}
}  // namespace

void Ledger::Reserve(Place place, Category category, uint64_t bytes, std::string_view what) {
  // Held while the parent is charged: locks are taken child before parent.
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t p = static_cast<size_t>(place);
  const uint64_t in_use = host_only_limit_ ? counts_.places[0].current : counts_.total.current;
  const bool limited = host_only_limit_ ? place == Place::kHost : true;
  if (limited && limit_ != 0 && (bytes > limit_ || in_use > limit_ - bytes)) {
    std::string detail;
    for (size_t pl = 0; pl < kPlaceCount; ++pl)
      for (size_t c = 0; c < kCategoryCount; ++c)
        if (counts_.counters[pl][c].current != 0)
          detail += core::StrCat(detail.empty() ? ": " : ", ", ToString(static_cast<Category>(c)), " on ",
                                 ToString(static_cast<Place>(pl)), " ", counts_.counters[pl][c].current);
    throw QuotaExceededError(core::StrCat(what, ": allocating ", bytes, " bytes of ", ToString(category), " on ",
                                          ToString(place), " would exceed the ", limit_name_, " of ", limit_,
                                          " bytes (", in_use, " bytes in use", detail, ")"));
  }
  if (parent_) parent_->Reserve(place, category, bytes, what);
  Add(counts_.counters[p][static_cast<size_t>(category)], bytes);
  Add(counts_.places[p], bytes);
  Add(counts_.total, bytes);
}

void Ledger::Release(Place place, Category category, uint64_t bytes) noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t p = static_cast<size_t>(place);
    counts_.counters[p][static_cast<size_t>(category)].current -= bytes;
    counts_.places[p].current -= bytes;
    counts_.total.current -= bytes;
  }
  if (parent_) parent_->Release(place, category, bytes);
}

LedgerSnapshot Ledger::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counts_;
}

void Ledger::ResetPeaks() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& place : counts_.counters)
    for (Counter& c : place) c.peak = c.current;
  for (Counter& c : counts_.places) c.peak = c.current;
  counts_.total.peak = counts_.total.current;
}

void Ledger::set_limit(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = bytes;
  counts_.limit = bytes;
}

uint64_t Ledger::limit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

const std::shared_ptr<Ledger>& ProcessLedger() {
  // Never destroyed: charges may be released after static destructors have
  // run (pool threads finishing work at exit).
  static const auto* ledger =
      new std::shared_ptr<Ledger>(std::make_shared<Ledger>("process's host memory budget", 0, nullptr, true));
  return *ledger;
}

// ---- Charge -------------------------------------------------------------------

Charge::Charge(std::shared_ptr<Ledger> ledger, Place place, Category category, uint64_t bytes, std::string_view what)
    : ledger_(ledger ? std::move(ledger) : ProcessLedger()), place_(place), category_(category) {
  ledger_->Reserve(place_, category_, bytes, what);
  bytes_ = bytes;
}

Charge& Charge::operator=(Charge&& other) noexcept {
  if (this == &other) return *this;
  Reset();
  ledger_ = std::move(other.ledger_);
  place_ = other.place_;
  category_ = other.category_;
  bytes_ = other.bytes_;
  other.bytes_ = 0;
  other.ledger_.reset();
  return *this;
}

void Charge::Reset() noexcept {
  if (ledger_ && bytes_ != 0) ledger_->Release(place_, category_, bytes_);
  bytes_ = 0;
}

void Charge::Resize(uint64_t bytes, std::string_view what) {
  if (!ledger_) ledger_ = ProcessLedger();
  if (bytes > bytes_) ledger_->Reserve(place_, category_, bytes - bytes_, what);
  else if (bytes < bytes_) ledger_->Release(place_, category_, bytes_ - bytes);
  bytes_ = bytes;
}

}  // namespace webnn::memory
