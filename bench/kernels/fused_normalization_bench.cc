// RMSNorm and layerNorm as decoders and PP-OCRv4 rec write them out, on the
// cpu device, with the FuseNormalization pass (one fusedNormalization node)
// and without it (the ops one by one):
//   rms:   x = a + b (residual, read on by the next layer), pow, reduceMean,
//          add eps, sqrt, div, mul scale: [1, rows, 896] (the LLM decoder);
//   layer: reduceMean, sub, pow, reduceMean, add eps, sqrt, div, mul, add:
//          [1, rows, 120] (PP-OCRv4 rec's SVTR blocks).
// GB/s counts the fused node's traffic: the inputs read once, the outputs
// written once.
#include "bench_util.h"

namespace webnn::bench {
namespace {

using T = MLOperandDataType;

// Args: layer (0 rms, 1 layer), rows, width, threads, fused.
void BM_FusedNormalization(benchmark::State& state) {
  const bool layer = state.range(0) != 0;
  const uint32_t rows = static_cast<uint32_t>(state.range(1));
  const uint32_t width = static_cast<uint32_t>(state.range(2));
  const bool fused = state.range(4) != 0;
  state.SetLabel(std::string(layer ? "layerNorm " : "RMSNorm + residual ") + (fused ? "fused" : "unfused"));
  const std::vector<uint32_t> shape{1, rows, width};
  BenchGraph graph(
      MLContextOptions{.device = MLDeviceType::kCpu, .numThreads = ThreadsArg(state, 3), .graphPasses = fused},
      // rms: a, b, scale; layer: x, scale, bias.
      {{T::kFloat32, shape}, {T::kFloat32, layer ? std::vector<uint32_t>{width} : shape}, {T::kFloat32, {width}}},
      [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        const MLReduceOptions last{.axes = std::vector<uint32_t>{2}, .keepDimensions = true};
        const MLOperand two = b.constant(T::kFloat32, MLNumber(2.0));
        const MLOperand eps = b.constant(T::kFloat32, MLNumber(1e-6));
        if (layer) {
          const MLOperand c = b.sub(in[0], b.reduceMean(in[0], last));
          const MLOperand d = b.sqrt(b.add(b.reduceMean(b.pow(c, two), last), eps));
          return MLNamedOperands{{"out", b.add(b.mul(b.div(c, d), in[1]), in[2])}};
        }
        const MLOperand x = b.add(in[0], in[1]);
        const MLOperand d = b.sqrt(b.add(b.reduceMean(b.pow(x, two), last), eps));
        return MLNamedOperands{{"out", b.mul(b.div(x, d), in[2])}, {"sum", x}};
      });
  for (auto _ : state) graph.Dispatch();
  const double elements = static_cast<double>(rows) * width;
  SetRates(state, 0, 4.0 * elements * (layer ? 2 : 4));
}
BENCHMARK(BM_FusedNormalization)
    ->ArgNames({"layer", "rows", "width", "threads", "fused"})
    ->ArgsProduct({{0}, {1, 128}, {896}, {1}, {0, 1}})
    ->ArgsProduct({{1}, {80}, {120}, {1}, {0, 1}})
    ->UseRealTime();

}  // namespace
}  // namespace webnn::bench
