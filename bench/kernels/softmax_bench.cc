// softmax over the last axis of [rows, L] (classifier logits L = 1000, LLM
// vocabularies L = 32000) and over a leading axis (columns): memory-bound,
// reported in GB/s (one read and one write per element).
#include "bench_util.h"

namespace webnn::bench {
namespace {

// range(0): rows, range(1): L, range(2): axis, range(3): threads.
template <MLOperandDataType kType>
void BM_Softmax(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto cols = static_cast<uint32_t>(state.range(1));
  const auto axis = static_cast<uint32_t>(state.range(2));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 3), {{kType, {rows, cols}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.softmax(in[0], axis)}};
               });
  for (auto _ : state) g.Dispatch();
  const double n = static_cast<double>(rows) * cols;
  SetRates(state, 0, (kType == MLOperandDataType::kFloat32 ? 8.0 : 4.0) * n);
}

void SoftmaxArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "L", "axis", "threads"});
  for (int64_t threads : {1, 2}) {
    b->Args({4096, 1000, 1, threads});
    b->Args({128, 32000, 1, threads});
    b->Args({16, 32000, 1, threads});
    b->Args({1000, 4096, 0, threads});
  }
  b->UseRealTime();
}

BENCHMARK(BM_Softmax<MLOperandDataType::kFloat32>)->Apply(SoftmaxArgs);
BENCHMARK(BM_Softmax<MLOperandDataType::kFloat16>)->Apply(SoftmaxArgs);

}  // namespace
}  // namespace webnn::bench
