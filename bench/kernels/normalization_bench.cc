// Normalizations: layerNormalization of transformer activations [512, 768]
// (BERT-base) and [2048, 4096], batchNormalization (inference) and
// instanceNormalization of a 1x64x112x112 map in both layouts. Memory-bound:
// GB/s of input read plus output written (parameters are negligible).
#include "bench_util.h"

namespace webnn::bench {
namespace {

// range(0): rows, range(1): cols, range(2): threads.
void BM_LayerNorm(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto cols = static_cast<uint32_t>(state.range(1));
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2),
               {{MLOperandDataType::kFloat32, {rows, cols}},
                {MLOperandDataType::kFloat32, {cols}, true},
                {MLOperandDataType::kFloat32, {cols}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 MLLayerNormalizationOptions o;
                 o.scale = in[1];
                 o.bias = in[2];
                 return MLNamedOperands{{"out", b.layerNormalization(in[0], o)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 8.0 * rows * cols);
}
BENCHMARK(BM_LayerNorm)
    ->ArgNames({"rows", "cols", "threads"})
    ->ArgsProduct({{512}, {768}, {1, 2}})
    ->ArgsProduct({{2048}, {4096}, {1, 2}})
    ->UseRealTime();

// range(0): 0 batch, 1 instance; range(1): nhwc; range(2): threads.
void BM_ChannelNorm(benchmark::State& state) {
  const bool instance = state.range(0) != 0;
  const bool nhwc = state.range(1) != 0;
  const std::vector<uint32_t> shape = nhwc ? std::vector<uint32_t>{1, 112, 112, 64} : std::vector<uint32_t>{1, 64, 112, 112};
  const MLOperandDataType f32 = MLOperandDataType::kFloat32;
  BenchGraph g(MLDeviceType::kCpu, ThreadsArg(state, 2),
               {{f32, shape}, {f32, {64}, true}, {f32, {64}, true}, {f32, {64}, true}, {f32, {64}, true}},
               [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 if (instance) {
                   MLInstanceNormalizationOptions o;
                   o.scale = in[1];
                   o.bias = in[2];
                   o.layout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                   return MLNamedOperands{{"out", b.instanceNormalization(in[0], o)}};
                 }
                 MLBatchNormalizationOptions o;
                 o.scale = in[1];
                 o.bias = in[2];
                 o.axis = nhwc ? 3 : 1;
                 return MLNamedOperands{{"out", b.batchNormalization(in[0], in[3], in[4], o)}};
               });
  for (auto _ : state) g.Dispatch();
  SetRates(state, 0, 8.0 * 64 * 112 * 112);
}
BENCHMARK(BM_ChannelNorm)->ArgNames({"instance", "nhwc", "threads"})->ArgsProduct({{0, 1}, {0, 1}, {1, 2}})->UseRealTime();

}  // namespace
}  // namespace webnn::bench
