// add/mul on 1M-16M float32 elements: memory-bound, reported in GB/s
// (2 reads + 1 write per element).
#include "bench_util.h"

namespace webnn::bench {
namespace {

void BM_AddF32(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{MLOperandDataType::kFloat32, {n}}, {MLOperandDataType::kFloat32, {n}}},
               [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return MLNamedOperands{{"out", b.add(in[0], in[1])}}; });
  for (auto _ : state) g.Dispatch();
  SetRates(state, static_cast<double>(n), 12.0 * n);
}
BENCHMARK(BM_AddF32)->ArgNames({"elements", "threads"})->ArgsProduct({{1 << 20, 1 << 22, 1 << 24}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
