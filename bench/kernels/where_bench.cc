// Microbenchmarks of where (cpu device): float32 values with a uint8
// condition, all three operands full-size (1 + 4 + 4 bytes read, 4 written)
// and with a scalar false value (masked fill), 4M-16M elements, 1 and 2
// threads.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

// Args: elements, threads, scalar false value.
void BM_Where(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  const bool scalar = state.range(2) != 0;
  state.SetLabel(scalar ? "scalar falseValue" : "full");
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 1),
               {{T::kUint8, {n}}, {T::kFloat32, {n}}, {T::kFloat32, scalar ? std::vector<uint32_t>{1} : std::vector<uint32_t>{n}}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", b.where(in[0], in[1], in[2])}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, (scalar ? 9.0 : 13.0) * n);
}
BENCHMARK(BM_Where)->ArgNames({"elements", "threads", "scalar"})->ArgsProduct({{1 << 22, 1 << 24}, {1, 2}, {0, 1}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
