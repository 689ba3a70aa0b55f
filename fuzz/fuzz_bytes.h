// The fuzz targets' reader of their input bytes: values drawn one after
// another, zeros once the bytes run out (so every input is a whole program).
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
  uint32_t Word() { return Byte() | Byte() << 8 | Byte() << 16 | static_cast<uint32_t>(Byte()) << 24; }
  uint64_t Long() { return static_cast<uint64_t>(Word()) << 32 | Word(); }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

}  // namespace webnn::fuzz
