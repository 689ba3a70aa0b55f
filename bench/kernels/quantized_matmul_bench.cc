// matmul(A, dequantizeLinear(W int4, scale, zeroPoint)) on the cpu device,
// block 32 along K, symmetric (zero points 0), float32 activations: with the
// FuseQuantizedMatmul pass (one quantizedMatmul node reading the packed int4
// codes) and without it (dequantizeLinear writes the float32 weight, then
// matmul reads it, every dispatch).
//
// GB/s counts the quantized weight's bytes, int4 codes (K * N / 2) plus
// float32 scales (K / 32 * N * 4): what the fused GEMV must stream per
// dispatch, to set against membw_bench's read bandwidth. GFLOP/s counts
// 2 * M * K * N.
//   m 1: decode-shaped GEMV (4096 x 4096: issue 12's quantized matvec case;
//        896 x 4864 and 4864 x 896: the decoder's FFN projections)
//   m 128: prefill-shaped GEMM
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;
constexpr uint32_t kBlock = 32;

// Args: m, k, n, threads, fused.
void BM_QuantizedMatmul(benchmark::State& state) {
  const uint32_t m = static_cast<uint32_t>(state.range(0));
  const uint32_t k = static_cast<uint32_t>(state.range(1));
  const uint32_t n = static_cast<uint32_t>(state.range(2));
  const bool fused = state.range(4) != 0;
  state.SetLabel(fused ? "int4 fused" : "int4 unfused");
  BenchGraph g(MLContextOptions{.device = MLDeviceType::kCpu, .numThreads = ThreadsArg(state, 3), .graphPasses = fused},
               {{T::kFloat32, {m, k}},
                {T::kInt4, {k, n}, true},
                {T::kFloat32, {k / kBlock, n}, true},
                {T::kInt4, {k / kBlock, n}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.matmul(in[0], b.dequantizeLinear(in[1], in[2], in[3]))}};
               });
  for (auto _ : state) g.Dispatch();
  const double weight_bytes = k * static_cast<double>(n) / 2 + k / kBlock * static_cast<double>(n) * 4;
  SetRates(state, 2.0 * m * k * n, weight_bytes);
}
BENCHMARK(BM_QuantizedMatmul)
    ->ArgNames({"m", "k", "n", "threads", "fused"})
    ->ArgsProduct({{1}, {4096}, {4096}, {1, 2}, {0, 1}})
    ->ArgsProduct({{1}, {896}, {4864}, {1, 2}, {0, 1}})
    ->ArgsProduct({{1}, {4864}, {896}, {1, 2}, {0, 1}})
    ->ArgsProduct({{128}, {896}, {4864}, {1, 2}, {0, 1}})
    ->ArgsProduct({{128}, {4864}, {896}, {1, 2}, {0, 1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
