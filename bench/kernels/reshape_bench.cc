// reshape on cpu is one copy (the graph layer may later alias it): 1M-16M
// float32 elements. Memory-bound: GB/s counts every byte read once and written
// once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

void BM_Reshape(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.reshape(in[0], {MLDimension(n / 64), MLDimension(64)})}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 8.0 * n);
}
BENCHMARK(BM_Reshape)->ArgNames({"elements", "threads"})->ArgsProduct({{1 << 20, 1 << 22, 1 << 24}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
