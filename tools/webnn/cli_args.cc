#include "cli_args.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/float16.h"

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

std::vector<std::byte> RandomData(MLOperandDataType t, uint64_t n, std::mt19937_64& rng) {
  std::vector<std::byte> d(ByteLengthFor(t, n));
  std::uniform_real_distribution<double> uf(-1.0, 1.0);
  std::uniform_int_distribution<int> ui(0, 3);
  for (uint64_t k = 0; k < n; ++k) {
    auto put = [&](auto x) { std::memcpy(d.data() + k * sizeof(x), &x, sizeof(x)); };
    switch (t) {
      case MLOperandDataType::kFloat32: put(static_cast<float>(uf(rng))); break;
      case MLOperandDataType::kFloat16: put(core::DoubleToHalfBits(uf(rng))); break;
      case MLOperandDataType::kInt32: put(static_cast<int32_t>(ui(rng))); break;
      case MLOperandDataType::kUint32: put(static_cast<uint32_t>(ui(rng))); break;
      case MLOperandDataType::kInt64: put(static_cast<int64_t>(ui(rng))); break;
      case MLOperandDataType::kUint64: put(static_cast<uint64_t>(ui(rng))); break;
      case MLOperandDataType::kInt8: put(static_cast<int8_t>(ui(rng))); break;
      case MLOperandDataType::kUint8: put(static_cast<uint8_t>(ui(rng) & 1)); break;
      case MLOperandDataType::kInt4:
      case MLOperandDataType::kUint4: d[k / 2] = static_cast<std::byte>(ui(rng) | (ui(rng) << 4)); break;
    }
  }
  return d;
}

}  // namespace webnn::cli
