// Named dynamic dimensions of one graph (webnn#883). Symbol 0 is reserved for
// "static". Inputs that name the same dimension share a symbol; shape inference
// adds derived symbols (e.g. a conv output height computed from a dynamic input
// height). At dispatch every named symbol gets its concrete value bound.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace webnn::core {

class SymbolTable {
 public:
  struct Symbol {
    std::string name;
    uint32_t max_size = 0;
    bool derived = false;            // synthesized by shape inference
    std::optional<uint32_t> value;   // bound at dispatch
  };

  SymbolTable() { symbols_.push_back({"", 0, false, std::nullopt}); }

  // The symbol for a named dimension; creates it on first use.
  // Returns nullopt if `name` exists with a different maxSize.
  std::optional<uint32_t> Intern(std::string_view name, uint32_t max_size);
  std::optional<uint32_t> Find(std::string_view name) const;
  uint32_t AddDerived(std::string name, uint32_t max_size);

  const Symbol& Get(uint32_t id) const { return symbols_.at(id); }
  Symbol& GetMutable(uint32_t id) { return symbols_.at(id); }
  size_t size() const { return symbols_.size(); }
  void ClearValues() {
    for (auto& s : symbols_) s.value.reset();
  }

 private:
  std::vector<Symbol> symbols_;
};

}  // namespace webnn::core
