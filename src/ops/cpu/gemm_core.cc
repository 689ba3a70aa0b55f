// PLACEHOLDER: a straightforward (correct, slow) implementation of the GEMM
// core API until the packed, register-tiled kernels land.
#include <algorithm>

#include "ops/cpu/gemm.h"

namespace webnn::ops::cpu {

PackedB PackB(const float* b, size_t k, size_t n, size_t ldb, bool transposed) {
  PackedB p;
  p.k = k;
  p.n = n;
  p.panel_width = n;
  p.data.resize(k * n);
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < n; ++j) p.data[i * n + j] = transposed ? b[j * ldb + i] : b[i * ldb + j];
  return p;
}

void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const PackedB& b, float* c, size_t ldc,
             const GemmEpilogue& epilogue, core::ParallelFor& parallel) {
  parallel.Run(m, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      for (size_t j = 0; j < n; ++j) {
        float acc = epilogue.bias ? epilogue.bias[j] : 0.0f;
        for (size_t q = 0; q < k; ++q) acc += a[i * lda + q] * b.data[q * n + j];
        c[i * ldc + j] = std::min(std::max(acc, epilogue.min), epilogue.max);
      }
    }
  });
}

}  // namespace webnn::ops::cpu
