// The cpu device's float32 GEMM core, shared by matmul, gemm, conv2d (1x1 and
// implicit-GEMM paths), convTranspose2d and the recurrent ops.
//
//   C[m, n] = sum_k A[m, k] * B[k, n]   (+ bias[n]) then clamped to [min, max]
//
// B is packed once (PackB) into panels laid out for the register-tiled
// micro-kernels of the best SIMD target; A is read in place (row-major with a
// leading dimension). The epilogue is applied while the tile is in registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/parallel.h"

namespace webnn::ops::cpu {

// B[K, N] packed for GemmF32. Opaque to callers; built by PackB.
struct PackedB {
  size_t k = 0;
  size_t n = 0;
  size_t panel_width = 0;  // NR: columns per panel
  std::vector<float, std::allocator<float>> data;
};

// Packs B. `b` is row-major [K, N] with leading dimension `ldb`, or, when
// `transposed`, row-major [N, K] (i.e. B^T) with leading dimension `ldb`.
PackedB PackB(const float* b, size_t k, size_t n, size_t ldb, bool transposed);

struct GemmEpilogue {
  const float* bias = nullptr;  // [N] added to every row, or null
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

// C = A x B (+ epilogue). A: [M, K] row-major with leading dimension `lda`;
// C: [M, N] with leading dimension `ldc`. Splits the work over `parallel`.
void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const PackedB& b, float* c, size_t ldc,
             const GemmEpilogue& epilogue, core::ParallelFor& parallel);

}  // namespace webnn::ops::cpu
