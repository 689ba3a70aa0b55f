// NumPy .npy files (format versions 1.0-3.0, little-endian, C order).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "webnn/types.h"

namespace webnn::io {

struct NpyArray {
  MLOperandDataType dataType = MLOperandDataType::kFloat32;
  std::vector<uint32_t> shape;
  std::vector<std::byte> data;  // packed little-endian elements
};

// Throws DataError naming the file and the problem (bad magic, unsupported
// dtype, Fortran order, truncated data, ...).
NpyArray ReadNpy(const std::string& path);
NpyArray ParseNpy(const std::vector<std::byte>& bytes, const std::string& what);
void WriteNpy(const std::string& path, const NpyArray& array);
// A tensor's packed bytes as an array .npy can hold: int4/uint4 (packed two
// per byte, low nibble first) become int8/uint8, one value per byte, since
// .npy has no 4-bit dtype; other types are as they are.
NpyArray NpyArrayOfTensor(MLOperandDataType type, const std::vector<uint32_t>& shape, std::vector<std::byte> bytes);
// The reverse: `array`'s data as packed bytes of `type`. DataError naming
// `what` unless the array holds `type` (or int8/uint8 for int4/uint4, values
// in range).
std::vector<std::byte> TensorBytesOfNpy(const NpyArray& array, MLOperandDataType type, const std::string& what);
// float64 ('<f8'), which no WebNN tensor has: the oracle's truth.
void WriteNpyFloat64(const std::string& path, const std::vector<uint32_t>& shape, std::span<const double> values);

}  // namespace webnn::io
