// Microbenchmarks of the logical ops (cpu device): logicalAnd on uint8
// (2 reads + 1 write per byte) and isNaN on float32 (4 bytes read, 1
// written), 16M elements, 1 and 2 threads.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

void BM_LogicalAnd(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{T::kUint8, {n}}, {T::kUint8, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.logicalAnd(in[0], in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 3.0 * n);
}
BENCHMARK(BM_LogicalAnd)->ArgNames({"elements", "threads"})->ArgsProduct({{1 << 24}, {1, 2}})->UseRealTime();

void BM_IsNaN(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1), {{T::kFloat32, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.isNaN(in[0])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 5.0 * n);
}
BENCHMARK(BM_IsNaN)->ArgNames({"elements", "threads"})->ArgsProduct({{1 << 24}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
