// Microbenchmarks of the comparisons (cpu device): float32 (16 lanes -> 16
// bytes), int8 (64 lanes) and int64, 4M-16M elements, 1 and 2 threads. GB/s
// counts 2 reads + 1 uint8 write per element.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

// Args: type, elements, threads.
void BM_Greater(benchmark::State& state) {
  const T type = static_cast<T>(state.range(0));
  const uint32_t n = static_cast<uint32_t>(state.range(1));
  const double size = type == T::kInt8 ? 1 : type == T::kInt64 ? 8 : 4;
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{type, {n}}, {type, {n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.greater(in[0], in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, (2 * size + 1) * n);
}
BENCHMARK(BM_Greater)
    ->ArgNames({"type", "elements", "threads"})
    ->ArgsProduct({{static_cast<int>(T::kFloat32), static_cast<int>(T::kInt8), static_cast<int>(T::kInt64)},
                   {1 << 22, 1 << 24},
                   {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
