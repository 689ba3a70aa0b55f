// RoPE on the cpu device as the decoder (scripts/gen_llm_decoder.py, after
// scripts/onnx2webnn) writes it out, for one layer's q [1, 14, S, 64] and
// k [1, 2, S, 64] with shared tables [1, 1, S, 32]:
//   x1, x2 = split(x, 2, last axis)
//   concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin, last axis)
// with the FuseRotaryEmbedding pass (one rotaryEmbedding node per tensor:
// x and the tables read once, the output written once) and with the graph
// passes off (split, 4 muls, sub, add, concat one by one).
// GB/s counts the fused node's traffic: q and k read and written, the
// tables read; steps_us is the ops' own time, without the dispatch's.
//   s = 1 (a decode step), 128 and 2048 (prefill).
#include <algorithm>
#include <cmath>

#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;
constexpr uint32_t kHeads = 14, kKvHeads = 2, kHeadSize = 64;

// Args: s, threads, fused.
void BM_RotaryEmbedding(benchmark::State& state) {
  const uint32_t s = static_cast<uint32_t>(state.range(0));
  const bool fused = state.range(2) != 0;
  state.SetLabel(fused ? "fused" : "unfused");
  constexpr uint32_t half = kHeadSize / 2;
  BenchGraph graph(
      MLContextOptions{.device = MLDeviceType::kCpu, .numThreads = ThreadsArg(state, 1), .graphPasses = fused},
      {{T::kFloat32, {1, kHeads, s, kHeadSize}},
       {T::kFloat32, {1, kKvHeads, s, kHeadSize}},
       {T::kFloat32, {1, 1, s, half}},
       {T::kFloat32, {1, 1, s, half}}},
      [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        const MLOperand &cos = in[2], &sin = in[3];
        auto rope = [&](const MLOperand& x) {
          const std::vector<MLOperand> h = b.split(x, 2u, {.axis = 3});
          return b.concat({b.sub(b.mul(h[0], cos), b.mul(h[1], sin)), b.add(b.mul(h[1], cos), b.mul(h[0], sin))}, 3);
        };
        return MLNamedOperands{{"q", rope(in[0])}, {"k", rope(in[1])}};
      });
  for (auto _ : state) graph.Dispatch();
  SetRates(state, 0, 4.0 * s * (2.0 * (kHeads + kKvHeads) * kHeadSize + 2.0 * half));
  // The steps' own time, best of 5 profiled dispatches: the wall time above
  // also holds the dispatch's fixed cost (handing the program to a worker
  // and waiting for it), most of it at s = 1.
  double steps_ms = INFINITY;
  for (int r = 0; r < 5; ++r) steps_ms = std::min(steps_ms, graph.DeviceMs());
  state.counters["steps_us"] = steps_ms * 1e3;
}
BENCHMARK(BM_RotaryEmbedding)
    ->ArgNames({"s", "threads", "fused"})
    ->ArgsProduct({{1}, {1}, {0, 1}})
    ->ArgsProduct({{128, 2048}, {1, 2}, {0, 1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
