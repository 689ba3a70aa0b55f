#include "cli_args.h"

#include <algorithm>
#include <stdexcept>

namespace webnn::cli {

MLDeviceType ParseDevice(const std::string& s) {
  if (s == "reference") return MLDeviceType::kReference;
  if (s == "cpu") return MLDeviceType::kCpu;
  if (s == "gpu") return MLDeviceType::kGpu;
  if (s == "auto") return MLDeviceType::kAuto;
  throw std::invalid_argument("unknown device '" + s + "' (reference, cpu, gpu, auto)");
}

std::pair<std::string, std::string> SplitAssign(const std::string& s, const char* flag) {
  size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) throw std::invalid_argument(std::string(flag) + " expects NAME=VALUE, got '" + s + "'");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

uint32_t ParseUint32(const std::string& text, const std::string& option) {
  const bool digits = !text.empty() && text.size() <= 10 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoull(text) > UINT32_MAX)
    throw std::invalid_argument(option + ": expected a non-negative integer below 2^32, got '" + text + "'");
  return static_cast<uint32_t>(std::stoull(text));
}

std::string ShapeString(const std::vector<uint32_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace webnn::cli
