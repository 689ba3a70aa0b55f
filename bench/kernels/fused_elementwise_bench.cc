// A chain of four element-wise float32 ops on the cpu device, with the
// FuseElementwise pass (one fusedElementwise node: one pass over memory) and
// without it (four kernels, each reading and writing the whole tensor).
// GB/s counts the chain's own traffic, 1 read + 1 write of 4 bytes per
// element (the small operands are ignored), so fused and unfused compare
// directly.
//   chain 0: relu(x * s + b) then sqrt   (mul, add, relu, sqrt: cheap ops)
//   chain 1: sigmoid(exp(x) * s + b)     (exp, mul, add, sigmoid: transcendental)
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;
constexpr uint32_t kRow = 1024;

// Args: chain, elements, threads, fused.
void BM_FusedElementwise(benchmark::State& state) {
  const int chain = static_cast<int>(state.range(0));
  const uint32_t n = static_cast<uint32_t>(state.range(1));
  const bool fused = state.range(3) != 0;
  state.SetLabel(std::string(chain == 0 ? "mul>add>relu>sqrt" : "exp>mul>add>sigmoid") +
                 (fused ? " fused" : " unfused"));
  BenchGraph g(MLContextOptions{.device = MLDeviceType::kCpu, .numThreads = ThreadsArg(state, 2), .graphPasses = fused},
               {{T::kFloat32, {n / kRow, kRow}}, {T::kFloat32, {1}, true}, {T::kFloat32, {kRow}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 const MLOperand& x = in[0];
                 const MLOperand& s = in[1];
                 const MLOperand& bias = in[2];
                 MLOperand y = chain == 0 ? b.sqrt(b.relu(b.add(b.mul(x, s), bias)))
                                          : b.sigmoid(b.add(b.mul(b.exp(x), s), bias));
                 return MLNamedOperands{{"out", y}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 4.0 * n, 8.0 * n);
}
BENCHMARK(BM_FusedElementwise)
    ->ArgNames({"chain", "elements", "threads", "fused"})
    ->ArgsProduct({{0, 1}, {1 << 20, 1 << 24}, {1, 2}, {0, 1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
