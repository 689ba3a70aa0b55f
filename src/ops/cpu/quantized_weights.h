// The cpu device's packed quantizedMatmul weights (see the layout at the top
// of quantized_matmul.cc): what Pack makes once per compiled graph and every
// path of the kernel reads (the GEMV, the GEMM's micro-panels, the AMX GEMM).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace webnn::ops::cpu::qmm {

constexpr size_t kGroup = 16;  // columns per group

enum class Codes { kNibbles, kUint8, kInt8 };

struct PackedWeights {
  Codes codes = Codes::kNibbles;
  size_t k = 0, n = 0, block = 0, blocks = 0, groups = 0;
  size_t code_rows = 0;  // byte rows per block: block (8-bit) or ceil(block / 2) (4-bit)
  bool f16 = false;      // weights round to float16 (the scale is float16)
  // Every scale is finite and no weight overflows (|code - zp| * |scale|
  // below the float type's largest value): the GEMV may factor the scales
  // out of the block sums (see QuantizedMatmulF32).
  bool factorable = false;
  std::vector<uint8_t> code_bytes;   // [groups][blocks][code_rows][kGroup]
  std::vector<float> scales;         // [groups][blocks][kGroup]
  std::vector<uint8_t> zero_points;  // [groups][blocks][kGroup] (int8: two's complement), or empty:
  int32_t zero_point = 0;            // every zero point, when they are all equal
  // Gated (SwiGLU) weights: the groups alternate between the gate's and the
  // up projection's (group 2j: gate columns 16j.., group 2j + 1: up columns
  // 16j..), n counts both padded to whole groups, and the output has gated_n
  // columns. 0 for a plain weight.
  size_t gated_n = 0;
  size_t out_n() const { return gated_n ? gated_n : n; }

  const uint8_t* codes_at(size_t g, size_t b) const {
    return code_bytes.data() + ((g * blocks + b) * code_rows) * kGroup;
  }
  const float* scales_at(size_t g, size_t b) const { return scales.data() + (g * blocks + b) * kGroup; }
  const uint8_t* zero_points_at(size_t g, size_t b) const {
    return zero_points.empty() ? nullptr : zero_points.data() + (g * blocks + b) * kGroup;
  }
  size_t bytes() const {
    return code_bytes.capacity() + scales.capacity() * sizeof(float) + zero_points.capacity();
  }
};

}  // namespace webnn::ops::cpu::qmm
