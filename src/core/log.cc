#include "core/log.h"

#include <cstdio>

namespace webnn::core {

void Logger::Log(MLLogLevel level, std::string_view message) const noexcept {
  if (!enabled(level)) return;
  try {
    if (callback_) {
      callback_(level, message);
      return;
    }
    // One fprintf per message, so that lines from several threads do not interleave.
    const std::string_view name = ToString(level);
    std::fprintf(stderr, "webnn: %.*s: %.*s\n", static_cast<int>(name.size()), name.data(),
                 static_cast<int>(message.size()), message.data());
  } catch (...) {
  }
}

}  // namespace webnn::core
