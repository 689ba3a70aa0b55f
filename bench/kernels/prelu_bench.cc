// Microbenchmarks of prelu (cpu device): per-channel slopes over NCHW
// activations of real models (PP-OCR / MobileNet-style [1, 64, 160, 160] and
// [1, 128, 80, 80]) and an elementwise slope, float32, 1 and 2 threads. GB/s
// counts 1 read + 1 write per element (the slopes are tiny).
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

// Args: channels, spatial, threads.
void BM_Prelu(benchmark::State& state) {
  const uint32_t c = static_cast<uint32_t>(state.range(0));
  const uint32_t hw = static_cast<uint32_t>(state.range(1));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2), {{T::kFloat32, {1, c, hw, hw}}, {T::kFloat32, {c, 1, 1}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.prelu(in[0], in[1])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 8.0 * c * hw * hw);
}
BENCHMARK(BM_Prelu)->ArgNames({"channels", "hw", "threads"})->Args({64, 160, 1})->Args({64, 160, 2})->Args({128, 80, 1})->Args({128, 80, 2})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
