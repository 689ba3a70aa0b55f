// String building for error messages and reports (g++ 12 has no std::format).
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace webnn::core {

template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

// "[1, 2, 3]"
template <typename T>
std::string ListToString(const std::vector<T>& values) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << values[i];
  os << ']';
  return os.str();
}

}  // namespace webnn::core
