// Reference kernel of matmul: a stack of [M, K] x [K, N] products whose batch
// dimensions broadcast. Every dot product is summed in float64 and rounded once.
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunMatmul(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const uint32_t rank = out.rank();
  const uint64_t m = out.shape[rank - 2];
  const uint64_t n = out.shape[rank - 1];
  const uint64_t k = a.shape[a.rank() - 1];

  const std::vector<uint32_t> out_batch(out.shape.begin(), out.shape.end() - 2);
  const std::vector<uint32_t> a_batch(a.shape.begin(), a.shape.end() - 2);
  const std::vector<uint32_t> b_batch(b.shape.begin(), b.shape.end() - 2);
  // Strides in whole matrices; 0 along broadcast batch dimensions.
  const auto a_strides = BroadcastStrides(a_batch, out_batch);
  const auto b_strides = BroadcastStrides(b_batch, out_batch);

  uint64_t out_matrix = 0;
  ForEachIndex(out_batch, [&](const std::vector<uint32_t>& idx) {
    const uint64_t a_base = Offset(idx, a_strides) * m * k;
    const uint64_t b_base = Offset(idx, b_strides) * k * n;
    const uint64_t out_base = out_matrix++ * m * n;
    for (uint64_t i = 0; i < m; ++i) {
      for (uint64_t j = 0; j < n; ++j) {
        // -0.0 is the identity of IEEE addition; +0.0 would turn a sum of -0 terms into +0.
        double sum = -0.0;
        for (uint64_t p = 0; p < k; ++p)
          sum += Load<double>(a, a_base + i * k + p) * Load<double>(b, b_base + p * n + j);
        Store<double>(out, out_base + i * n + j, sum);
      }
    }
  });
}

}  // namespace webnn::ops::ref
