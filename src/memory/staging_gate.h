// Backpressure for streamed constants (webnn#901): writers of weightless
// constants hold raw bytes until the device has packed or uploaded them; the
// gate admits a writer's bytes only while the bytes in flight stay within a
// budget, so streaming a model holds the packed weights plus about one budget
// of raw ones, whatever the order and number of writers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>

namespace webnn::memory {

class StagingGate {
 public:
  explicit StagingGate(uint64_t limit) : limit_(limit) {}

  // Whether `bytes` would be admitted now: they fit beside what is in flight,
  // or nothing is in flight (a constant larger than the budget goes alone).
  bool CanAdmit(uint64_t bytes) const;
  // Admits `bytes` for the calling thread, waiting for others' Release.
  // Throws InvalidStateError (naming `what`) instead of waiting when every
  // byte in flight is the calling thread's own: nobody else could free them.
  void Admit(uint64_t bytes, std::string_view what);
  // Returns bytes admitted for thread `holder`.
  void Release(uint64_t bytes, std::thread::id holder) noexcept;

 private:
  bool FitsLocked(uint64_t bytes) const { return in_flight_ == 0 || in_flight_ + bytes <= limit_; }

  const uint64_t limit_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  uint64_t in_flight_ = 0;
  std::map<std::thread::id, uint64_t> held_;  // bytes in flight per admitting thread
};

}  // namespace webnn::memory
