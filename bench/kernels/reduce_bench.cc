// Reductions on ~16M float32 elements: memory-bound, reported in GB/s (the
// input read once plus the output written). "inner" reduces the contiguous
// axis of [rows, cols] (one horizontal sum per row), "outer" the leading axis
// (vertical accumulation across rows, one lane per column); "all" reduces
// everything to one value (windows split across threads).
#include "bench_util.h"

namespace webnn::bench {
namespace {

enum Kind { kSum, kMean, kMax, kL2, kLogSumExp };

MLOperand Apply(MLGraphBuilder& b, Kind kind, const MLOperand& x, const MLReduceOptions& o) {
  switch (kind) {
    case kSum: return b.reduceSum(x, o);
    case kMean: return b.reduceMean(x, o);
    case kMax: return b.reduceMax(x, o);
    case kL2: return b.reduceL2(x, o);
    default: return b.reduceLogSumExp(x, o);
  }
}

// range(0): rows, range(1): cols, range(2): axis (0 outer, 1 inner, 2 all), range(3): threads.
template <Kind kKind, MLOperandDataType kType = MLOperandDataType::kFloat32>
void BM_Reduce(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto cols = static_cast<uint32_t>(state.range(1));
  const int64_t axis = state.range(2);
  MLReduceOptions o;
  if (axis < 2) o.axes = std::vector<uint32_t>{static_cast<uint32_t>(axis)};
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 3), {{kType, {rows, cols}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", Apply(b, kKind, in[0], o)}};
               });
  for (auto _ : state) g.Dispatch();
  const double elem = kType == MLOperandDataType::kFloat32 ? 4.0 : 2.0;
  const double n = static_cast<double>(rows) * cols;
  const double outputs = axis == 0 ? cols : axis == 1 ? rows : 1;
  SetRates(state, n, elem * (n + outputs));
}

void ReduceArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "cols", "axis", "threads"});
  for (int64_t threads : {1, 2}) {
    for (int64_t axis : {0, 1}) {
      b->Args({4096, 4096, axis, threads});
      b->Args({16384, 1024, axis, threads});
      b->Args({1024, 16384, axis, threads});
    }
    b->Args({4096, 4096, 2, threads});
    // L2-resident (1 MiB): the kernels' compute throughput.
    b->Args({512, 512, 0, threads});
    b->Args({512, 512, 1, threads});
    b->Args({1, 16, 1, threads});  // dispatch overhead
  }
  b->UseRealTime();
}

BENCHMARK(BM_Reduce<kSum>)->Apply(ReduceArgs);
BENCHMARK(BM_Reduce<kMean>)->Apply(ReduceArgs);
BENCHMARK(BM_Reduce<kMax>)->Apply(ReduceArgs);
BENCHMARK(BM_Reduce<kSum, MLOperandDataType::kFloat16>)->Apply(ReduceArgs);
BENCHMARK(BM_Reduce<kL2>)->ArgNames({"rows", "cols", "axis", "threads"})->ArgsProduct({{4096}, {4096}, {0, 1}, {1, 2}})->UseRealTime();
BENCHMARK(BM_Reduce<kLogSumExp>)->ArgNames({"rows", "cols", "axis", "threads"})->ArgsProduct({{4096}, {4096}, {0, 1}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
