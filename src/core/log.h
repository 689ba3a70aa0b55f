// A context's log (MLContextOptions::logLevel, logCallback): messages at or
// above the level go to the callback, or to stderr without one. Call sites
// on hot paths test enabled() first so that a message that would be dropped
// is never formatted.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/strings.h"
#include "webnn/types.h"

namespace webnn::core {

class Logger {
 public:
  using Callback = std::function<void(MLLogLevel, std::string_view)>;
  Logger() = default;
  Logger(MLLogLevel level, Callback callback) : level_(level), callback_(std::move(callback)) {}

  bool enabled(MLLogLevel level) const {
    return level != MLLogLevel::kNone && static_cast<int>(level) <= static_cast<int>(level_);
  }
  // Never throws: an exception from the callback (or from formatting) is dropped.
  void Log(MLLogLevel level, std::string_view message) const noexcept;
  template <typename... Args>
  void Logf(MLLogLevel level, const Args&... args) const noexcept {
    if (!enabled(level)) return;
    try {
      Log(level, StrCat(args...));
    } catch (...) {
    }
  }

 private:
  MLLogLevel level_ = MLLogLevel::kWarning;
  Callback callback_;
};

}  // namespace webnn::core
