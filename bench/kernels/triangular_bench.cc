// triangular: causal masks of attention scores (batch x heads of 512x512 or
// 2048x2048), upper and lower. Memory-bound: GB/s counts the input read once
// and the output written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

void BM_Triangular(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  const bool upper = state.range(1) != 0;
  const uint32_t batch = n >= 2048 ? 1 : 12;
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{MLOperandDataType::kFloat32, {batch, n, n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLTriangularOptions options;
                 options.upper = upper;
                 return MLNamedOperands{{"out", b.triangular(in[0], options)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 8.0 * batch * n * n);
}
BENCHMARK(BM_Triangular)->ArgNames({"n", "upper", "threads"})->ArgsProduct({{512, 2048}, {0, 1}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
