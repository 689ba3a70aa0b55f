// Microbenchmarks of the element-wise unary ops (cpu device): 1M-16M
// elements, 1 and 2 threads. GB/s counts 1 read + 1 write per element (no
// write-allocate traffic); exp/erf/log/sin/tan are also reported as elements
// per second ("GFLOP" counter = G elements/s) since they are closer to
// compute-bound.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

MLOperand Unary(MLGraphBuilder& b, int op, const MLOperand& x) {
  switch (op) {
    case 0: return b.abs(x);
    case 1: return b.exp(x);
    case 2: return b.log(x);
    case 3: return b.erf(x);
    case 4: return b.sqrt(x);
    case 5: return b.sin(x);
    case 6: return b.tan(x);
    case 7: return b.floor(x);
    case 8: return b.reciprocal(x);
    default: return b.identity(x);
  }
}
constexpr const char* kNames[] = {"abs", "exp", "log", "erf", "sqrt", "sin", "tan", "floor", "reciprocal", "identity"};

// Args: op, elements, threads, float16.
void BM_Unary(benchmark::State& state) {
  const int op = static_cast<int>(state.range(0));
  const uint32_t n = static_cast<uint32_t>(state.range(1));
  const bool half = state.range(3) != 0;
  state.SetLabel(std::string(kNames[op]) + (half ? " f16" : ""));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{half ? T::kFloat16 : T::kFloat32, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", Unary(b, op, in[0])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, static_cast<double>(n), (half ? 4.0 : 8.0) * n);
}
BENCHMARK(BM_Unary)
    ->ArgNames({"op", "elements", "threads", "f16"})
    ->ArgsProduct({{0, 1, 3, 9}, {1 << 20, 1 << 22, 1 << 24}, {1, 2}, {0}})
    ->UseRealTime();
BENCHMARK(BM_Unary)
    ->ArgNames({"op", "elements", "threads", "f16"})
    ->ArgsProduct({{2, 4, 5, 6, 7, 8}, {1 << 22}, {1, 2}, {0}})
    ->UseRealTime();
BENCHMARK(BM_Unary)
    ->ArgNames({"op", "elements", "threads", "f16"})
    ->ArgsProduct({{0, 1, 3}, {1 << 22}, {1, 2}, {1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
