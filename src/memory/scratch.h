// Kernel scratch that is accounted: a growable vector whose capacity is charged
// as host workspace to the calling thread's workspace ledger (ledger.h). Kernels
// keep these thread_local so that a run reuses the last run's buffers; growing
// one past the context's memoryLimit is a QuotaExceededError before anything is
// allocated.
#pragma once

#include <cstddef>
#include <utility>
#include <algorithm>
#include <vector>

#include "memory/ledger.h"

namespace webnn::memory {

template <typename T>
class ScratchVector {
 public:
  ScratchVector() = default;
  explicit ScratchVector(size_t n) { resize(n); }
  ScratchVector(size_t n, const T& value) { assign(n, value); }

  void resize(size_t n) {
    Grow(n);
    v_.resize(n);
  }
  void resize(size_t n, const T& value) {
    Grow(n);
    v_.resize(n, value);
  }
  void assign(size_t n, const T& value) {
    Grow(n);
    v_.assign(n, value);
  }
  template <typename It>
  void assign(It first, It last) {
    Grow(static_cast<size_t>(last - first));
    v_.assign(first, last);
  }
  void clear() noexcept { v_.clear(); }
  void swap(ScratchVector& other) noexcept {
    v_.swap(other.v_);
    std::swap(charge_, other.charge_);
  }
  // Frees the memory and its charge.
  void release() noexcept {
    std::vector<T>().swap(v_);
    charge_.Reset();
  }

  T* data() { return v_.data(); }
  const T* data() const { return v_.data(); }
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  T& operator[](size_t i) { return v_[i]; }
  const T& operator[](size_t i) const { return v_[i]; }
  T* begin() { return v_.data(); }
  T* end() { return v_.data() + v_.size(); }
  const T* begin() const { return v_.data(); }
  const T* end() const { return v_.data() + v_.size(); }
  T& back() { return v_.back(); }

 private:
  // Charged to the work using the scratch, for what that work asks: the
  // scheduler's threads are shared by every context, so scratch grown for one
  // context's work moves to the next context that uses it, charged for that
  // work's size (not the capacity left by earlier work): a context's peak
  // does not depend on what the threads ran before.
  void Grow(size_t n) {
    const uint64_t bytes = uint64_t{n} * sizeof(T);
    Ledger* current = ThreadWorkspaceLedger();
    if (!current) current = ProcessLedger().get();
    const bool same = charge_.ledger() == current;
    if (n <= v_.capacity() && same && bytes <= charge_.bytes()) return;
    try {
      ChargeWorkspace(charge_, same ? std::max(bytes, charge_.bytes()) : bytes, "kernel scratch");
    } catch (...) {
      release();  // the old buffer may have lost its charge: drop both
      throw;
    }
    v_.reserve(n);
  }

  std::vector<T> v_;
  Charge charge_;
};

}  // namespace webnn::memory
