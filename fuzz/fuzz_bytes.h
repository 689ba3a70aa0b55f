// The fuzz targets' reader of their input bytes: values drawn one after
// another, zeros once the bytes run out (so every input is a whole program).
// Draw in sequenced statements, never two draws in one call's arguments or
// one operator's operands: their order is unspecified (GCC and clang differ),
// and the same bytes would then be another program in the other compiler's
// build (a libFuzzer artifact from clang would not replay in a GCC build).
#pragma once

#include <cstddef>
#include <cstdint>

namespace webnn::fuzz {

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t Byte() { return at_ < size_ ? data_[at_++] : 0; }
  uint32_t Below(uint32_t n) { return n ? Byte() % n : 0; }
  uint32_t Word() {
    uint32_t w = Byte();
    w |= static_cast<uint32_t>(Byte()) << 8;
    w |= static_cast<uint32_t>(Byte()) << 16;
    return w | static_cast<uint32_t>(Byte()) << 24;
  }
  uint64_t Long() {
    const uint64_t high = Word();
    return high << 32 | Word();
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

}  // namespace webnn::fuzz
