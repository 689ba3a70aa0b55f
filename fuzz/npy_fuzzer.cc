// Fuzz target: .npy parsing. Malformed input must raise DataError, never crash.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::byte> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>(data[i]);
  try {
    webnn::io::NpyArray a = webnn::io::ParseNpy(bytes, "fuzz");
    (void)a;
  } catch (const webnn::MLException&) {
  }
  return 0;
}
