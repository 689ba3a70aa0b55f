#include "memory/staging_gate.h"

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::memory {

bool StagingGate::CanAdmit(uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return FitsLocked(bytes);
}

void StagingGate::Admit(uint64_t bytes, std::string_view what) {
  std::unique_lock<std::mutex> lock(mutex_);
  const std::thread::id self = std::this_thread::get_id();
  while (!FitsLocked(bytes)) {
    auto mine = held_.find(self);
    if (mine != held_.end() && mine->second == in_flight_)
      throw InvalidStateError(core::StrCat(what, ": waiting for ", bytes, " bytes of the constant staging budget (",
                                           limit_, " bytes) that this thread's own open writers hold (",
                                           in_flight_, " bytes); close them first, or write only when ready()"));
    released_.wait(lock);
  }
  in_flight_ += bytes;
  held_[self] += bytes;
}

void StagingGate::Release(uint64_t bytes, std::thread::id holder) noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    in_flight_ -= bytes;
    auto it = held_.find(holder);
    if (it != held_.end() && (it->second -= bytes) == 0) held_.erase(it);
  }
  released_.notify_all();
}

}  // namespace webnn::memory
