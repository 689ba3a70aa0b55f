// Microbenchmarks of gemm (cpu device), GFLOP/s = 2 * M * N * K, 1 and 2
// threads: a fully connected layer as ONNX exports it (B = weights^T constant,
// bTranspose, C = bias [N]) for a single row and for batches, and the general
// form (alpha, beta, full C [M, N], B an input).
#include "bench_util.h"

namespace webnn::bench {
namespace {

// Fully connected: [M, K] x W^T ([N, K] constant) + bias [N].
void BM_GemmFullyConnectedF32(benchmark::State& state) {
  const uint32_t m = static_cast<uint32_t>(state.range(0));
  const uint32_t k = static_cast<uint32_t>(state.range(2)), n = k;
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1),
               {{MLOperandDataType::kFloat32, {m, k}},
                {MLOperandDataType::kFloat32, {n, k}, true},
                {MLOperandDataType::kFloat32, {n}, true}},
               [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLGemmOptions o;
                 o.c = in[2];
                 o.bTranspose = true;
                 return MLNamedOperands{{"out", b.gemm(in[0], in[1], o)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 2.0 * m * n * k, 0);
}
BENCHMARK(BM_GemmFullyConnectedF32)
    ->ArgNames({"M", "threads", "KN"})
    ->ArgsProduct({{1, 64, 1024}, {1, 2}, {1024, 4096}})
    ->UseRealTime();

// alpha * A^T x B + beta * C with every operand an input.
void BM_GemmGeneralF32(benchmark::State& state) {
  const uint32_t s = static_cast<uint32_t>(state.range(0));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1),
               {{MLOperandDataType::kFloat32, {s, s}},
                {MLOperandDataType::kFloat32, {s, s}},
                {MLOperandDataType::kFloat32, {s, s}}},
               [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLGemmOptions o;
                 o.c = in[2];
                 o.alpha = 0.5;
                 o.beta = 2.0;
                 o.aTranspose = true;
                 return MLNamedOperands{{"out", b.gemm(in[0], in[1], o)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 2.0 * s * s * s, 0);
}
BENCHMARK(BM_GemmGeneralF32)->ArgNames({"size", "threads"})->ArgsProduct({{512, 2048}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
