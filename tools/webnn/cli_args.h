// Option parsing shared by the `webnn` subcommands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string>
#include <utility>
#include <vector>

#include "webnn/types.h"

namespace webnn::cli {

// Walks a command's arguments: `for (ArgWalker walk(args); walk.Next();)`;
// walk.arg() is the current one, walk.Value() takes the next as its value
// (invalid_argument "--flag needs a value" when there is none).
class ArgWalker {
 public:
  explicit ArgWalker(const std::vector<std::string>& args) : args_(args) {}
  bool Next() { return ++i_ < args_.size(); }
  const std::string& arg() const { return args_[i_]; }
  const std::string& Value() {
    if (i_ + 1 >= args_.size()) throw std::invalid_argument(arg() + " needs a value");
    return args_[++i_];
  }

 private:
  const std::vector<std::string>& args_;
  size_t i_ = static_cast<size_t>(-1);  // Next() wraps it to 0
};

// "reference", "cpu", "gpu", "auto"; invalid_argument for another name.
MLDeviceType ParseDevice(const std::string& s);
// "NAME=VALUE" -> {NAME, VALUE}; invalid_argument naming `flag` otherwise.
std::pair<std::string, std::string> SplitAssign(const std::string& s, const char* flag);
// A non-negative decimal integer that fits in 32 bits, or invalid_argument
// naming the option (std::stoul would turn "-1" into 4294967295).
uint32_t ParseUint32(const std::string& text, const std::string& option);
// Random data for an input: floats uniform in [-1, 1); integers uniform in
// [0, 4) so that index-like inputs stay mostly in range; uint8 in {0, 1}.
std::vector<std::byte> RandomData(MLOperandDataType t, uint64_t n, std::mt19937_64& rng);
// "[1, 3, 224, 224]"
std::string ShapeString(const std::vector<uint32_t>& s);
// "'a', 'b', 'c'": the keys of a map (sorted there), or "none"; for errors
// that list the names a graph has.
template <typename Map>
std::string NameList(const Map& names) {
  std::string out;
  for (const auto& [name, unused] : names) out += (out.empty() ? "'" : ", '") + name + "'";
  return out.empty() ? "none" : out;
}

}  // namespace webnn::cli
