// Fuzz target: weights files. The input is parsed as a safetensors file and as
// a .weights file (with a manifest taken from its first line when it has one,
// else a fixed one). Malformed input must raise DataError, never crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/webnn_graph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::byte> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>(data[i]);
  try {
    webnn::io::WeightStore::FromSafetensorsBytes(bytes, "fuzz");
  } catch (const webnn::MLException&) {
  }
  const std::string text(reinterpret_cast<const char*>(data), size);
  const size_t nl = text.find('\n');
  std::string manifest =
      R"({"format":"wg-weights-manifest","version":1,"tensors":{"w":{"dataType":"float32","shape":[2],"byteOffset":8,"byteLength":8}}})";
  std::vector<std::byte> weights = bytes;
  if (nl != std::string::npos) {
    manifest = text.substr(0, nl);
    weights.assign(bytes.begin() + static_cast<std::ptrdiff_t>(nl + 1), bytes.end());
  }
  try {
    webnn::io::WeightStore::FromWeightsBytes(weights, manifest, "fuzz");
  } catch (const webnn::MLException&) {
  }
  return 0;
}
