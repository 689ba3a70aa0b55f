// NumPy .npy files (format versions 1.0-3.0, little-endian, C order).
#pragma once

#include <cstdint>
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

}  // namespace webnn::io
