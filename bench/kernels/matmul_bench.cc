// Microbenchmarks of the matmul family (cpu device), GFLOP/s = 2 * M * N * K
// per product, at 1 and 2 threads:
//   square float32 256..4096 with B constant (packed at build);
//   LLM-like shapes: M (tokens) in {1, 16, 128, 4096} x K = N = 4096 and
//   M = 4096 x K = N = 1024, B constant (weights);
//   B not constant (M = 1: a GEMV streaming B; M <= 512: tiles read B in
//   place; larger M: B packed per dispatch);
//   float16 and a batched attention-like product (B not constant).
#include "bench_util.h"

namespace webnn::bench {
namespace {

void RunMatmul(benchmark::State& state, uint32_t m, uint32_t n, uint32_t k, bool constant_b,
               MLOperandDataType type = MLOperandDataType::kFloat32, uint32_t batch = 0) {
  std::vector<uint32_t> a_shape{m, k}, b_shape{k, n};
  if (batch) {
    a_shape.insert(a_shape.begin(), batch);
    b_shape.insert(b_shape.begin(), batch);
  }
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1),
               {{type, a_shape}, {type, b_shape, constant_b}},
               [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.matmul(in[0], in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 2.0 * m * n * k * (batch ? batch : 1), 0);
}

void BM_MatmulSquareF32(benchmark::State& state) {
  const uint32_t s = static_cast<uint32_t>(state.range(0));
  RunMatmul(state, s, s, s, true);
}
BENCHMARK(BM_MatmulSquareF32)
    ->ArgNames({"size", "threads"})
    ->ArgsProduct({{256, 512, 1024, 2048, 4096}, {1, 2}})
    ->UseRealTime();

// M x K=N=4096 (a 4096-wide projection of M tokens) and M=4096 x K=N=1024.
void BM_MatmulLlmF32(benchmark::State& state) {
  const uint32_t m = static_cast<uint32_t>(state.range(0));
  const uint32_t kn = static_cast<uint32_t>(state.range(2));
  RunMatmul(state, m, kn, kn, true);
}
BENCHMARK(BM_MatmulLlmF32)
    ->ArgNames({"M", "threads", "KN"})
    ->ArgsProduct({{1, 16, 128, 4096}, {1, 2}, {4096}})
    ->ArgsProduct({{4096}, {1, 2}, {1024}})
    ->UseRealTime();

// B an input: read in place (M = 1 as a GEMV, M <= 512 by the tiles) or
// packed per dispatch (M > 512).
void BM_MatmulNonConstantBF32(benchmark::State& state) {
  const uint32_t m = static_cast<uint32_t>(state.range(0));
  const uint32_t kn = static_cast<uint32_t>(state.range(2));
  RunMatmul(state, m, kn, kn, false);
}
BENCHMARK(BM_MatmulNonConstantBF32)
    ->ArgNames({"M", "threads", "KN"})
    ->ArgsProduct({{1, 16, 1024}, {1, 2}, {1024, 4096}})
    ->UseRealTime();

void BM_MatmulSquareF16(benchmark::State& state) {
  const uint32_t s = static_cast<uint32_t>(state.range(0));
  RunMatmul(state, s, s, s, true, MLOperandDataType::kFloat16);
}
BENCHMARK(BM_MatmulSquareF16)->ArgNames({"size", "threads"})->ArgsProduct({{256, 1024}, {1, 2}})->UseRealTime();

// Attention scores of one layer: 12 heads x [128, 64] x [64, 128], both inputs.
void BM_MatmulBatchedF32(benchmark::State& state) {
  RunMatmul(state, 128, 128, 64, false, MLOperandDataType::kFloat32, static_cast<uint32_t>(state.range(0)));
}
BENCHMARK(BM_MatmulBatchedF32)->ArgNames({"batch", "threads"})->ArgsProduct({{12}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
