// argMax over the last axis of [rows, cols] (classifier/token logits) and over
// the leading axis (columns): memory-bound, GB/s of input read.
#include "bench_util.h"

namespace webnn::bench {
namespace {

// range(0): rows, range(1): cols, range(2): axis, range(3): threads.
template <MLOperandDataType kType>
void BM_ArgMax(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto cols = static_cast<uint32_t>(state.range(1));
  const auto axis = static_cast<uint32_t>(state.range(2));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 3), {{kType, {rows, cols}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.argMax(in[0], axis)}};
               });
  for (auto _ : state) g.Dispatch();
  const double elem = kType == MLOperandDataType::kFloat32 ? 4.0 : kType == MLOperandDataType::kFloat16 ? 2.0 : 1.0;
  SetRates(state, 0, elem * static_cast<double>(rows) * cols);
}

BENCHMARK(BM_ArgMax<MLOperandDataType::kFloat32>)
    ->ArgNames({"rows", "cols", "axis", "threads"})
    ->ArgsProduct({{4096}, {1000}, {0, 1}, {1, 2}})
    ->Args({128, 32000, 1, 1})
    ->Args({128, 32000, 1, 2})
    ->UseRealTime();
BENCHMARK(BM_ArgMax<MLOperandDataType::kFloat16>)
    ->ArgNames({"rows", "cols", "axis", "threads"})
    ->ArgsProduct({{4096}, {1000}, {0, 1}, {1, 2}})
    ->UseRealTime();
BENCHMARK(BM_ArgMax<MLOperandDataType::kUint8>)
    ->ArgNames({"rows", "cols", "axis", "threads"})
    ->ArgsProduct({{4096}, {1000}, {0, 1}, {1, 2}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
